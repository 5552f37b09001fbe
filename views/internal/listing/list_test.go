package listing

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/screentest"
	"github.com/tesouro-treasury/tesouro/ui/widget"
)

type rec struct {
	ID   string
	Name string
}

// source serves n records named prefix-i in pages of 50, and the account
// every request was made for.
type source struct {
	n      int
	prefix string
	asked  []uuid.UUID
	fail   error
}

func (src *source) query(s *ui.Session) Query[rec] {
	return func(cursor string) (PageCall[rec], error) {
		if cursor == "bad" {
			return nil, errors.New("cursor refused here")
		}
		src.asked = append(src.asked, s.Account.ID)
		n, prefix, fail := src.n, src.prefix, src.fail
		return func(context.Context) (api.Page[rec], error) {
			if fail != nil {
				return api.Page[rec]{}, fail
			}
			start, _ := strconv.Atoi(cursor)
			end := min(start+50, n)
			p := api.Page[rec]{}
			for i := start; i < end; i++ {
				p.Items = append(p.Items, rec{ID: strconv.Itoa(i), Name: fmt.Sprintf("%s-%d", prefix, i)})
			}
			if end < n {
				p.Cursor = strconv.Itoa(end)
			}
			return p, nil
		}, nil
	}
}

func session(name string) *ui.Session {
	return &ui.Session{Time: screentest.NewClock(screentest.Epoch), Account: ui.Account{ID: uuid.New(), Name: name}}
}

func newList(s *ui.Session, src *source) *List[rec] {
	l := New(s, "records", func(r rec) string { return r.ID }, func(r rec) widget.Row {
		return widget.Row{Cells: []string{r.Name}}
	}, src.query(s), widget.Column{Title: "Name"})
	l.SetSize(60, 12)
	return l
}

// answer runs cmd (a page request, possibly in a batch) and gives l every
// page it brings, as the root would; it returns the commands l returned.
func answer(t *testing.T, l *List[rec], cmd tea.Cmd) {
	t.Helper()
	if cmd == nil {
		return
	}
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			answer(t, l, c)
		}
	case PageMsg[rec]:
		next, ok := l.Handle(msg)
		if !ok {
			t.Fatal("a page was not handled")
		}
		answer(t, l, next)
	}
}

func plain(l *List[rec]) string { return ansi.Strip(l.View("no filters")) }

func TestListPagesAndPrefetches(t *testing.T) {
	src := &source{n: 120, prefix: "rec"}
	l := newList(session("A"), src)
	answer(t, l, l.Reload())
	if got := l.Count(); got != "50 loaded · more available" {
		t.Fatalf("count %q", got)
	}
	if !strings.Contains(plain(l), "rec-0") {
		t.Fatalf("first page not shown:\n%s", plain(l))
	}
	// Moving down near the end asks for the next page; the cursor stays
	// on its row.
	answer(t, l, l.Key(screentest.KeyPress("pgdown")))
	answer(t, l, l.Key(screentest.KeyPress("pgdown")))
	answer(t, l, l.Key(screentest.KeyPress("pgdown")))
	answer(t, l, l.Key(screentest.KeyPress("pgdown")))
	if got := l.Count(); got != "100 loaded · more available" {
		t.Fatalf("count near the end %q", got)
	}
	if v, ok := l.Selected(); !ok || v.Name != "rec-40" {
		t.Fatalf("selected %+v", v)
	}
}

// G loads every page left, however many, and lands on the last row.
func TestListGLoadsToTheEnd(t *testing.T) {
	l := newList(session("A"), &source{n: 5000, prefix: "rec"})
	answer(t, l, l.Reload())
	answer(t, l, l.Key(screentest.KeyPress("G")))
	if got := l.Count(); got != "all 5000 loaded" {
		t.Fatalf("count after G %q", got)
	}
	if v, ok := l.Selected(); !ok || v.Name != "rec-4999" {
		t.Fatalf("selected %+v", v)
	}
	if l.LoadingToEnd() {
		t.Fatal("still loading to the end after the last page")
	}
}

