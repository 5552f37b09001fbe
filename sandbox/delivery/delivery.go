// Package delivery sends the webhook deliveries the engine queues once
// their events are committed: one signed POST each (RSA-PSS SHA-256 over
// the raw body, base64 in the signature header, spec/service.md §6), and
// records what the receiver answered. A delivery to the sandbox's own
// receiver on a loopback address is served in process, so the demo
// webhooks work without any network. Verify is the receiver's side of the
// signature.
package delivery

import (
	"bytes"
	"context"
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"time"

	"github.com/tesouro-treasury/tesouro/sandbox/engine"
)

// SignatureHeader carries a delivery's signature.
const SignatureHeader = "signature"

// senders is how many deliveries are sent at once.
const senders = 4

// Sender sends an engine's deliveries.
type Sender struct {
	eng *engine.Engine
	key *rsa.PrivateKey
	// receiver is the sandbox's own receiver, served in process.
	receiver http.Handler
	client   *http.Client
}

// New is a sender of eng's deliveries, signed with key; receiver serves
// the ones addressed to the sandbox's own receiver on loopback.
func New(eng *engine.Engine, key *rsa.PrivateKey, receiver http.Handler) *Sender {
	return &Sender{eng: eng, key: key, receiver: receiver, client: &http.Client{Timeout: 5 * time.Second}}
}

// Run sends deliveries as they are queued until ctx is done, several at
// once; it returns when the senders stopped.
func (s *Sender) Run(ctx context.Context) {
	done := make(chan struct{})
	for range senders {
		go func() {
			defer func() { done <- struct{}{} }()
			s.loop(ctx)
		}()
	}
	for range senders {
		<-done
	}
}

// loop sends the deliveries of committed events, one at a time, and
// records what each webhook answered.
func (s *Sender) loop(ctx context.Context) {
	out := s.eng.Outbox()
	for {
		d, ok := out.Pop()
		if !ok {
			select {
			case <-ctx.Done():
				return
			case <-out.Wake():
				continue
			}
		}
		if ctx.Err() != nil {
			return
		}
		s.eng.Answered(d, s.send(ctx, d))
	}
}

// Sign is a delivery's signature: RSA-PSS SHA-256 over the raw body,
// base64 (standard).
func Sign(key *rsa.PrivateKey, body []byte) string {
	h := sha256.Sum256(body)
	sig, err := rsa.SignPSS(rand.Reader, key, crypto.SHA256, h[:], &rsa.PSSOptions{SaltLength: rsa.PSSSaltLengthEqualsHash})
	if err != nil {
		return ""
	}
	return base64.StdEncoding.EncodeToString(sig)
}

// Verify reports whether signature (the header's value) signs body with
// the key pub is the public half of.
func Verify(pub *rsa.PublicKey, body []byte, signature string) bool {
	sig, err := base64.StdEncoding.DecodeString(signature)
	h := sha256.Sum256(body)
	return err == nil && rsa.VerifyPSS(pub, crypto.SHA256, h[:], sig, &rsa.PSSOptions{SaltLength: rsa.PSSSaltLengthAuto}) == nil
}

// send posts one delivery and returns the HTTP status (0: no answer).
func (s *Sender) send(ctx context.Context, d engine.Delivery) int {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.URL, bytes.NewReader(d.Body))
	if err != nil {
		return 0
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(SignatureHeader, Sign(s.key, d.Body))
	req.Header.Set("User-Agent", "tesouro-sandbox-webhooks")
	if u, err := url.Parse(d.URL); err == nil && u.Path == engine.ReceiverPath && IsLoopback(u.Hostname()) {
		rec := httptest.NewRecorder()
		req.RequestURI = u.RequestURI()
		s.receiver.ServeHTTP(rec, req)
		return rec.Code
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	resp, err := s.client.Do(req.WithContext(ctx))
	if err != nil {
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

// IsLoopback reports whether a host is this machine's.
func IsLoopback(h string) bool {
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}
