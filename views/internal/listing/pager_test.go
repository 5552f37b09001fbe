package listing

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/widget"
)

// list is a list of the numbers 0..n-1, served in pages of 50, kept the way
// the screens keep theirs.
type list struct {
	s     *ui.Session
	t     *widget.Table
	p     Pager[int]
	n     int
	fail  error
	asked int
}

func newList(n int) *list {
	l := &list{s: &ui.Session{Account: ui.Account{ID: uuid.New()}}, t: widget.NewTable(widget.Column{Title: "N"}), n: n}
	l.t.SetSize(40, 12)
	return l
}

func (l *list) serve(_ context.Context, cursor string) (api.Page[int], error) {
	l.asked++
	if l.fail != nil {
		return api.Page[int]{}, l.fail
	}
	start, _ := strconv.Atoi(cursor)
	end := min(start+50, l.n)
	p := api.Page[int]{}
	for i := start; i < end; i++ {
		p.Items = append(p.Items, i)
	}
	if end < l.n {
		p.Cursor = strconv.Itoa(end)
	}
	return p, nil
}

func (l *list) fetch() tea.Cmd { return Fetch(&l.p, l.s, "list numbers", l.serve, l.p.Cursor) }

func (l *list) reset() tea.Cmd {
	l.p.Reset()
	l.t.SetRows(nil)
	return l.fetch()
}

// take is what a screen does with a page: it adds the rows, then goes on.
func (l *list) take(msg PageMsg[int]) tea.Cmd {
	if !l.p.Take(msg, l.s.Account.ID) {
		return nil
	}
	var rows []widget.Row
	for _, n := range msg.Page.Items {
		rows = append(rows, widget.Row{ID: strconv.Itoa(n), Cells: []string{strconv.Itoa(n)}})
	}
	l.t.AppendRows(rows)
	return l.p.Next(l.s, l.t, msg, l.fetch)
}

// run runs cmd and every page it leads to.
func (l *list) run(cmd tea.Cmd) {
	for queue := []tea.Cmd{cmd}; len(queue) > 0; queue = queue[1:] {
		if queue[0] == nil {
			continue
		}
		switch msg := queue[0]().(type) {
		case tea.BatchMsg:
			queue = append(queue, msg...)
		case PageMsg[int]:
			queue = append(queue, l.take(msg))
		}
	}
}

func (l *list) count() string { return l.p.Count("numbers", l.t) }

func TestPagerFetchesAheadOfTheCursor(t *testing.T) {
	l := newList(120)
	if got := l.count(); got != "loading numbers…" {
		t.Fatalf("before the first page: %q", got)
	}
	l.run(l.reset())
	if got := l.count(); l.asked != 1 || got != "50 loaded · more available" {
		t.Fatalf("after the first page: %d asked, %q", l.asked, got)
	}
	l.t.Select("30")
	l.run(l.p.Ahead(l.t, l.fetch))
	if l.asked != 1 {
		t.Fatal("the next page was asked for with the cursor far from the end")
	}
	l.t.Select("45")
	l.run(l.p.Ahead(l.t, l.fetch))
	if got := l.count(); l.asked != 2 || got != "100 loaded · more available" {
		t.Fatalf("near the end: %d asked, %q", l.asked, got)
	}
	// At the very end the pages keep coming while the cursor stays near it.
	l.t.Select("99")
	l.run(l.p.Ahead(l.t, l.fetch))
	if got := l.count(); l.asked != 3 || got != "all 120 loaded" {
		t.Fatalf("at the end: %d asked, %q", l.asked, got)
	}
	l.t.Select("119")
	l.run(l.p.Ahead(l.t, l.fetch))
	if l.asked != 3 {
		t.Fatal("a page was asked for after the last one")
	}
}

func TestPagerDoesNotLoadEverythingUnderTheFilter(t *testing.T) {
	l := newList(500)
	l.t.SetFilter("7") // few rows match, so the cursor always sits near the end
	l.run(l.reset())
	if l.asked != 1 {
		t.Fatalf("%d pages asked for under the / filter, want 1", l.asked)
	}
	if got := l.count(); got != "50 loaded · more available · 5 match /7" {
		t.Fatalf("count %q", got)
	}
	if got := l.p.Count("numbers", l.t, "2 selected"); got != "50 loaded · more available · 2 selected · 5 match /7" {
		t.Fatalf("count with a note %q", got)
	}
}

func TestPagerDropsSupersededAnswers(t *testing.T) {
	l := newList(60)
	first := l.reset()
	l.n = 5 // the filter changed: the list is asked for again
	second := l.reset()
	l.run(second)
	l.run(first) // arrives late
	if got := l.count(); got != "all 5 loaded" {
		t.Fatalf("the answer to the request before the reset was taken: %q", got)
	}

	// An answer for another account is not taken, even with the awaited id.
	l.run(l.reset())
	other := PageMsg[int]{Req: l.p.Req, Account: uuid.New(), Page: api.Page[int]{Items: []int{7}, Cursor: "x"}}
	if l.p.Take(other, l.s.Account.ID) || l.p.Cursor == "x" {
		t.Fatal("a page for another account was taken")
	}
	// A reset alone drops the page on its way.
	late := l.fetch()
	l.p.Reset()
	l.t.SetRows(nil)
	l.run(late)
	if l.t.Len() != 0 {
		t.Fatalf("%d rows from a request made before the reset", l.t.Len())
	}
}

func TestPagerKeepsTheErrorUntilReset(t *testing.T) {
	l := newList(60)
	l.fail = api.ErrRateLimited
	l.run(l.reset())
	if !errors.Is(l.p.Err, api.ErrRateLimited) || !strings.HasPrefix(l.p.Err.Error(), "list numbers: ") || l.p.Loading {
		t.Fatalf("error %v, loading %v", l.p.Err, l.p.Loading)
	}
	l.fail = nil
	l.run(l.p.Ahead(l.t, l.fetch))
	if l.asked != 1 {
		t.Fatal("a page was asked for again while the error stands")
	}
	l.run(l.reset())
	if l.p.Err != nil || l.count() != "50 loaded · more available" {
		t.Fatalf("after a reload: %v, %q", l.p.Err, l.count())
	}
}
