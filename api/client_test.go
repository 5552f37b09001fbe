package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
)

func TestNewRefusesPlainHTTPOffLoopback(t *testing.T) {
	ok := []string{
		"https://api.example.com:8443", "https://api.example.com/base/", "http://127.0.0.1:8443", "http://127.9.8.7",
		"http://[::1]:8443", "http://localhost:1234", "http://LOCALHOST.", "http://app.localhost",
	}
	for _, u := range ok {
		if _, err := New(u, nil); err != nil {
			t.Errorf("New(%q) = %v, want accepted", u, err)
		}
	}
	refused := map[string]string{
		"http://api.example.com":        "https",
		"http://10.0.0.1:8443":          "https",
		"http://128.0.0.1":              "https",
		"http://[::2]":                  "https",
		"http://localhost.example.com":  "https",
		"ftp://127.0.0.1":               "https://",
		"api.example.com":               "https://",
		"https://u:p@api.example.com":   "user",
		"https://api.example.com/?a=b":  "query",
		"":                              "https://",
		"https://api.example.com/#frag": "fragment",
	}
	for u, want := range refused {
		if _, err := New(u, nil); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("New(%q) = %v, want a refusal mentioning %q", u, err, want)
		}
	}
}

func TestReadsRetryHonouringRetryAfter(t *testing.T) {
	var n atomic.Int32
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		switch n.Add(1) {
		case 1:
			w.Header().Set("Retry-After", "2")
			writeJSON(w, 429, `{"error":{"code":"RATE_LIMITED","message":"slow down"}}`)
		case 2:
			w.Header().Set("Retry-After", time.Now().Add(3*time.Second).UTC().Format(http.TimeFormat))
			writeJSON(w, 503, `unavailable`)
		default:
			writeJSON(w, 200, `{"balances":{"USDC":"2"}}`)
		}
	})
	auth, _ := edKey(t)
	c, _ := New(srv.URL, auth)
	waits := fastRetries(c)
	b, err := c.Balances(context.Background(), uuid.Nil)
	if err != nil || b["USDC"].String() != "2" {
		t.Fatalf("balances %v, err %v", b, err)
	}
	if n.Load() != 3 || len(*waits) != 2 {
		t.Fatalf("%d requests, waits %v", n.Load(), *waits)
	}
	if (*waits)[0] != 2*time.Second || (*waits)[1] < 1*time.Second || (*waits)[1] > 3*time.Second {
		t.Fatalf("waits %v, want 2s then about 3s (the Retry-After values)", *waits)
	}
}

func TestReadsStopRetryingOnLongRetryAfter(t *testing.T) {
	var n atomic.Int32
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		n.Add(1)
		w.Header().Set("Retry-After", "3600")
		writeJSON(w, 429, `{"error":{"code":"RATE_LIMITED","message":"quota"}}`)
	})
	auth, _ := edKey(t)
	c, _ := New(srv.URL, auth)
	waits := fastRetries(c)
	_, err := c.AccessInfo(context.Background())
	var e *Error
	if !errors.Is(err, ErrRateLimited) || !errors.As(err, &e) || e.RetryAfter != time.Hour {
		t.Fatalf("err = %v", err)
	}
	if n.Load() != 1 || len(*waits) != 0 {
		t.Fatalf("%d requests, waits %v: an hour-long Retry-After must not be waited for", n.Load(), *waits)
	}
	if !strings.Contains(err.Error(), "retry after 1h") {
		t.Errorf("message does not say when to retry: %v", err)
	}
}

