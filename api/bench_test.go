package api

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"net/http"
	"strings"
	"testing"
	"time"
)

// The signing benchmarks compare Authenticate (message assembly, the
// primitive, base64, headers) with the bare primitive over the same
// message; quality.md wants the overhead within 10%.

const benchURI = "/v2/account/tickets/?subAccountId=" + subID
const benchBody = `{"quoteToken":"eyJhbGciOiJIUzI1NiJ9.eyJpbnB1dEN1cnJlbmN5IjoiQlJMIiwib3V0cHV0Q3VycmVuY3kiOiJVU0RDIn0.sig","externalId":"6f1c7a52-6a3e-4c65-9a43-1f3d1d5f2b10","ticketBrlPixInput":{"additionalData":"invoice 7"},"ticketBlockchainOutput":{"beneficiaryWalletId":"` + benID + `"}}`

func benchAuth(b *testing.B, keyType string) *APIKeyAuth {
	for _, kf := range keyFixtures(b) {
		if kf.keyType == keyType {
			a, err := NewAPIKeyAuth(testKey, kf.pem)
			if err != nil {
				b.Fatal(err)
			}
			return a
		}
	}
	b.Fatalf("no %s fixture", keyType)
	return nil
}

func benchSign(b *testing.B, keyType string) {
	a := benchAuth(b, keyType)
	req := &Request{Method: http.MethodPost, RequestURI: benchURI, Body: []byte(benchBody), Header: http.Header{}}
	b.ReportAllocs()
	for b.Loop() {
		if err := a.Authenticate(req); err != nil {
			b.Fatal(err)
		}
	}
}

// benchMessage is what Authenticate signs, built once for the bare runs.
func benchMessage() []byte { return []byte("1763633400123" + http.MethodPost + benchURI + benchBody) }

func BenchmarkSignEd25519(b *testing.B) { benchSign(b, KeyEd25519) }
func BenchmarkSignECDSA(b *testing.B)   { benchSign(b, KeyECDSA) }
func BenchmarkSignRSA(b *testing.B)     { benchSign(b, KeyRSA) }

func BenchmarkBareEd25519(b *testing.B) {
	a := benchAuth(b, KeyEd25519)
	msg := benchMessage()
	b.ReportAllocs()
	for b.Loop() {
		ed25519.Sign(a.ed, msg)
	}
}

func BenchmarkBareECDSA(b *testing.B) {
	a := benchAuth(b, KeyECDSA)
	msg := benchMessage()
	b.ReportAllocs()
	for b.Loop() {
		h := sha256.Sum256(msg)
		if _, err := ecdsa.SignASN1(rand.Reader, a.ec, h[:]); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkBareRSA(b *testing.B) {
	a := benchAuth(b, KeyRSA)
	msg := benchMessage()
	b.ReportAllocs()
	for b.Loop() {
		h := sha256.Sum256(msg)
		if _, err := rsa.SignPKCS1v15(nil, a.rsa, crypto.SHA256, h[:]); err != nil {
			b.Fatal(err)
		}
	}
}

// benchOverhead alternates small batches of Authenticate and of the bare
// primitive and compares the fastest batch of each, which keeps a busy
// machine's noise (preemption, frequency changes) out of the ratio. It
// reports sign/bare: 1.05 means 5% overhead.
func benchOverhead(b *testing.B, keyType string, bare func(a *APIKeyAuth, msg []byte)) {
	a := benchAuth(b, keyType)
	req := &Request{Method: http.MethodPost, RequestURI: benchURI, Body: []byte(benchBody), Header: http.Header{}}
	msg := benchMessage()
	const batch = 4
	minSign, minBare := time.Duration(1<<62), time.Duration(1<<62)
	for b.Loop() {
		start := time.Now()
		for range batch {
			if err := a.Authenticate(req); err != nil {
				b.Fatal(err)
			}
		}
		minSign = min(minSign, time.Since(start))
		start = time.Now()
		for range batch {
			bare(a, msg)
		}
		minBare = min(minBare, time.Since(start))
	}
	b.ReportMetric(float64(minSign)/float64(minBare), "sign/bare")
	b.ReportMetric(float64(minSign)/batch, "sign-ns/op")
	b.ReportMetric(float64(minBare)/batch, "bare-ns/op")
}

func BenchmarkOverheadEd25519(b *testing.B) {
	benchOverhead(b, KeyEd25519, func(a *APIKeyAuth, msg []byte) { ed25519.Sign(a.ed, msg) })
}

func BenchmarkOverheadECDSA(b *testing.B) {
	benchOverhead(b, KeyECDSA, func(a *APIKeyAuth, msg []byte) {
		h := sha256.Sum256(msg)
		ecdsa.SignASN1(rand.Reader, a.ec, h[:])
	})
}

func BenchmarkOverheadRSA(b *testing.B) {
	benchOverhead(b, KeyRSA, func(a *APIKeyAuth, msg []byte) {
		h := sha256.Sum256(msg)
		rsa.SignPKCS1v15(nil, a.rsa, crypto.SHA256, h[:])
	})
}

// BenchmarkDecodeTicketPage is the client's reading of a page of 50
// tickets as the service writes them: what G pays 20,000 times over a
// history of a million.
func BenchmarkDecodeTicketPage(b *testing.B) {
	items := make([]string, 50)
	for i := range items {
		items[i] = ticketJSON
	}
	body := []byte(`{"tickets":[` + strings.Join(items, ",") + `],"cursor":"c2"}`)
	c := &Client{}
	cl := call{method: "GET", path: "/v2/account/tickets/"}
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		p, err := decodePage[Ticket](c, cl, &response{status: 200, body: body}, keyTickets)
		if err != nil || len(p.Items) != 50 {
			b.Fatal(len(p.Items), err)
		}
	}
}
