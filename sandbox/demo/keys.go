package demo

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/hmac"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/binary"
	"encoding/pem"
	"errors"
	"fmt"
)

// derive returns 32 bytes that depend only on the seed and the label, so
// that the same seed always yields the same demo keys, ids and secrets.
func derive(seed int64, label string) []byte {
	var k [8]byte
	binary.BigEndian.PutUint64(k[:], uint64(seed))
	m := hmac.New(sha256.New, k[:])
	m.Write([]byte("tesouro-sandbox/" + label))
	return m.Sum(nil)
}

// demoKey makes the private key of a demo access and returns it with its
// PEM. Ed25519 and ECDSA keys are derived from the seed; RSA keys are the
// fixed demo keys (generating RSA keys is too slow for a sandbox that must
// start in milliseconds). The PEM encodings vary on purpose (PKCS#8,
// PKCS#1, SEC 1) so that clients are exercised on every form they accept.
func demoKey(sec secrets, name, keyType, rsaPEM string, sec1 bool) (crypto.PublicKey, string, error) {
	switch keyType {
	case "ed25519":
		priv := ed25519.NewKeyFromSeed(sec.derive("ed25519/" + name))
		der, err := x509.MarshalPKCS8PrivateKey(priv)
		if err != nil {
			return nil, "", err
		}
		return priv.Public(), string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})), nil
	case "ecdsa":
		var priv *ecdsa.PrivateKey
		for i := 0; priv == nil; i++ {
			k, err := ecdsa.ParseRawPrivateKey(elliptic.P256(), sec.derive(fmt.Sprintf("ecdsa/%s/%d", name, i)))
			if err == nil {
				priv = k
			}
			if i > 64 {
				return nil, "", errors.New("cannot derive an ECDSA key")
			}
		}
		if sec1 {
			der, err := x509.MarshalECPrivateKey(priv)
			if err != nil {
				return nil, "", err
			}
			return &priv.PublicKey, string(pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: der})), nil
		}
		der, err := x509.MarshalPKCS8PrivateKey(priv)
		if err != nil {
			return nil, "", err
		}
		return &priv.PublicKey, string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})), nil
	case "rsa":
		k, err := parseRSA(rsaPEM)
		if err != nil {
			return nil, "", err
		}
		return &k.PublicKey, rsaPEM + "\n", nil
	}
	return nil, "", fmt.Errorf("unknown key type %q", keyType)
}

func parseRSA(p string) (*rsa.PrivateKey, error) {
	b, _ := pem.Decode([]byte(p))
	if b == nil {
		return nil, errors.New("demo RSA key: no PEM block")
	}
	if b.Type == "RSA PRIVATE KEY" {
		return x509.ParsePKCS1PrivateKey(b.Bytes)
	}
	k, err := x509.ParsePKCS8PrivateKey(b.Bytes)
	if err != nil {
		return nil, err
	}
	rk, ok := k.(*rsa.PrivateKey)
	if !ok {
		return nil, errors.New("demo RSA key: not RSA")
	}
	return rk, nil
}

// WebhookKey is the fixed demo key that signs webhook deliveries.
func WebhookKey() (*rsa.PrivateKey, error) { return parseRSA(demoRSAWebhookPEM) }
