package sandbox

import (
	"fmt"
	"net/http"
	"testing"
)

// fillTickets stores n extra settled tickets on the main account, spread
// over the last 90 days, in one transaction.
func fillTickets(tb testing.TB, s *Server, n int) {
	tb.Helper()
	if err := s.bulkTickets(n, 99); err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkListTickets measures one signed page of GET /v2/account/tickets/
// (the first page and a page deep in the history) with 1,000 and 100,000
// stored tickets: the cost must not grow with the total (target: within
// 1.5×). Both sandboxes are filled once, before either is measured.
func BenchmarkListTickets(b *testing.B) {
	type fixture struct {
		n    int
		c    *rawClient
		deep string
	}
	var fixtures []fixture
	for _, n := range []int{1_000, 100_000} {
		r, err := Start(Config{Seed: 1}, "127.0.0.1:0")
		if err != nil {
			b.Fatal(err)
		}
		defer r.Close()
		if err := r.Server.seeded(); err != nil {
			b.Fatal(err)
		}
		have, err := r.Server.countTickets()
		if err != nil {
			b.Fatal(err)
		}
		fillTickets(b, r.Server, n-have)
		c := r.client(b, "operator")
		c.hc = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
		// A cursor ten pages down the history.
		var page struct{ Cursor string }
		uri := "/v2/account/tickets/"
		for i := 0; i < 10; i++ {
			c.json("GET", uri, nil, 200, &page)
			uri = "/v2/account/tickets/?cursor=" + page.Cursor
		}
		fixtures = append(fixtures, fixture{n: n, c: c, deep: uri})
	}
	for _, f := range fixtures {
		b.Run(fmt.Sprintf("stored=%d", f.n), func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				u := "/v2/account/tickets/"
				if i%2 == 1 {
					u = f.deep
				}
				if code, out := f.c.do("GET", u, nil); code != 200 {
					b.Fatalf("%d %s", code, out)
				}
			}
		})
	}
}
