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
	"errors"
	"fmt"
	"hash/maphash"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Key types an API key may be signed with.
const (
	KeyEd25519 = "ed25519"
	KeyECDSA   = "ecdsa"
	KeyRSA     = "rsa"
)

// APIKeyAuth signs every request with the access's private key
// (spec/service.md §2): X-API-Key, X-API-Timestamp (Unix ms) and
// X-API-Signature = base64(sign(timestamp + METHOD + requestURI + body)).
//   - RSA: RSASSA-PKCS1-v1_5 over SHA-256;
//   - ECDSA P-256: ASN.1 DER over SHA-256;
//   - Ed25519: the 64-byte signature over the unhashed message.
type APIKeyAuth struct {
	apiKey  string
	keyType string
	ed      ed25519.PrivateKey
	ec      *ecdsa.PrivateKey
	rsa     *rsa.PrivateKey
	now     func() time.Time

	// The service accepts a signed message once (401 REPLAYED), so two
	// identical requests, or a request and its retry, must not share a
	// millisecond. lastMS is the latest millisecond stamped and sent holds
	// the messages (hashed) stamped with it, all under mu; sleep waits for
	// the clock (time.Sleep, replaced in tests).
	mu     sync.Mutex
	lastMS int64
	sent   map[uint64]struct{}
	full   bool // lastMS takes no stamp at all (the signer was made in it)
	seed   maphash.Seed
	sleep  func(time.Duration)
}

// NewAPIKeyAuth reads privateKeyPEM (PKCS#8 for any type, PKCS#1 for RSA,
// SEC1 for ECDSA; an "EC PARAMETERS" block before the key is skipped).
func NewAPIKeyAuth(apiKey string, privateKeyPEM []byte) (*APIKeyAuth, error) {
	if strings.TrimSpace(apiKey) == "" {
		return nil, errors.New("API key is empty: paste the key the service issued for this access")
	}
	key, err := ParsePrivateKey(privateKeyPEM)
	if err != nil {
		return nil, err
	}
	a := &APIKeyAuth{apiKey: strings.TrimSpace(apiKey), now: time.Now, sleep: time.Sleep, seed: maphash.MakeSeed(), sent: map[uint64]struct{}{}}
	// The millisecond the signer is made in may hold the stamps of the
	// process before (a script run twice in a row): its first stamp is the
	// next one.
	a.lastMS = a.now().UnixMilli()
	a.full = true
	switch k := key.(type) {
	case ed25519.PrivateKey:
		a.keyType, a.ed = KeyEd25519, k
	case *ecdsa.PrivateKey:
		a.keyType, a.ec = KeyECDSA, k
	case *rsa.PrivateKey:
		a.keyType, a.rsa = KeyRSA, k
	}
	return a, nil
}

// ParsePrivateKey reads an Ed25519, ECDSA P-256 or RSA private key from PEM.
func ParsePrivateKey(pemBytes []byte) (crypto.Signer, error) {
	rest := pemBytes
	for {
		var block *pem.Block
		block, rest = pem.Decode(rest)
		if block == nil {
			return nil, errors.New("private key: no PEM block found; expected -----BEGIN PRIVATE KEY----- (PKCS#8), RSA PRIVATE KEY or EC PRIVATE KEY")
		}
		if _, encrypted := block.Headers["Proc-Type"]; encrypted || strings.Contains(block.Type, "ENCRYPTED") {
			return nil, errors.New("private key: the PEM is encrypted; export it without a passphrase")
		}
		switch block.Type {
		case "EC PARAMETERS":
			continue
		case "PRIVATE KEY":
			k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
			if err != nil {
				return nil, fmt.Errorf("private key: PKCS#8: %w", err)
			}
			return checkKey(k)
		case "RSA PRIVATE KEY":
			k, err := x509.ParsePKCS1PrivateKey(block.Bytes)
			if err != nil {
				return nil, fmt.Errorf("private key: PKCS#1: %w", err)
			}
			return checkKey(k)
		case "EC PRIVATE KEY":
			k, err := x509.ParseECPrivateKey(block.Bytes)
			if err != nil {
				return nil, fmt.Errorf("private key: SEC1: %w", err)
			}
			return checkKey(k)
		case "PUBLIC KEY", "RSA PUBLIC KEY":
			return nil, errors.New("private key: this is a public key; give the private key that pairs with the one registered")
		default:
			return nil, fmt.Errorf("private key: unsupported PEM block %q", block.Type)
		}
	}
}

