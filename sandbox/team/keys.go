package team

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"net/netip"
	"sort"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/sandbox/engine"
)

// Key is one API key: the access it acts as, the public key its requests
// are signed with, and the IPs it may be used from.
type Key struct {
	Prefix    string // what the list shows of it
	Name      string
	AccessID  uuid.UUID
	KeyType   string // ed25519, ecdsa, rsa
	PublicKey crypto.PublicKey
	PEM       string   // the registered public key ("" for the seed's keys)
	IPs       []string // as given; empty: any IP
	nets      []netip.Prefix
	CreatedAt time.Time
}

// Allows reports whether a request from ip may use the key.
func (k *Key) Allows(ip netip.Addr) bool {
	if len(k.nets) == 0 {
		return true
	}
	ip = ip.Unmap()
	for _, n := range k.nets {
		if n.Contains(ip) {
			return true
		}
	}
	return false
}

// keyDoc is a key as stored; a seed key revoked or re-allowed is stored
// too (without its public key, which the seed gives).
type keyDoc struct {
	Prefix    string    `json:"prefix"`
	Name      string    `json:"name"`
	AccessID  uuid.UUID `json:"accessId"`
	KeyType   string    `json:"keyType"`
	PEM       string    `json:"publicKeyPem"`
	IPs       []string  `json:"whitelistedIPs"`
	CreatedAt time.Time `json:"createdAt"`
	Revoked   bool      `json:"revoked"`
}

func prefixOf(key string) string {
	if len(key) > 12 {
		return key[:12]
	}
	return key
}

// KeyOf is the key sent in X-API-Key and its access, or nil when the key
// is unknown, revoked, or its access revoked.
func (t *Team) KeyOf(apiKey string) (*Key, *engine.Access) {
	t.mu.RLock()
	k := t.keys[hashOf(apiKey)]
	t.mu.RUnlock()
	if k == nil {
		return nil, nil
	}
	a := t.eng.AccessByID(k.AccessID)
	if a == nil {
		return nil, nil
	}
	return k, a
}

// KeyInfo is a key as the list shows it.
type KeyInfo struct {
	APIKey         string
	Name           string
	WhitelistedIPs []string
	CreatedAt      time.Time
}

// Keys lists the caller's own keys, oldest first.
func (t *Team) Keys(c engine.Caller) []KeyInfo {
	t.mu.RLock()
	defer t.mu.RUnlock()
	out := []KeyInfo{}
	for _, k := range t.keys {
		if k.AccessID == c.Access.ID {
			out = append(out, KeyInfo{APIKey: k.Prefix, Name: k.Name, WhitelistedIPs: append([]string{}, k.IPs...), CreatedAt: k.CreatedAt})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].CreatedAt.Before(out[j].CreatedAt) })
	return out
}