func TestReadsBackOffWithJitterThenGiveUp(t *testing.T) {
	var n atomic.Int32
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		n.Add(1)
		writeJSON(w, 500, `{"error":{"code":"INTERNAL","message":"boom"}}`)
	})
	auth, _ := edKey(t)
	p := RetryPolicy{MaxRetries: 4, BaseDelay: 100 * time.Millisecond, MaxDelay: 300 * time.Millisecond, MaxRetryAfter: time.Second}
	c, _ := New(srv.URL, auth, WithRetryPolicy(p))
	waits := fastRetries(c)
	_, err := c.ListTickets(context.Background(), TicketFilter{})
	var e *Error
	if !errors.As(err, &e) || e.Status != 500 || e.Code != "INTERNAL" || !e.Temporary() {
		t.Fatalf("err = %v", err)
	}
	if n.Load() != 5 {
		t.Fatalf("%d requests, want 5", n.Load())
	}
	caps := []time.Duration{100, 200, 300, 300}
	for i, w := range *waits {
		hi := caps[i] * time.Millisecond
		if w < hi/2 || w > hi {
			t.Errorf("wait %d = %v, want within [%v, %v]", i, w, hi/2, hi)
		}
	}
}

func TestWritesNeverRetryBlindly(t *testing.T) {
	for _, status := range []int{500, 503, 429} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			var n atomic.Int32
			srv := newServer(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
				n.Add(1)
				w.Header().Set("Retry-After", "1")
				writeJSON(w, status, `{"error":{"code":"X","message":"y"}}`)
			})
			auth, _ := edKey(t)
			c, _ := New(srv.URL, auth)
			fastRetries(c)
			if _, err := c.CreateWallet(context.Background(), uuid.Nil, CreateWalletRequest{Alias: "a"}); err == nil {
				t.Fatal("no error")
			}
			if err := c.DeleteWallet(context.Background(), uuid.Nil, uuid.New()); err == nil {
				t.Fatal("no error")
			}
			if n.Load() != 2 {
				t.Fatalf("%d requests for two writes", n.Load())
			}
		})
	}
}

func TestReadRetriesADroppedConnection(t *testing.T) {
	var n atomic.Int32
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		if n.Add(1) == 1 {
			drop(w)
			return
		}
		writeJSON(w, 200, `{"accesses":[]}`)
	})
	auth, _ := edKey(t)
	c, _ := New(srv.URL, auth)
	fastRetries(c)
	a, err := c.ListAccesses(context.Background(), AccessFilter{})
	if err != nil || a == nil || n.Load() != 2 {
		t.Fatalf("accesses %v, err %v, %d requests", a, err, n.Load())
	}
}

func TestEveryRequestHasATimeout(t *testing.T) {
	release := make(chan struct{})
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		select {
		case <-release:
		case <-time.After(5 * time.Second):
		}
	})
	defer close(release)
	auth, _ := edKey(t)
	c, _ := New(srv.URL, auth, WithTimeout(50*time.Millisecond), WithRetryPolicy(RetryPolicy{}))
	start := time.Now()
	_, err := c.AccessInfo(context.Background())
	if !errors.Is(err, ErrNoAnswer) || !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "timed out after 50ms") {
		t.Fatalf("err = %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("took %v", d)
	}
}