func checkKey(k any) (crypto.Signer, error) {
	switch k := k.(type) {
	case ed25519.PrivateKey:
		return k, nil
	case *ecdsa.PrivateKey:
		if k.Curve != elliptic.P256() {
			return nil, fmt.Errorf("private key: ECDSA curve %s is not supported; use P-256", k.Curve.Params().Name)
		}
		return k, nil
	case *rsa.PrivateKey:
		if k.N.BitLen() < 2048 {
			return nil, fmt.Errorf("private key: RSA key of %d bits is too short; use 2048 bits or more", k.N.BitLen())
		}
		return k, nil
	}
	return nil, fmt.Errorf("private key: %T is not supported; use Ed25519, ECDSA P-256 or RSA", k)
}

// KeyType is "ed25519", "ecdsa" or "rsa".
func (a *APIKeyAuth) KeyType() string { return a.keyType }

// APIKey is the key id sent in X-API-Key.
func (a *APIKeyAuth) APIKey() string { return a.apiKey }

// PublicKey is the public half, to register with the service.
func (a *APIKeyAuth) PublicKey() crypto.PublicKey {
	switch a.keyType {
	case KeyEd25519:
		return a.ed.Public()
	case KeyECDSA:
		return a.ec.Public()
	default:
		return a.rsa.Public()
	}
}

// Authenticate stamps and signs req.
func (a *APIKeyAuth) Authenticate(req *Request) error {
	ts := strconv.AppendInt(make([]byte, 0, 16), a.stamp(req.Method, req.RequestURI, req.Body), 10)
	sig, err := a.Sign(ts, req.Method, req.RequestURI, req.Body)
	if err != nil {
		return err
	}
	req.Header[headerAPIKey] = []string{a.apiKey}
	req.Header[headerTimestamp] = []string{string(ts)}
	req.Header[headerSignature] = []string{sig}
	return nil
}

// stamp is the X-API-Timestamp of a message: the clock's millisecond, never
// ahead of it. The same message (method, request URI and body) is never
// stamped twice with one millisecond: a second one waits for the next
// millisecond, under a millisecond. Stamps that ran ahead of the clock
// (one past the last, for every request of a burst) were lent to the next
// process, whose identical requests the service then refused as replays.
// The signer's first stamp is past the millisecond it was made in, so a
// process run right after another never reuses its last stamps. A clock
// set back by less than a few seconds is waited for; set back by more, it
// is followed, which keeps the stamp within the service's skew window.
func (a *APIKeyAuth) stamp(method, requestURI string, body []byte) int64 {
	var h maphash.Hash
	h.SetSeed(a.seed)
	h.WriteString(method)
	h.WriteString(requestURI)
	h.Write(body)
	key := h.Sum64()
	for {
		ms, wait := a.tryStamp(key)
		if wait <= 0 {
			return ms
		}
		a.sleep(wait)
	}
}

// tryStamp takes the clock's millisecond for the message hashed as key, or
// says how long to wait for the next one. The wait is spent outside mu, so
// a message that must wait holds up no other.
func (a *APIKeyAuth) tryStamp(key uint64) (int64, time.Duration) {
	a.mu.Lock()
	defer a.mu.Unlock()
	now := a.now()
	ms := now.UnixMilli()
	switch {
	case ms > a.lastMS || a.lastMS-ms >= 5000:
		a.lastMS, a.full = ms, false
		clear(a.sent)
	case ms < a.lastMS:
		return 0, max(time.UnixMilli(a.lastMS).Sub(now), time.Nanosecond)
	}
	if _, again := a.sent[key]; again || a.full {
		return 0, max(time.UnixMilli(ms+1).Sub(now), time.Nanosecond)
	}
	a.sent[key] = struct{}{}
	return ms, 0
}

// Sign returns the base64 signature of timestamp + method + requestURI +
// body, exactly as Authenticate sends it.
func (a *APIKeyAuth) Sign(timestamp []byte, method, requestURI string, body []byte) (string, error) {
	msg := make([]byte, 0, len(timestamp)+len(method)+len(requestURI)+len(body))
	msg = append(msg, timestamp...)
	msg = append(msg, method...)
	msg = append(msg, requestURI...)
	msg = append(msg, body...)
	var sig []byte
	var err error
	switch a.keyType {
	case KeyEd25519:
		sig = ed25519.Sign(a.ed, msg)
	case KeyECDSA:
		h := sha256.Sum256(msg)
		sig, err = ecdsa.SignASN1(rand.Reader, a.ec, h[:])
	case KeyRSA:
		h := sha256.Sum256(msg)
		sig, err = rsa.SignPKCS1v15(nil, a.rsa, crypto.SHA256, h[:])
	default:
		return "", errors.New("API key signer has no key")
	}
	if err != nil {
		return "", fmt.Errorf("sign: %w", err)
	}
	return base64.StdEncoding.EncodeToString(sig), nil
}
