package api

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
)

// cannedKey carries the answer a cannedTransport gives to a request.
type cannedKey struct{}

type canned struct {
	status int
	body   []byte
}

// cannedTransport answers in process with the status and body found in the
// request's context, so that one client serves every fuzz input quickly.
type cannedTransport struct{}

func (cannedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	cn := r.Context().Value(cannedKey{}).(canned)
	return &http.Response{StatusCode: cn.status, Header: http.Header{"Retry-After": {"1"}}, Body: io.NopCloser(bytes.NewReader(cn.body)), Request: r}, nil
}

func fuzzClient(f *testing.F) *Client {
	auth, _ := edKey(f)
	c, err := New("https://api.example.com", auth, WithHTTPClient(&http.Client{Transport: cannedTransport{}}),
		WithRetryPolicy(RetryPolicy{}), WithReconcilePolicy(ReconcilePolicy{Delays: []time.Duration{0}, Timeout: time.Second}))
	if err != nil {
		f.Fatal(err)
	}
	return c
}

// fuzzStatus folds any int into an HTTP status.
func fuzzStatus(s int) int {
	if s >= 100 && s <= 599 {
		return s
	}
	return 200 + (s%400+400)%400
}

// checkShowable fails unless err is nil or an error the client documents.
func checkShowable(t *testing.T, what string, err error) {
	if err == nil {
		return
	}
	var e *Error
	var oe *OutcomeUnknownError
	if !errors.As(err, &e) && !errors.As(err, &oe) {
		t.Fatalf("%s: error of type %T: %v", what, err, err)
	}
	if err.Error() == "" {
		t.Fatalf("%s: empty message", what)
	}
}

// FuzzDecodeResponse feeds arbitrary answers to every kind of decoding
// (pages, envelopes, bare objects, lenient fields, errors): never a panic,
// and a failure is always an error the caller can show.
func FuzzDecodeResponse(f *testing.F) {
	f.Add(200, []byte(`{"tickets":[{"id":"`+ticketID+`","status":"X","createdAt":"2026-11-20T10:00:00.123Z","quote":{"inputAmount":"1.5","markupAmount":""}}],"cursor":"c"}`))
	f.Add(200, []byte(`{"ticket":{"id":"`+ticketID+`"}}`))
	f.Add(200, []byte(`{"id":"`+opID+`","approvers":[{}],"payload":{}}`))
	f.Add(200, []byte(`{"balances":{"BRLA":"1e400","X":null}}`))
	f.Add(200, []byte(`{"quoteToken":"q","inputAmount":"-0.0000001","markupAmount":""}`))
	f.Add(404, []byte(`{"error":{"code":"NOT_FOUND","message":"x"}}`))
	f.Add(500, []byte("<html>\x1b[2J</html>"))
	f.Add(200, []byte(`{"trades":[{"settlementTicketId":"","settledAt":null}]}`))
	f.Add(200, []byte(`{"beneficiaryUsdBankAccount":{"id":"`+benID+`"}}`))
	f.Add(200, []byte{0xff, 0xfe, '{'})
	c := fuzzClient(f)
	id := uuid.MustParse(ticketID)
	f.Fuzz(func(t *testing.T, status int, body []byte) {
		ctx := context.WithValue(context.Background(), cannedKey{}, canned{fuzzStatus(status), body})
		_, err := c.ListTickets(ctx, TicketFilter{})
		checkShowable(t, "ListTickets", err)
		_, err = c.GetTicket(ctx, uuid.Nil, id)
		checkShowable(t, "GetTicket", err)
		_, err = c.Quote(ctx, QuoteRequest{InputAmount: nd("1")})
		checkShowable(t, "Quote", err)
		_, err = c.GetOperation(ctx, id)
		checkShowable(t, "GetOperation", err)
		_, err = c.Balances(ctx, uuid.Nil)
		checkShowable(t, "Balances", err)
		_, err = c.ListTrades(ctx, TradeFilter{})
		checkShowable(t, "ListTrades", err)
		_, err = c.GetUSDAccount(ctx, uuid.Nil, id)
		checkShowable(t, "GetUSDAccount", err)
		_, err = c.AccessInfo(ctx)
		checkShowable(t, "AccessInfo", err)
	})
}

// FuzzCreateTicketResponse feeds arbitrary answers to ticket creation (and
// to the lookup that reconciles it): the result is a ticket, a parked
// operation, or a documented error, never a panic or a half-filled result.
func FuzzCreateTicketResponse(f *testing.F) {
	f.Add(201, []byte(`{"ticket":{"id":"`+ticketID+`","externalId":"e"}}`))
	f.Add(202, []byte(`{"operation":{"id":"`+opID+`"}}`))
	f.Add(201, []byte(`{"id":"`+ticketID+`","brCode":"x","expiration":""}`))
	f.Add(502, []byte(`<html>`))
	f.Add(201, []byte(`{"ticket":{"id":`))
	c := fuzzClient(f)
	f.Fuzz(func(t *testing.T, status int, body []byte) {
		ctx := context.WithValue(context.Background(), cannedKey{}, canned{fuzzStatus(status), body})
		r, err := c.CreateTicket(ctx, uuid.Nil, CreateTicketRequest{QuoteToken: "q", ExternalID: "e"})
		checkShowable(t, "CreateTicket", err)
		if err == nil && (r == nil || (r.Ticket == nil) == (r.Operation == nil) || r.Parked != (r.Operation != nil)) {
			t.Fatalf("inconsistent result %+v", r)
		}
	})
}