// esc stops G: the page on its way is dropped, the rows loaded stay, and
// the list pages on as usual afterwards.
func TestListEscStopsLoadingToTheEnd(t *testing.T) {
	l := newList(session("A"), &source{n: 500, prefix: "rec"})
	answer(t, l, l.Reload())
	first := l.Key(screentest.KeyPress("G"))
	msg := first().(PageMsg[rec])
	second, _ := l.Handle(msg)
	if got := l.Count(); got != "100 loaded · loading to the end · esc stops" {
		t.Fatalf("progress %q", got)
	}
	if !slices.ContainsFunc(l.KeyMap(), func(b key.Binding) bool { return b.Help().Key == "esc" && b.Enabled() }) {
		t.Fatal("esc is not offered while loading to the end")
	}
	l.Key(screentest.KeyPress("esc"))
	answer(t, l, second) // the page asked for before esc comes late
	if got := l.Count(); got != "100 loaded · more available" || l.LoadingToEnd() {
		t.Fatalf("after esc %q", got)
	}
	if slices.ContainsFunc(l.KeyMap(), func(b key.Binding) bool { return b.Help().Key == "esc" }) {
		t.Fatal("esc still offered once stopped")
	}
	answer(t, l, l.Key(screentest.KeyPress("G")))
	if got := l.Count(); got != "all 500 loaded" {
		t.Fatalf("G again %q", got)
	}
}

func TestListAllLoadsEveryPage(t *testing.T) {
	l := newList(session("A"), &source{n: 130, prefix: "w"})
	l.All = true
	answer(t, l, l.Reload())
	if l.Len() != 130 || l.More {
		t.Fatalf("loaded %d, more %v", l.Len(), l.More)
	}
}

func TestListDropsAnOlderRequest(t *testing.T) {
	src := &source{n: 3, prefix: "old"}
	l := newList(session("A"), src)
	older := l.Reload()
	src.prefix = "new"
	newer := l.Reload()
	answer(t, l, newer)
	answer(t, l, older) // the first request answers late
	if v, _ := l.Selected(); v.Name != "new-0" || l.Len() != 3 {
		t.Fatalf("the older answer landed: %+v\n%s", v, plain(l))
	}
}

func TestListDropsAnotherAccountsAnswer(t *testing.T) {
	a := session("A")
	la := newList(a, &source{n: 3, prefix: "A"})
	fromA := la.Reload() // captured, not run yet

	b := a.WithAccount(ui.Account{ID: uuid.New(), Name: "Other"})
	lb := newList(b, &source{n: 2, prefix: "B"})
	fromB := lb.Reload()
	answer(t, lb, fromA)
	if lb.Len() != 0 || !lb.Loading() {
		t.Fatalf("B took A's page: %d rows\n%s", lb.Len(), plain(lb))
	}
	answer(t, lb, fromB)
	if v, _ := lb.Selected(); v.Name != "B-0" || lb.Len() != 2 {
		t.Fatalf("B's own page: %+v", v)
	}
}

func TestListShowsErrorsAndQueryRefusals(t *testing.T) {
	src := &source{n: 3, fail: &api.Error{Method: "GET", Path: "/v2/x", Status: 503, Message: "try later"}}
	l := newList(session("A"), src)
	answer(t, l, l.Reload())
	v := plain(l)
	if !strings.Contains(v, "try later") || strings.Contains(v, "/v2/x") {
		t.Fatalf("error line:\n%s", v)
	}
	l.Cursor = "bad"
	if l.Fetch() != nil || !strings.Contains(plain(l), "cursor refused here") {
		t.Fatalf("a refused query:\n%s", plain(l))
	}
}

func TestListRefreshKeepsRowsAndSelects(t *testing.T) {
	src := &source{n: 3, prefix: "r"}
	l := newList(session("A"), src)
	answer(t, l, l.Reload())
	src.n = 4
	cmd := l.Refresh()
	if l.Len() != 3 {
		t.Fatal("a refresh blanked the rows")
	}
	l.SelectWhenLoaded("3")
	answer(t, l, cmd)
	if v, _ := l.Selected(); v.ID != "3" || l.Len() != 4 {
		t.Fatalf("selected %+v of %d", v, l.Len())
	}
}