func TestErrorsAreTypedAndSafeToShow(t *testing.T) {
	cases := []struct {
		name   string
		status int
		body   string
		is     error
		code   string
		msg    string
		excpt  string
	}{
		{"documented 404", 404, `{"error":{"code":"NOT_FOUND","message":"ticket not found"}}`, ErrNotFound, "NOT_FOUND", "ticket not found", ""},
		{"401", 401, `{"error":{"code":"BAD_SIGNATURE","message":"signature mismatch"}}`, ErrUnauthenticated, "BAD_SIGNATURE", "signature mismatch", ""},
		{"403", 403, `{"error":{"code":"FORBIDDEN","message":"missing payOut"}}`, ErrForbidden, "FORBIDDEN", "missing payOut", ""},
		{"quote expired", 400, `{"error":{"code":"QUOTE_EXPIRED","message":"quoteToken expired"}}`, ErrQuoteExpired, "QUOTE_EXPIRED", "quoteToken expired", ""},
		{"html from a proxy", 502, "<html>\n<body>\x1b[31mBad\tGateway\x1b[0m</body>\n</html>", nil, "", "", "<html> <body> [31mBad Gateway [0m</body> </html>"},
		{"flat message", 400, `{"message":"alias is required"}`, nil, "", "alias is required", ""},
		{"escape in message", 400, `{"error":{"code":"BAD","message":"bad\u001b[2Jthing"}}`, nil, "BAD", "bad [2Jthing", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := newServer(t, func(w http.ResponseWriter, r *http.Request, body []byte) { writeJSON(w, tc.status, tc.body) })
			auth, _ := edKey(t)
			c, _ := New(srv.URL, auth, WithRetryPolicy(RetryPolicy{}))
			_, err := c.GetWallet(context.Background(), uuid.Nil, uuid.MustParse(benID))
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("err = %T %v", err, err)
			}
			if e.Status != tc.status || e.Code != tc.code || e.Message != tc.msg || e.Excerpt != tc.excpt || e.Method != "GET" || e.Path != pathWallets+benID {
				t.Fatalf("error = %#v", e)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Fatalf("errors.Is(%v, %v) = false", err, tc.is)
			}
			for _, s := range []error{ErrNotFound, ErrUnauthenticated, ErrForbidden, ErrQuoteExpired, ErrRateLimited} {
				if s != tc.is && errors.Is(err, s) {
					t.Errorf("error also matches %v", s)
				}
			}
			if strings.ContainsAny(err.Error(), "\x1b\n") {
				t.Errorf("message carries control characters: %q", err.Error())
			}
		})
	}
}

func TestExcerptIsShort(t *testing.T) {
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		writeJSON(w, 500, strings.Repeat("é", 10000))
	})
	auth, _ := edKey(t)
	c, _ := New(srv.URL, auth, WithRetryPolicy(RetryPolicy{}))
	_, err := c.AccessInfo(context.Background())
	var e *Error
	if !errors.As(err, &e) || len([]rune(e.Excerpt)) > excerptLen+1 || !strings.HasSuffix(e.Excerpt, "…") {
		t.Fatalf("excerpt %q", e.Excerpt)
	}
}

func TestMalformedAnswers(t *testing.T) {
	cases := []struct {
		name string
		body string
		want string
	}{
		{"not JSON", `<html>ok</html>`, "invalid character"},
		{"wrong envelope", `{"items":[]}`, `no "tickets"`},
		{"amount as garbage", `{"tickets":[{"quote":{"inputAmount":"12,5"}}]}`, "tickets"},
		{"bad uuid", `{"tickets":[{"id":"nope"}]}`, "tickets"},
		{"truncated", `{"tickets":[{"id":"` + ticketID, "unexpected end"},
		{"cursor not a string", `{"tickets":[],"cursor":5}`, "cursor"},
		{"data after the answer", `{"tickets":[]} {"tickets":[]}`, "after"},
		{"a list, not an object", `[{"tickets":[]}]`, "cannot unmarshal array"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := newServer(t, func(w http.ResponseWriter, r *http.Request, body []byte) { writeJSON(w, 200, tc.body) })
			auth, _ := edKey(t)
			c, _ := New(srv.URL, auth)
			_, err := c.ListTickets(context.Background(), TicketFilter{})
			var e *Error
			if !errors.Is(err, ErrMalformedResponse) || !errors.As(err, &e) || e.Status != 200 || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v", err)
			}
		})
	}
}

