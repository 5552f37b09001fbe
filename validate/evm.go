package validate

import (
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"golang.org/x/crypto/sha3"
)

// EVMAddress checks an Ethereum-style wallet address: "0x" and 40
// hexadecimal digits. A mixed-case address carries an EIP-55 checksum that
// must match; an all-lower or all-upper one carries none and is accepted
// with a warning, because a typo in it cannot be detected. It returns the
// checksummed form. The zero address is refused: funds sent there are lost.
func EVMAddress(s string) (checksummed string, warning string, err error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return "", "", errors.New("required: type the wallet address (0x and 40 hexadecimal digits)")
	}
	if !strings.HasPrefix(t, "0x") {
		if strings.HasPrefix(t, "0X") {
			return "", "", errors.New(`starts with "0X": type a lower-case "0x"`)
		}
		return "", "", errors.New(`must start with "0x" followed by 40 hexadecimal digits`)
	}
	h := t[2:]
	if len(h) != 40 {
		return "", "", fmt.Errorf("has %d characters after 0x, an address has 40 hexadecimal digits: copy the whole address again", len(h))
	}
	if !IsHex(h) {
		return "", "", errors.New("contains a character that is not hexadecimal (0-9, a-f): paste the address again")
	}
	if strings.Trim(h, "0") == "" {
		return "", "", errors.New("is the zero address, where funds are lost: type the recipient's address")
	}
	sum := eip55(h)
	lower, upper := strings.ToLower(h) == h, strings.ToUpper(h) == h
	switch {
	case "0x"+h == sum: // checksummed, or no letter whose case could carry one
	case lower || upper:
		warning = "no EIP-55 checksum (all one case), so a typo cannot be detected: compare with the checksummed form " + sum
	case "0x"+h != sum:
		return "", "", errors.New("EIP-55 checksum does not match (a letter's case or a digit is wrong): copy the address again from its source")
	}
	return sum, warning, nil
}

// eip55 returns the checksummed form of 40 hex digits: each letter is
// upper-cased when the matching nibble of keccak-256(lower-case hex) is 8 or
// more.
func eip55(h string) string {
	lower := strings.ToLower(h)
	k := sha3.NewLegacyKeccak256()
	k.Write([]byte(lower))
	hash := hex.EncodeToString(k.Sum(nil))
	out := []byte("0x" + lower)
	for i := 0; i < 40; i++ {
		c := out[i+2]
		if c >= 'a' && c <= 'f' && hash[i] >= '8' {
			out[i+2] = c - 'a' + 'A'
		}
	}
	return string(out)
}
