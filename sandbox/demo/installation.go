package demo

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"strings"
)

// The demo accesses' secrets (API keys, private keys, passwords, e-mail
// tokens) come from the seed, and the RSA keys are fixed: every sandbox of
// a seed has the same ones, published with tesouro. That is what makes a
// local sandbox reproducible, and what must not answer on a network. An
// Installation replaces them with secrets of one installation: a random
// key the other secrets derive from, and freshly generated RSA keys. The
// demo data (accounts, ids, tickets) stays the seed's.

// Installation is the secret of one installation's demo credentials.
type Installation struct {
	Key []byte            `json:"key"` // 32 random bytes
	RSA map[string]string `json:"rsa"` // the RSA accesses' private keys (PEM), by name
}

// NewInstallation makes fresh demo credentials' secrets (the RSA keys take
// a moment to generate).
func NewInstallation() (*Installation, error) {
	in := &Installation{Key: make([]byte, 32), RSA: map[string]string{}}
	if _, err := rand.Read(in.Key); err != nil {
		return nil, err
	}
	for _, d := range demoAccesses() {
		if d.keyType != "rsa" {
			continue
		}
		k, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			return nil, fmt.Errorf("demo access %s: %w", d.name, err)
		}
		// The same encoding as the published key it replaces (PKCS#1
		// or PKCS#8): clients are exercised on both.
		block := &pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k)}
		if !strings.Contains(d.rsaPEM, "BEGIN RSA PRIVATE KEY") {
			der, err := x509.MarshalPKCS8PrivateKey(k)
			if err != nil {
				return nil, err
			}
			block = &pem.Block{Type: "PRIVATE KEY", Bytes: der}
		}
		in.RSA[d.name] = strings.TrimSuffix(string(pem.EncodeToMemory(block)), "\n")
	}
	return in, nil
}

// Marshal is the installation as text, to be kept with the state.
func (in *Installation) Marshal() string {
	data, _ := json.Marshal(in)
	return string(data)
}

// ParseInstallation reads what Marshal wrote.
func ParseInstallation(s string) (*Installation, error) {
	var in Installation
	if err := json.Unmarshal([]byte(s), &in); err != nil {
		return nil, fmt.Errorf("the installation's demo credentials are not readable: %w", err)
	}
	if len(in.Key) != 32 {
		return nil, errors.New("the installation's demo credentials have no key")
	}
	for _, d := range demoAccesses() {
		if d.keyType == "rsa" {
			if _, err := parseRSA(in.RSA[d.name]); err != nil {
				return nil, fmt.Errorf("the installation's key of %s: %w", d.name, err)
			}
		}
	}
	return &in, nil
}

// secrets is where the demo accesses' secrets come from: the seed alone
// (the published demo credentials) or an installation.
type secrets struct {
	seed int64
	in   *Installation
}

// derive is 32 bytes for label.
func (s secrets) derive(label string) []byte {
	if s.in == nil {
		return derive(s.seed, label)
	}
	m := hmac.New(sha256.New, s.in.Key)
	m.Write([]byte("tesouro-sandbox/installation/" + label))
	return m.Sum(nil)
}

// rsaPEM is the RSA private key of the access d.
func (s secrets) rsaPEM(d demoAccess) string {
	if s.in == nil {
		return d.rsaPEM
	}
	return s.in.RSA[d.name]
}

// Fingerprint names an installation's secrets without revealing them
// (hex of a hash, 8 characters).
func (in *Installation) Fingerprint() string {
	h := sha256.Sum256(in.Key)
	return hex.EncodeToString(h[:4])
}
