package accesses

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

	"github.com/tesouro-treasury/tesouro/api"
)

// keyTypes are the key pairs an API key may sign with, the default first.
var keyTypes = []string{api.KeyEd25519, api.KeyECDSA, api.KeyRSA}

// keyPair is a key pair made for a new API key: the private key as PEM
// (for the keyring only), the public key as PEM (for the service), and the
// public key's fingerprint (for the journal and the user to tell keys
// apart).
type keyPair struct {
	private, public, fingerprint string
}

// newKeyPair makes a key pair of type typ (RSA keys are 3072 bits).
func newKeyPair(typ string) (keyPair, error) {
	var key crypto.Signer
	var err error
	switch typ {
	case api.KeyEd25519:
		_, key, err = ed25519.GenerateKey(rand.Reader)
	case api.KeyECDSA:
		key, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	case api.KeyRSA:
		key, err = rsa.GenerateKey(rand.Reader, 3072)
	default:
		return keyPair{}, fmt.Errorf("unknown key type %q", typ)
	}
	if err != nil {
		return keyPair{}, fmt.Errorf("make the %s key pair: %w", typ, err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return keyPair{}, fmt.Errorf("encode the private key: %w", err)
	}
	pub, err := x509.MarshalPKIXPublicKey(key.Public())
	if err != nil {
		return keyPair{}, fmt.Errorf("encode the public key: %w", err)
	}
	sum := sha256.Sum256(pub)
	return keyPair{
		private:     string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})),
		public:      string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pub})),
		fingerprint: "SHA256:" + base64.RawStdEncoding.EncodeToString(sum[:]),
	}, nil
}