// parseAllowList checks an allow-list: IPv4 or IPv6 addresses and CIDR
// ranges, at most MaxAllowList.
func parseAllowList(ips []string) ([]string, []netip.Prefix, error) {
	if len(ips) > MaxAllowList {
		return nil, nil, invalid(engine.CodeInvalidField, "whitelistedIPs: at most %d entries, got %d", MaxAllowList, len(ips))
	}
	clean := make([]string, 0, len(ips))
	nets := make([]netip.Prefix, 0, len(ips))
	for i, s := range ips {
		s = strings.TrimSpace(s)
		var p netip.Prefix
		var err error
		if strings.Contains(s, "/") {
			p, err = netip.ParsePrefix(s)
			p = p.Masked()
		} else {
			var a netip.Addr
			if a, err = netip.ParseAddr(s); err == nil {
				a = a.Unmap()
				p = netip.PrefixFrom(a, a.BitLen())
			}
		}
		if err != nil || s == "" {
			return nil, nil, invalid(engine.CodeInvalidField, "whitelistedIPs[%d]: %q is not an IP address or CIDR range", i, truncate(s, 64))
		}
		clean = append(clean, s)
		nets = append(nets, p)
	}
	return clean, nets, nil
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// parsePublicKey reads a PEM public key: RSA (2048 bits or more),
// Ed25519 or ECDSA P-256.
func parsePublicKey(text string) (crypto.PublicKey, string, error) {
	block, _ := pem.Decode([]byte(strings.TrimSpace(text)))
	if block == nil {
		return nil, "", invalid(engine.CodeInvalidField, "publicKey: not a PEM block (-----BEGIN PUBLIC KEY-----)")
	}
	if strings.Contains(block.Type, "PRIVATE") {
		return nil, "", invalid(engine.CodeInvalidField, "publicKey: this is a private key; send only the public key, and keep the private key secret")
	}
	var pub any
	var err error
	switch block.Type {
	case "PUBLIC KEY":
		pub, err = x509.ParsePKIXPublicKey(block.Bytes)
	case "RSA PUBLIC KEY":
		pub, err = x509.ParsePKCS1PublicKey(block.Bytes)
	default:
		return nil, "", invalid(engine.CodeInvalidField, "publicKey: PEM type %q is not a public key", block.Type)
	}
	if err != nil {
		return nil, "", invalid(engine.CodeInvalidField, "publicKey: %v", err)
	}
	switch k := pub.(type) {
	case ed25519.PublicKey:
		return k, "ed25519", nil
	case *ecdsa.PublicKey:
		if k.Curve != elliptic.P256() {
			return nil, "", invalid(engine.CodeInvalidField, "publicKey: ECDSA keys must be on P-256")
		}
		return k, "ecdsa", nil
	case *rsa.PublicKey:
		if k.N.BitLen() < 2048 {
			return nil, "", invalid(engine.CodeInvalidField, "publicKey: RSA keys need at least 2048 bits, got %d", k.N.BitLen())
		}
		return k, "rsa", nil
	}
	return nil, "", invalid(engine.CodeInvalidField, "publicKey: only RSA, Ed25519 and ECDSA P-256 keys sign requests")
}

// CreateKey registers a public key as a new API key of the caller and
// returns the key to send in X-API-Key.
func (t *Team) CreateKey(c engine.Caller, otp, name, publicKey string, ips []string) (string, error) {
	if err := t.manager(c, otp); err != nil {
		return "", err
	}
	name = strings.TrimSpace(name)
	if name == "" {
		return "", invalid(engine.CodeMissingField, "name: required")
	}
	if n := len([]rune(name)); n > MaxKeyName {
		return "", invalid(engine.CodeInvalidField, "name: at most %d characters, got %d", MaxKeyName, n)
	}
	if strings.TrimSpace(publicKey) == "" {
		return "", invalid(engine.CodeMissingField, "publicKey: required (PEM)")
	}
	pub, typ, err := parsePublicKey(publicKey)
	if err != nil {
		return "", err
	}
	clean, nets, err := parseAllowList(ips)
	if err != nil {
		return "", err
	}
	raw := make([]byte, 16)
	if _, err := rand.Read(raw); err != nil {
		return "", err
	}
	apiKey := "sbx_" + hex.EncodeToString(raw)
	t.mu.Lock()
	defer t.mu.Unlock()
	n := 0
	for _, k := range t.keys {
		if k.AccessID == c.Access.ID {
			n++
			if k.Name == name {
				return "", refusal(engine.Conflict, engine.CodeNameTaken, "name: this access already has a key named %q", name)
			}
		}
	}
	if n >= MaxKeysPerAccess {
		return "", refusal(engine.Conflict, CodeKeyLimit, "an access holds at most %d API keys; revoke one first", MaxKeysPerAccess)
	}
	k := &Key{Prefix: prefixOf(apiKey), Name: name, AccessID: c.Access.ID, KeyType: typ, PublicKey: pub,
		PEM: strings.TrimSpace(publicKey) + "\n", IPs: clean, nets: nets, CreatedAt: c.Now}
	h := hashOf(apiKey)
	t.eng.Edit(func() { t.saveKey(h, k, false) })
	t.keys[h] = k
	return apiKey, nil
}

func (t *Team) saveKey(h [32]byte, k *Key, revoked bool) {
	t.save("apikey", hex.EncodeToString(h[:]), keyDoc{Prefix: k.Prefix, Name: k.Name, AccessID: k.AccessID, KeyType: k.KeyType,
		PEM: k.PEM, IPs: k.IPs, CreatedAt: k.CreatedAt, Revoked: revoked})
}

// ownKey finds one of the caller's keys by the key or its listed prefix.
// The caller holds t.mu.
func (t *Team) ownKey(c engine.Caller, apiKey string) ([32]byte, *Key, error) {
	apiKey = strings.TrimSpace(apiKey)
	if apiKey == "" {
		return [32]byte{}, nil, invalid(engine.CodeMissingField, "apiKey: required")
	}
	if k := t.keys[hashOf(apiKey)]; k != nil && k.AccessID == c.Access.ID {
		return hashOf(apiKey), k, nil
	}
	for h, k := range t.keys {
		if k.AccessID == c.Access.ID && k.Prefix == apiKey {
			return h, k, nil
		}
	}
	return [32]byte{}, nil, refusal(engine.NotFound, engine.CodeNotFound, "API key %s not found among this access's keys", truncate(apiKey, 16))
}

// AllowKey replaces the allow-list of one of the caller's keys.
func (t *Team) AllowKey(c engine.Caller, otp, apiKey string, ips []string) error {
	if err := t.manager(c, otp); err != nil {
		return err
	}
	if ips == nil {
		return invalid(engine.CodeMissingField, "whitelistedIPs: required (an empty list allows any IP)")
	}
	clean, nets, err := parseAllowList(ips)
	if err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	h, k, err := t.ownKey(c, apiKey)
	if err != nil {
		return err
	}
	n := *k
	n.IPs, n.nets = clean, nets
	t.eng.Edit(func() { t.saveKey(h, &n, false) })
	t.keys[h] = &n
	return nil
}

// DeleteKey revokes one of the caller's keys: the next request signed
// with it is refused.
func (t *Team) DeleteKey(c engine.Caller, otp, apiKey string) error {
	if err := t.manager(c, otp); err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	h, k, err := t.ownKey(c, apiKey)
	if err != nil {
		return err
	}
	t.eng.Edit(func() { t.saveKey(h, k, true) })
	delete(t.keys, h)
	return nil
}

// loadKey applies a stored key. The caller holds t.mu.
func (t *Team) loadKey(id string, body []byte) error {
	var d keyDoc
	if err := json.Unmarshal(body, &d); err != nil {
		return fmt.Errorf("team API key %s: %w", id, err)
	}
	raw, err := hex.DecodeString(id)
	if err != nil || len(raw) != 32 {
		return fmt.Errorf("team API key id %q is not a hash", id)
	}
	h := [32]byte(raw)
	if d.Revoked {
		delete(t.keys, h)
		return nil
	}
	_, nets, err := parseAllowList(d.IPs)
	if err != nil {
		return fmt.Errorf("team API key %s: %w", d.Prefix, err)
	}
	k := t.keys[h]
	if k == nil {
		if d.PEM == "" {
			return errors.New("team API key " + d.Prefix + ": neither the seed nor the store has its public key")
		}
		pub, _, err := parsePublicKey(d.PEM)
		if err != nil {
			return fmt.Errorf("team API key %s: %w", d.Prefix, err)
		}
		k = &Key{Prefix: d.Prefix, Name: d.Name, AccessID: d.AccessID, KeyType: d.KeyType, PublicKey: pub, PEM: d.PEM, CreatedAt: d.CreatedAt}
	} else {
		c := *k
		k = &c
	}
	k.IPs, k.nets = append([]string{}, d.IPs...), nets
	t.keys[h] = k
	return nil
}
