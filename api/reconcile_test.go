package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
)

// ticketService is a small stand-in for the service's ticket endpoints
// whose creation can fail in the ways a network fails.
type ticketService struct {
	mu      sync.Mutex
	tickets map[string][]string // externalId -> ticket ids (more than one is a duplicate)
	subs    map[string]string   // externalId -> subAccountId it was created under
	parked  int
	// requester makes access-info say the access's creations are parked.
	requester bool
	posts     atomic.Int32
	lookups   atomic.Int32
	// fault picks what happens to the n-th creation (1-based).
	fault func(n int) string
}

func newTicketService(fault func(n int) string) *ticketService {
	return &ticketService{tickets: map[string][]string{}, subs: map[string]string{}, fault: fault}
}

func (s *ticketService) commit(ext, sub string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := uuid.NewString()
	s.tickets[ext] = append(s.tickets[ext], id)
	s.subs[ext] = sub
	return id
}

func ticketOf(id, ext string) string {
	return `{"id":"` + id + `","externalId":"` + ext + `","status":"PENDING","quote":{"inputAmount":"10.00","outputAmount":"10.00"}}`
}

func drop(w http.ResponseWriter) {
	conn, _, err := w.(http.Hijacker).Hijack()
	if err == nil {
		conn.Close()
	}
}

func (s *ticketService) handle(w http.ResponseWriter, r *http.Request, body []byte) {
	sub := r.URL.Query().Get("subAccountId")
	switch {
	case r.Method == http.MethodGet && r.URL.Path == pathTickets:
		s.lookups.Add(1)
		ext := r.URL.Query().Get("externalId")
		s.mu.Lock()
		var items []string
		if s.subs[ext] == sub {
			for _, id := range s.tickets[ext] {
				items = append(items, ticketOf(id, ext))
			}
		}
		s.mu.Unlock()
		writeJSON(w, 200, `{"tickets":[`+strings.Join(items, ",")+`],"cursor":""}`)
	case r.Method == http.MethodPost && r.URL.Path == pathTickets:
		n := int(s.posts.Add(1))
		var req CreateTicketRequest
		if err := json.Unmarshal(body, &req); err != nil || req.ExternalID == "" {
			writeJSON(w, 400, `{"error":{"code":"BAD_REQUEST","message":"externalId"}}`)
			return
		}
		switch s.fault(n) {
		case "ok":
			writeJSON(w, 201, `{"ticket":`+ticketOf(s.commit(req.ExternalID, sub), req.ExternalID)+`}`)
		case "dropAfterCommit":
			s.commit(req.ExternalID, sub)
			drop(w)
		case "dropBeforeCommit":
			drop(w)
		case "500AfterCommit":
			s.commit(req.ExternalID, sub)
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(502)
			fmt.Fprint(w, "<html>Bad Gateway</html>")
		case "truncatedAfterCommit":
			s.commit(req.ExternalID, sub)
			conn, buf, err := w.(http.Hijacker).Hijack()
			if err == nil {
				buf.WriteString("HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n{\"ticket\":{\"id\":")
				buf.Flush()
				conn.Close()
			}
		case "slowCommit":
			s.commit(req.ExternalID, sub)
			time.Sleep(300 * time.Millisecond)
			writeJSON(w, 201, `{"ticket":{}}`)
		case "parkedThenDrop":
			s.mu.Lock()
			s.parked++
			s.mu.Unlock()
			drop(w)
		case "quoteExpired":
			writeJSON(w, 400, `{"error":{"code":"QUOTE_EXPIRED","message":"quoteToken expired"}}`)
		}
	case r.Method == http.MethodGet && r.URL.Path == "/v2/account/access-info":
		writeJSON(w, 200, fmt.Sprintf(`{"email":"a@example.com","accountPermissions":{"operationRequester":%t}}`, s.requester))
	default:
		writeJSON(w, 404, `{"error":{"code":"NOT_FOUND","message":"no route"}}`)
	}
}

func (s *ticketService) count() (tickets, duplicates int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, ids := range s.tickets {
		tickets += len(ids)
		if len(ids) > 1 {
			duplicates++
		}
	}
	return
}