func TestOversizedAndCutShortAnswers(t *testing.T) {
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		if r.URL.Path == pathBalances {
			writeJSON(w, 200, `{"balances":{"BRLA":"`+strings.Repeat("9", 5000)+`"}}`)
			return
		}
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err == nil {
			buf.WriteString("HTTP/1.1 200 OK\r\nContent-Length: 900\r\n\r\n{\"accesses\":[")
			buf.Flush()
			conn.Close()
		}
	})
	auth, _ := edKey(t)
	c, _ := New(srv.URL, auth, WithMaxResponseBytes(1024))
	fastRetries(c)
	_, err := c.Balances(context.Background(), uuid.Nil)
	if !errors.Is(err, ErrMalformedResponse) || !strings.Contains(err.Error(), "larger than 1024 bytes") {
		t.Fatalf("oversized: %v", err)
	}
	_, err = c.ListAccesses(context.Background(), AccessFilter{})
	if err == nil || !strings.Contains(err.Error(), "cut short") {
		t.Fatalf("cut short: %v", err)
	}
}

func TestAllWalksEveryPage(t *testing.T) {
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		switch r.URL.Query().Get("cursor") {
		case "":
			writeJSON(w, 200, `{"wallets":[{"alias":"a"},{"alias":"b"}],"cursor":"p2"}`)
		case "p2":
			writeJSON(w, 200, `{"wallets":[{"alias":"c"}],"cursor":"p3"}`)
		case "p3":
			writeJSON(w, 200, `{"wallets":[{"alias":"d"}],"cursor":""}`)
		}
	})
	auth, _ := edKey(t)
	c, _ := New(srv.URL, auth)
	var got []string
	for w, err := range All(context.Background(), func(ctx context.Context, cursor string) (Page[Wallet], error) {
		return c.ListWallets(ctx, WalletFilter{Alias: "x", Cursor: cursor})
	}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, w.Alias)
	}
	if strings.Join(got, "") != "abcd" {
		t.Fatalf("walked %v", got)
	}
	for _, r := range srv.requests() {
		if !strings.Contains(r.RawQuery, "alias=x") {
			t.Errorf("filter lost on a later page: %s", r.RawQuery)
		}
	}
}

func TestFirstPagesStopsAtTheBoundAndSaysMoreExist(t *testing.T) {
	// Pages 1, 2, 3 and then no cursor: three pages in all.
	fetch := func(ctx context.Context, cursor string) (Page[string], error) {
		n := 1
		if cursor != "" {
			n, _ = strconv.Atoi(cursor)
		}
		next := ""
		if n < 3 {
			next = strconv.Itoa(n + 1)
		}
		return Page[string]{Items: []string{"p" + strconv.Itoa(n)}, Cursor: next}, nil
	}
	items, more, err := FirstPages(context.Background(), 2, fetch)
	if err != nil || !more || strings.Join(items, ",") != "p1,p2" {
		t.Fatalf("bounded to 2 pages: %v more=%v err=%v", items, more, err)
	}
	items, more, err = FirstPages(context.Background(), 3, fetch)
	if err != nil || more || strings.Join(items, ",") != "p1,p2,p3" {
		t.Fatalf("all 3 pages: %v more=%v err=%v", items, more, err)
	}
	boom := errors.New("boom")
	_, _, err = FirstPages(context.Background(), 3, func(ctx context.Context, cursor string) (Page[string], error) { return Page[string]{}, boom })
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
}

