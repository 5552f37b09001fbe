package api

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"fmt"
)

// KeyPair is a key pair made for an API key: the private key as PKCS#8
// PEM (for the keyring only), the public key as PKIX PEM (what the
// service registers) and the public key's fingerprint (for the journal
// and for people to tell keys apart).
type KeyPair struct {
	Signer      crypto.Signer
	PrivatePEM  string
	PublicPEM   string
	Fingerprint string
}

// NewKeyPair makes a key pair of type typ (KeyEd25519, KeyECDSA on P-256,
// or KeyRSA of rsaBits bits), the kinds ParsePrivateKey reads back.
func NewKeyPair(typ string, rsaBits int) (KeyPair, error) {
	var key crypto.Signer
	var err error
	switch typ {
	case KeyEd25519:
		_, key, err = ed25519.GenerateKey(rand.Reader)
	case KeyECDSA:
		key, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	case KeyRSA:
		key, err = rsa.GenerateKey(rand.Reader, rsaBits)
	default:
		return KeyPair{}, fmt.Errorf("unknown key type %q", typ)
	}
	if err != nil {
		return KeyPair{}, fmt.Errorf("make the %s key pair: %w", typ, err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return KeyPair{}, fmt.Errorf("encode the private key: %w", err)
	}
	pub, err := x509.MarshalPKIXPublicKey(key.Public())
	if err != nil {
		return KeyPair{}, fmt.Errorf("encode the public key: %w", err)
	}
	return KeyPair{
		Signer:      key,
		PrivatePEM:  string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})),
		PublicPEM:   string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pub})),
		Fingerprint: fingerprintDER(pub),
	}, nil
}

// Fingerprint is a public key's fingerprint, "SHA256:" and the unpadded
// base64 of the SHA-256 of its PKIX encoding ("unknown" for a key that
// does not encode).
func Fingerprint(pub crypto.PublicKey) string {
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		return "unknown"
	}
	return fingerprintDER(der)
}

func fingerprintDER(der []byte) string {
	sum := sha256.Sum256(der)
	return "SHA256:" + base64.RawStdEncoding.EncodeToString(sum[:])
}
