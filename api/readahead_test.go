package api

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"testing"
	"time"
)

// TestPageCursorReadsWhatTheDecodingReads: the cursor read ahead of a
// page's decoding is the one its decoding gives, wherever the member
// stands, however it is spelled; a "cursor" inside the list is no page's;
// an answer the scan cannot follow says so instead of guessing.
func TestPageCursorReadsWhatTheDecodingReads(t *testing.T) {
	for _, tc := range []struct {
		body   string
		cursor string
		ok     bool
	}{
		{`{"tickets":[],"cursor":"c1"}`, "c1", true},
		{`{"cursor":"c1","tickets":[{"id":"x","cursor":"inner"}]}`, "c1", true},
		{` { "tickets" : [ {"a":"}]\"{"} ] , "cursor" : "c\"2\u0041" } `, `c"2A`, true},
		{`{"tickets":[],"curs\u006fr":"c3"}`, "c3", true},
		{`{"cursor":"first","tickets":[],"cursor":"last"}`, "last", true},
		{`{"tickets":[],"cursor":null}`, "", true},
		{`{"tickets":[]}`, "", true},
		{`{"tickets":[1,2.5e3,true,null],"n":-1,"cursor":""}`, "", true},
		{`{"tickets":[],"cursor":7}`, "", false},
		{`{"tickets":[],"cursor":"c1"`, "", false},
		{`{"tickets":[,],"cursor":"c1"}`, "c1", true}, // the scan only skips; the decoding refuses it
		{`["cursor","c1"]`, "", false},
		{``, "", false},
	} {
		cursor, ok := pageCursor([]byte(tc.body))
		if cursor != tc.cursor || ok != tc.ok {
			t.Errorf("%s: read %q, %v; want %q, %v", tc.body, cursor, ok, tc.cursor, tc.ok)
		}
	}
}

// FuzzPageCursor: whenever a page decodes, the cursor read ahead of it is
// its cursor (or the scan gave up, and the page's own cursor is asked for).
func FuzzPageCursor(f *testing.F) {
	for _, s := range []string{
		`{"tickets":[],"cursor":"c1"}`,
		`{"cursor":"a\\b\u00e9","tickets":[{"cursor":"no"}],"x":{"y":["}"]}}`,
		`{"tickets":[` + ticketJSON + `],"cursor":"next"}`,
		`{"tickets":[],"cursor":null,"cursor":"z"}`,
	} {
		f.Add([]byte(s))
	}
	c := &Client{}
	f.Fuzz(func(t *testing.T, body []byte) {
		p, err := decodePage[map[string]any](c, call{method: "GET", path: "/p"}, &response{status: 200, body: body}, "tickets")
		cursor, ok := pageCursor(body)
		if err == nil && ok && cursor != p.Cursor {
			t.Fatalf("%s: read ahead %q, decoded %q", body, cursor, p.Cursor)
		}
	})
}

// TestTicketPagesAsksTheNextPageBeforeReadingThisOne: the request of the
// second page reaches the service before the first page is handed over,
// every page comes once and in order, and a stop leaves nothing pending.
func TestTicketPagesAsksTheNextPageBeforeReadingThisOne(t *testing.T) {
	const pages = 5
	asked := make(chan string, 2*pages)
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request, _ []byte) {
		n, _ := strconv.Atoi(r.URL.Query().Get("cursor"))
		asked <- r.URL.Query().Get("cursor")
		next := ""
		if n+1 < pages {
			next = strconv.Itoa(n + 1)
		}
		writeJSON(w, http.StatusOK, fmt.Sprintf(`{"tickets":[%s],"cursor":%q}`, ticketJSON, next))
	})
	auth, _ := edKey(t)
	c, _ := New(srv.URL, auth)
	got := 0
	for p, err := range c.TicketPages(context.Background(), TicketFilter{Status: "PAID"}) {
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Items) != 1 {
			t.Fatalf("page %d: %d tickets", got, len(p.Items))
		}
		if want := map[bool]string{true: strconv.Itoa(got + 1), false: ""}[got+1 < pages]; p.Cursor != want {
			t.Fatalf("page %d: cursor %q, want %q", got, p.Cursor, want)
		}
		got++
		if got < pages {
			// The page after this one is on its way already.
			select {
			case cur := <-asked:
				_ = cur
			case <-time.After(10 * time.Second):
				t.Fatalf("page %d handed over before the next was asked for", got)
			}
		}
	}
	if got != pages {
		t.Fatalf("%d pages, want %d", got, pages)
	}
	reqs := srv.requests()
	if len(reqs) != pages {
		t.Fatalf("%d requests for %d pages", len(reqs), pages)
	}
	for i, r := range reqs {
		q := r.RawQuery
		if want := "status=PAID"; i == 0 && q != want || i > 0 && q != "cursor="+strconv.Itoa(i)+"&"+want {
			t.Errorf("request %d: %s", i, q)
		}
	}
}

// TestTicketPagesEndsOnAnError: an error answer is yielded once and ends
// the pages.
func TestTicketPagesEndsOnAnError(t *testing.T) {
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request, _ []byte) {
		if r.URL.Query().Get("cursor") == "" {
			writeJSON(w, http.StatusOK, `{"tickets":[],"cursor":"2"}`)
			return
		}
		writeJSON(w, http.StatusForbidden, `{"error":{"code":"FORBIDDEN","message":"no"}}`)
	})
	auth, _ := edKey(t)
	c, _ := New(srv.URL, auth)
	var errs, pages int
	for _, err := range c.TicketPages(context.Background(), TicketFilter{}) {
		if err != nil {
			errs++
			continue
		}
		pages++
	}
	if pages != 1 || errs != 1 {
		t.Fatalf("%d pages and %d errors, want 1 and 1", pages, errs)
	}
}