func TestTableKeepsTypedValues(t *testing.T) {
	tb := NewTable(func(r rec) string { return r.ID }, func(r rec) widget.Row {
		return widget.Row{Cells: []string{r.Name}}
	}, widget.Column{Title: "Name"})
	tb.SetSize(30, 5)
	tb.SetItems([]rec{{"1", "one"}, {"2", "two"}})
	tb.Put(rec{"1", "uno"})
	tb.Put(rec{"3", "three"})
	if got := len(tb.Items()); got != 3 || tb.Len() != 3 {
		t.Fatalf("%d values, %d rows", got, tb.Len())
	}
	if v, _ := tb.Item("1"); v.Name != "uno" || !strings.Contains(ansi.Strip(tb.View()), "uno") {
		t.Fatalf("put did not replace: %+v", v)
	}
	tb.Table.Select("3")
	tb.Remove("2")
	if v, ok := tb.Selected(); !ok || v.Name != "three" || tb.Len() != 2 {
		t.Fatalf("after remove: %+v", v)
	}
	tb.Redraw(widget.Column{Title: "N", Width: 3})
	if !strings.Contains(ansi.Strip(tb.View()), "uno") {
		t.Fatal(ansi.Strip(tb.View()))
	}
}

// pagesOf serves the pages of a script, by cursor: each cursor's items and
// the cursor after it; a cursor in fail answers that error once.
type pagesOf struct {
	pages map[string]api.Page[rec]
	fail  map[string]error
	asked []string
}

func (p *pagesOf) query(cursor string) (PageCall[rec], error) {
	p.asked = append(p.asked, cursor)
	page, err := p.pages[cursor], p.fail[cursor]
	delete(p.fail, cursor)
	return func(context.Context) (api.Page[rec], error) { return page, err }, nil
}

func scripted(p *pagesOf) *List[rec] {
	l := New(session("A"), "records", func(r rec) string { return r.ID }, func(r rec) widget.Row {
		return widget.Row{Cells: []string{r.Name}}
	}, p.query, widget.Column{Title: "Name"})
	l.SetSize(60, 12)
	return l
}

func page(cursor string, names ...string) api.Page[rec] {
	p := api.Page[rec]{Cursor: cursor}
	for _, n := range names {
		p.Items = append(p.Items, rec{ID: n, Name: n})
	}
	return p
}

// G goes on past an empty page (a screen may leave out what it does not
// list), stops with the error when the service sends a cursor it already
// sent, and after a failed page goes on from that page.
func TestListGGoesOnPastEmptyPagesButNotRoundACursor(t *testing.T) {
	first := make([]string, 40) // enough rows that the first page does not prefetch
	for i := range first {
		first[i] = fmt.Sprintf("r%02d", i)
	}
	p := &pagesOf{pages: map[string]api.Page[rec]{
		"": page("1", first...), "1": page("2"), "2": page("3", "b"), "3": page("4", "c"), "4": page("", "d"),
	}, fail: map[string]error{"3": errors.New("503 Service Unavailable")}}
	l := scripted(p)
	answer(t, l, l.Reload())
	answer(t, l, l.Key(screentest.KeyPress("G")))
	if got := l.Count(); got != "41 loaded · more available" || !strings.Contains(plain(l), "503") {
		t.Fatalf("G did not go past the empty page to the failed one: %q\n%s", got, plain(l))
	}
	answer(t, l, l.Key(screentest.KeyPress("G")))
	if got := l.Count(); got != "all 43 loaded" || strings.Contains(plain(l), "503") {
		t.Fatalf("G again did not go on from the failed page: %q\n%s", got, plain(l))
	}
	if !slices.Equal(p.asked, []string{"", "1", "2", "3", "3", "4"}) {
		t.Fatalf("pages asked %q", p.asked)
	}

	loop := &pagesOf{pages: map[string]api.Page[rec]{"": page("1", "a"), "1": page("2", "b"), "2": page("1")}}
	l = scripted(loop)
	answer(t, l, l.Reload())
	answer(t, l, l.Key(screentest.KeyPress("G")))
	if l.LoadingToEnd() || !strings.Contains(plain(l), "same cursor twice") {
		t.Fatalf("a cursor sent twice is not stopped:\n%s", plain(l))
	}
	// The first page prefetches the next ones (up to the empty one); G
	// then asks each page once more before it meets "1" again.
	if !slices.Equal(loop.asked, []string{"", "1", "2", "1", "2"}) {
		t.Fatalf("pages asked %q", loop.asked)
	}
}
