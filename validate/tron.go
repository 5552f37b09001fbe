package validate

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"math/big"
	"strings"
)

const base58Alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

// TronAddress checks a TRON address: base58check of 25 bytes, version byte
// 0x41 (so it starts with "T"), and the first 4 bytes of a double SHA-256 as
// checksum.
func TronAddress(s string) error {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "T") || len(s) != 34 {
		return errors.New(`a TRON address starts with "T" and has 34 characters: paste it again`)
	}
	n := new(big.Int)
	for _, r := range s {
		i := strings.IndexRune(base58Alphabet, r)
		if i < 0 {
			return fmt.Errorf("%q is not a base58 character: paste the address again", r)
		}
		n.Mul(n, big.NewInt(58))
		n.Add(n, big.NewInt(int64(i)))
	}
	b := n.Bytes()
	if len(b) != 25 || b[0] != 0x41 {
		return errors.New("is not a TRON address (wrong length or version): paste it again")
	}
	h1 := sha256.Sum256(b[:21])
	h2 := sha256.Sum256(h1[:])
	if !bytes.Equal(h2[:4], b[21:]) {
		return errors.New("checksum does not match (a character is wrong): copy the address again from its source")
	}
	return nil
}

// ChainAddress checks a wallet address by the rules of its chain: TRON's
// base58check on TRON, EIP-55 on every other (EVM) chain. It returns the
// address as it is sent (checksummed on EVM chains) and EVMAddress's
// warning for an address without a checksum.
func ChainAddress(chain, s string) (addr, warning string, err error) {
	if strings.EqualFold(strings.TrimSpace(chain), "TRON") {
		if err := TronAddress(s); err != nil {
			return "", "", err
		}
		return strings.TrimSpace(s), "", nil
	}
	return EVMAddress(s)
}
