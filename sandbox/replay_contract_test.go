package sandbox_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/sha256"
	"encoding/asn1"
	"encoding/base64"
	"encoding/json"
	"math/big"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/sandbox"
)

// captured is one signed request as it went over the wire, to be sent
// again byte for byte.
type captured struct {
	method, uri, body, ts, sig string
}

func (r *raw) capture(t *testing.T, method, uri, body string) captured {
	t.Helper()
	ts := strconv.FormatInt(r.e.stamp().UnixMilli(), 10)
	sig, err := r.key.Sign([]byte(ts), method, uri, []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	return captured{method, uri, body, ts, sig}
}

// resend sends c with its own timestamp and signature (or sig, when set).
func (r *raw) resend(t *testing.T, c captured, sig string) (int, []byte) {
	t.Helper()
	if sig == "" {
		sig = c.sig
	}
	return r.send(t, c.method, c.uri, c.body, time.Time{}, func(req *http.Request) {
		req.Header.Set("X-API-Timestamp", c.ts)
		req.Header.Set("X-API-Signature", sig)
	})
}

// A signature is accepted once (§7.5): a captured ticket creation sent
// again is 401 REPLAYED and makes no second ticket; the same request signed
// afresh is a new request; a bad signature spends nothing.
func TestSignatureReplayed(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 12})
	op := e.as("operator")
	r := e.rawAs(t, "operator")
	q := must[*api.Quote](t)(op.Quote(ctx(t), pixQuote("12")))
	body := `{"quoteToken":"` + q.QuoteToken + `","externalId":"replay-1"}`
	create := r.capture(t, http.MethodPost, "/v2/account/tickets/", body)

	// A forged signature over the same message first: refused, and the
	// genuine request is still new afterwards.
	forged := base64.StdEncoding.EncodeToString(make([]byte, 64))
	st, out := r.resend(t, create, forged)
	checkError(t, st, out, 401, "BAD_SIGNATURE")

	st, out = r.resend(t, create, "")
	if st != 201 {
		t.Fatalf("first use: %d %s", st, out)
	}
	e.clock.Add(2 * time.Second) // the attack of the issue: 2 s later
	st, out = r.resend(t, create, "")
	checkError(t, st, out, 401, "REPLAYED")
	// Still refused at the edge of the window, then the timestamp itself
	// is too old.
	e.clock.Add(27 * time.Second)
	st, out = r.resend(t, create, "")
	checkError(t, st, out, 401, "REPLAYED")
	e.clock.Add(3 * time.Second)
	st, out = r.resend(t, create, "")
	checkError(t, st, out, 401, "TIMESTAMP_SKEW")

	tickets := must[api.Page[api.Ticket]](t)(op.ListTickets(ctx(t), api.TicketFilter{ExternalID: "replay-1"}))
	if len(tickets.Items) != 1 {
		t.Fatalf("the replays made %d tickets, want 1", len(tickets.Items))
	}
	// The same body signed afresh is a new request: the service does not
	// deduplicate by externalId (the quote is still valid for a ticket).
	q2 := must[*api.Quote](t)(op.Quote(ctx(t), pixQuote("12")))
	body2 := `{"quoteToken":"` + q2.QuoteToken + `","externalId":"replay-1"}`
	if st, out := r.send(t, http.MethodPost, "/v2/account/tickets/", body2, time.Time{}, nil); st != 201 {
		t.Fatalf("fresh signature: %d %s", st, out)
	}

	// A read is a request like any other.
	read := r.capture(t, http.MethodGet, "/v2/account/balances", "")
	if st, out := r.resend(t, read, ""); st != 200 {
		t.Fatalf("read: %d %s", st, out)
	}
	st, out = r.resend(t, read, "")
	checkError(t, st, out, 401, "REPLAYED")
}

// ECDSA signatures have other encodings of the same proof (s and n−s, DER
// and raw r‖s); none of them makes a captured request new.
func TestSignatureReplayedReencoded(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 12})
	r := e.rawAs(t, "approver1")
	if r.key.KeyType() != api.KeyECDSA {
		t.Fatalf("approver1 signs with %s, want ecdsa", r.key.KeyType())
	}
	read := r.capture(t, http.MethodGet, "/v2/account/access-info", "")
	der, err := base64.StdEncoding.DecodeString(read.sig)
	if err != nil {
		t.Fatal(err)
	}
	var rs struct{ R, S *big.Int }
	if _, err := asn1.Unmarshal(der, &rs); err != nil {
		t.Fatal(err)
	}
	n := elliptic.P256().Params().N
	flipped, _ := asn1.Marshal(struct{ R, S *big.Int }{rs.R, new(big.Int).Sub(n, rs.S)})
	rawRS := make([]byte, 64)
	rs.R.FillBytes(rawRS[:32])
	rs.S.FillBytes(rawRS[32:])
	// Each form verifies on its own: the guard, not the verifier, refuses.
	h := sha256.Sum256([]byte(read.ts + read.method + read.uri + read.body))
	if pub := r.key.PublicKey().(*ecdsa.PublicKey); !ecdsa.VerifyASN1(pub, h[:], flipped) {
		t.Fatal("the n-s form does not verify: the test proves nothing")
	}

	if st, out := r.resend(t, read, ""); st != 200 {
		t.Fatalf("first use: %d %s", st, out)
	}
	for name, sig := range map[string][]byte{"n-s": flipped, "raw r||s": rawRS} {
		st, out := r.resend(t, read, base64.StdEncoding.EncodeToString(sig))
		var e struct{ Error struct{ Code string } }
		_ = json.Unmarshal(out, &e)
		if st != 401 || e.Error.Code != "REPLAYED" {
			t.Errorf("%s re-encoding: %d %s, want 401 REPLAYED", name, st, out)
		}
	}
	// A fresh request from the same access is served.
	if st, out := r.send(t, http.MethodGet, "/v2/account/access-info", "", time.Time{}, nil); st != 200 {
		t.Fatalf("fresh: %d %s", st, out)
	}
}