func TestAllStopsOnRepeatedCursorErrorAndCancel(t *testing.T) {
	loop := func(ctx context.Context, cursor string) (Page[int], error) {
		return Page[int]{Items: []int{1}, Cursor: "same"}, nil
	}
	var err error
	n := 0
	for _, e := range All(context.Background(), loop) {
		if e != nil {
			err = e
			break
		}
		n++
	}
	if err == nil || n != 2 {
		t.Fatalf("repeated cursor: %d items, err %v", n, err)
	}

	boom := errors.New("boom")
	for _, e := range All(context.Background(), func(ctx context.Context, cursor string) (Page[int], error) { return Page[int]{}, boom }) {
		if !errors.Is(e, boom) {
			t.Fatalf("err = %v", e)
		}
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pages := 0
	for _, e := range All(ctx, func(ctx context.Context, cursor string) (Page[int], error) {
		pages++
		return Page[int]{Items: []int{pages}, Cursor: fmt.Sprint(pages)}, nil
	}) {
		if e != nil {
			if !errors.Is(e, context.Canceled) {
				t.Fatalf("err = %v", e)
			}
			break
		}
		if pages == 3 {
			cancel()
		}
	}
	if pages != 3 {
		t.Fatalf("%d pages fetched after cancel", pages)
	}
}

func TestRedirectsAreNotFollowed(t *testing.T) {
	var posts atomic.Int32
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		if r.URL.Path == "/elsewhere" {
			posts.Add(1)
			writeJSON(w, 200, `{"id":"`+benID+`"}`)
			return
		}
		http.Redirect(w, r, "/elsewhere", http.StatusTemporaryRedirect)
	})
	auth, _ := edKey(t)
	c, _ := New(srv.URL, auth, WithHTTPClient(&http.Client{}))
	_, err := c.CreateWallet(context.Background(), uuid.Nil, CreateWalletRequest{Alias: "a"})
	var e *Error
	if !errors.As(err, &e) || e.Status != 307 || posts.Load() != 0 {
		t.Fatalf("err = %v, %d posts followed the redirect", err, posts.Load())
	}
}

func TestValidationBeforeSending(t *testing.T) {
	c, _ := New("https://api.example.com", nil)
	ctx := context.Background()
	if _, err := c.Quote(ctx, QuoteRequest{}); err == nil {
		t.Error("quote with no amount accepted")
	}
	if _, err := c.Quote(ctx, QuoteRequest{InputAmount: nd("1"), OutputAmount: nd("1")}); err == nil {
		t.Error("quote with both amounts accepted")
	}
	if _, err := c.CreateTicket(ctx, uuid.Nil, CreateTicketRequest{}); err == nil {
		t.Error("ticket without quote token accepted")
	}
	if _, err := c.RejectOperation(ctx, uuid.New(), "  "); err == nil {
		t.Error("reject without reason accepted")
	}
	if _, err := c.AccessInfo(ctx); err == nil || !strings.Contains(err.Error(), "no credentials") {
		t.Errorf("call without credentials: %v", err)
	}
}

func TestCancelledCallSaysSo(t *testing.T) {
	release := make(chan struct{})
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request, body []byte) { <-release })
	defer close(release)
	auth, _ := edKey(t)
	c, _ := New(srv.URL, auth)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	_, err := c.ListTickets(ctx, TicketFilter{})
	if !errors.Is(err, context.Canceled) || !errors.Is(err, ErrNoAnswer) || !strings.Contains(err.Error(), "cancelled") {
		t.Fatalf("err = %v", err)
	}
	if n := len(srv.requests()); n != 1 {
		t.Fatalf("%d requests after cancel, want 1", n)
	}
}

// TestPageReadsItsListWhereItLies: a page is read in one pass, other
// names stepped over, a null cursor the last page, a name given twice
// the last of them, as json.Unmarshal reads an object.
func TestPageReadsItsListWhereItLies(t *testing.T) {
	body := `{"other":{"tickets":[1]},"tickets":[{"id":"` + ticketID + `"}],"cursor":"c1","tickets":[],"cursor":null}`
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request, _ []byte) { writeJSON(w, 200, body) })
	auth, _ := edKey(t)
	c, _ := New(srv.URL, auth)
	p, err := c.ListTickets(context.Background(), TicketFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Items == nil || len(p.Items) != 0 || p.Cursor != "" || p.More() {
		t.Fatalf("page %+v, want the last list (empty, not nil) and no cursor", p)
	}
	body = `{"cursor":"c2","tickets":[{"id":"` + ticketID + `"}],"extra":[1,{"a":"}"}]}`
	if p, err = c.ListTickets(context.Background(), TicketFilter{}); err != nil || len(p.Items) != 1 || p.Items[0].ID.String() != ticketID || p.Cursor != "c2" {
		t.Fatalf("page %+v, err %v", p, err)
	}
}