func reconcilingClient(t *testing.T, s *ticketService, opts ...Option) *Client {
	srv := newServer(t, s.handle)
	auth, _ := edKey(t)
	opts = append([]Option{WithReconcilePolicy(ReconcilePolicy{Delays: []time.Duration{0, time.Millisecond, time.Millisecond}, Timeout: 5 * time.Second})}, opts...)
	c, err := New(srv.URL, auth, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestCreateTicketNoDuplicateNothingLost creates many tickets against a
// service that commits and then loses the answer in every way it can: every
// ticket exists exactly once and every caller learns its id.
func TestCreateTicketNoDuplicateNothingLost(t *testing.T) {
	faults := []string{"ok", "dropAfterCommit", "500AfterCommit", "truncatedAfterCommit"}
	var mu sync.Mutex
	chosen := map[int]string{}
	s := newTicketService(func(n int) string {
		f := faults[rand.IntN(len(faults))]
		mu.Lock()
		chosen[n] = f
		mu.Unlock()
		return f
	})
	c := reconcilingClient(t, s)
	sub := uuid.MustParse(subID)
	const n = 200
	var wg sync.WaitGroup
	var reconciled atomic.Int32
	errs := make(chan error, n)
	for i := range n {
		wg.Go(func() {
			ext := fmt.Sprintf("intent-%03d", i)
			r, err := c.CreateTicket(context.Background(), sub, CreateTicketRequest{QuoteToken: "qt", ExternalID: ext})
			if err != nil {
				errs <- fmt.Errorf("%s: %w", ext, err)
				return
			}
			s.mu.Lock()
			ids := s.tickets[ext]
			s.mu.Unlock()
			if r.Ticket == nil || len(ids) != 1 || r.Ticket.ID.String() != ids[0] || r.Ticket.ExternalID != ext {
				errs <- fmt.Errorf("%s: result %+v, stored %v", ext, r.Ticket, ids)
			}
			if r.Reconciled {
				reconciled.Add(1)
			}
		})
		if i%8 == 7 {
			wg.Wait()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	tickets, dups := s.count()
	if tickets != n || dups != 0 || int(s.posts.Load()) != n {
		t.Fatalf("%d tickets (%d duplicated) from %d POSTs; want %d, 0, %d", tickets, dups, s.posts.Load(), n, n)
	}
	faulty := 0
	for _, f := range chosen {
		if f != "ok" {
			faulty++
		}
	}
	if int(reconciled.Load()) != faulty || faulty == 0 {
		t.Fatalf("%d reconciled, %d creations lost their answer", reconciled.Load(), faulty)
	}
}

// A parked creation leaves no ticket to find: absence proves nothing, so the
// request is never sent again and the caller is told how to check.
func TestCreateTicketAnswerLostForRequesterIsUnknownNotResent(t *testing.T) {
	for _, fault := range []string{"dropBeforeCommit", "parkedThenDrop"} {
		t.Run(fault, func(t *testing.T) {
			s := newTicketService(func(int) string { return fault })
			s.requester = true
			c := reconcilingClient(t, s)
			_, err := c.CreateTicket(context.Background(), uuid.Nil, CreateTicketRequest{QuoteToken: "qt", ExternalID: "ext-x"})
			var oe *OutcomeUnknownError
			if !errors.Is(err, ErrOutcomeUnknown) || !errors.As(err, &oe) || oe.ExternalID != "ext-x" {
				t.Fatalf("err = %v, want an outcome-unknown error for ext-x", err)
			}
			if !strings.Contains(err.Error(), "do not create it again") || !strings.Contains(err.Error(), "ext-x") {
				t.Errorf("the error does not say how to check: %v", err)
			}
			if s.posts.Load() != 1 {
				t.Fatalf("%d POSTs: a request that may have arrived was sent again", s.posts.Load())
			}
			if s.lookups.Load() != 3 {
				t.Fatalf("%d lookups, want 3 (the policy's)", s.lookups.Load())
			}
		})
	}
}

// When every lookup proves the ticket absent (and creations are not parked),
// the same request is sent again with the same externalId: one ticket, not
// zero and not two.
func TestCreateTicketCertainlyAbsentIsResentOnce(t *testing.T) {
	s := newTicketService(func(n int) string {
		if n == 1 {
			return "dropBeforeCommit"
		}
		return "ok"
	})
	c := reconcilingClient(t, s)
	r, err := c.CreateTicket(context.Background(), uuid.Nil, CreateTicketRequest{QuoteToken: "qt", ExternalID: "ext-r"})
	if err != nil {
		t.Fatal(err)
	}
	tickets, dups := s.count()
	if r.Ticket == nil || r.Ticket.ExternalID != "ext-r" || tickets != 1 || dups != 0 || s.posts.Load() != 2 {
		t.Fatalf("result %+v: %d tickets (%d duplicated) from %d POSTs; want 1, 0, 2", r, tickets, dups, s.posts.Load())
	}
}

// A service that keeps losing answers without creating anything ends in a
// definite "nothing was created" after a bounded number of re-sends.
func TestCreateTicketResendsAreBounded(t *testing.T) {
	s := newTicketService(func(int) string { return "dropBeforeCommit" })
	c := reconcilingClient(t, s)
	_, err := c.CreateTicket(context.Background(), uuid.Nil, CreateTicketRequest{QuoteToken: "qt", ExternalID: "ext-b"})
	if err == nil || !strings.Contains(err.Error(), "nothing was created") || errors.Is(err, ErrOutcomeUnknown) {
		t.Fatalf("err = %v, want a definite nothing-was-created error", err)
	}
	if tickets, _ := s.count(); tickets != 0 || s.posts.Load() != 3 {
		t.Fatalf("%d tickets from %d POSTs; want 0 from 3", tickets, s.posts.Load())
	}
}

func TestCreateTicketTimeoutReconciles(t *testing.T) {
	s := newTicketService(func(int) string { return "slowCommit" })
	c := reconcilingClient(t, s, WithTimeout(100*time.Millisecond))
	r, err := c.CreateTicket(context.Background(), uuid.Nil, CreateTicketRequest{QuoteToken: "qt", ExternalID: "slow-1"})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Reconciled || r.Ticket == nil || r.Ticket.ExternalID != "slow-1" || s.posts.Load() != 1 {
		t.Fatalf("result %+v after %d POSTs", r, s.posts.Load())
	}
}

func TestCreateTicketReconcilesEvenWhenCallerGaveUp(t *testing.T) {
	s := newTicketService(func(int) string { return "slowCommit" })
	c := reconcilingClient(t, s)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	r, err := c.CreateTicket(ctx, uuid.Nil, CreateTicketRequest{QuoteToken: "qt", ExternalID: "gave-up"})
	if err != nil || !r.Reconciled {
		t.Fatalf("result %+v, err %v: the ticket exists and the caller must learn it", r, err)
	}
}

// TestCreateTicketResendsOnlyWhatNeverLeft: the first connection cannot be
// made, so nothing reached the service and sending again is safe.
func TestCreateTicketResendsOnlyWhatNeverLeft(t *testing.T) {
	s := newTicketService(func(int) string { return "ok" })
	srv := newServer(t, s.handle)
	var dials atomic.Int32
	tr := http.DefaultTransport.(*http.Transport).Clone()
	base := tr.DialContext
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		if dials.Add(1) == 1 {
			return nil, errors.New("connect: network is unreachable")
		}
		return base(ctx, network, addr)
	}
	auth, _ := edKey(t)
	c, _ := New(srv.URL, auth, WithHTTPClient(&http.Client{Transport: tr}))
	fastRetries(c)
	r, err := c.CreateTicket(context.Background(), uuid.Nil, CreateTicketRequest{QuoteToken: "qt"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Reconciled || r.Ticket == nil || s.posts.Load() != 1 || s.lookups.Load() != 0 {
		t.Fatalf("result %+v, %d POSTs, %d lookups", r, s.posts.Load(), s.lookups.Load())
	}
	if _, err := uuid.Parse(r.Ticket.ExternalID); err != nil {
		t.Fatalf("generated externalId %q is not a UUID", r.Ticket.ExternalID)
	}
}

func TestCreateTicketDefiniteRejectionIsNotReconciled(t *testing.T) {
	s := newTicketService(func(int) string { return "quoteExpired" })
	c := reconcilingClient(t, s)
	_, err := c.CreateTicket(context.Background(), uuid.Nil, CreateTicketRequest{QuoteToken: "qt"})
	if !errors.Is(err, ErrQuoteExpired) {
		t.Fatalf("err = %v, want ErrQuoteExpired", err)
	}
	if s.posts.Load() != 1 || s.lookups.Load() != 0 {
		t.Fatalf("%d POSTs, %d lookups", s.posts.Load(), s.lookups.Load())
	}
}

func TestCreateTicketParkedUnreadable(t *testing.T) {
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		writeJSON(w, 202, `{"operation":{"id":"not-a-uuid"}}`)
	})
	auth, _ := edKey(t)
	c, _ := New(srv.URL, auth)
	_, err := c.CreateTicket(context.Background(), uuid.Nil, CreateTicketRequest{QuoteToken: "qt", ExternalID: "p-1"})
	var oe *OutcomeUnknownError
	if !errors.As(err, &oe) || !oe.Parked || !strings.Contains(err.Error(), "approvals") {
		t.Fatalf("err = %v", err)
	}
	if n := len(srv.requests()); n != 1 {
		t.Fatalf("%d requests, want 1", n)
	}
}

func TestCreateTicketFlatAnswerReadsTheTicket(t *testing.T) {
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		if r.Method == http.MethodPost {
			writeJSON(w, 201, `{"id":"`+ticketID+`","brCode":"00020101BR","expiration":"2026-11-20T10:05:00Z"}`)
			return
		}
		writeJSON(w, 200, `{"ticket":`+ticketJSON+`}`)
	})
	auth, _ := edKey(t)
	c, _ := New(srv.URL, auth)
	r, err := c.CreateTicket(context.Background(), uuid.Nil, CreateTicketRequest{QuoteToken: "qt", ExternalID: "ext-1"})
	if err != nil || r.Ticket == nil || r.Ticket.ID.String() != ticketID || r.Ticket.BrCode() != "00020101BR" {
		t.Fatalf("result %+v, err %v", r, err)
	}
	reqs := srv.requests()
	if len(reqs) != 2 || reqs[1].Path != pathTickets+ticketID {
		t.Fatalf("requests %+v", reqs)
	}
}
