package listing

import (
	"context"
	"fmt"

	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/widget"
)

// PagerMsg is one page of a list, answering request Req made for Account.
type PagerMsg[T any] struct {
	Req     uint64
	Account uuid.UUID
	Page    api.Page[T]
	Err     error
}

// Pager is the paging state of a list of Ts the service sends in cursor
// pages. Screens read its fields and change them only through its methods
// and Fetch.
type Pager[T any] struct {
	Cursor  string // where the next page starts
	More    bool   // false once the service said the last page was sent
	Loading bool   // a page is on its way
	Started bool   // the first page was asked for
	Err     error  // why the last page did not come
	Req     uint64 // the request whose answer is awaited; 0 for none
}

// Reset starts the list again from its first page. Answers to the requests
// made so far are dropped from now on.
func (p *Pager[T]) Reset() { *p = Pager[T]{More: true, Started: true} }

// Fail records why the next page cannot be asked for.
func (p *Pager[T]) Fail(err error) { p.Err, p.Loading = err, false }

// Fetch asks list for the page of query q (made from p.Cursor) for the
// account of s; what names the request in an error ("list tickets").
func Fetch[Q, T any](p *Pager[T], s *ui.Session, what string, list func(context.Context, Q) (api.Page[T], error), q Q) tea.Cmd {
	p.Req, p.Loading = NextID(), true
	req, account := p.Req, s.Account.ID
	return Request(s, func(ctx context.Context) tea.Msg {
		page, err := list(ctx, q)
		if err != nil {
			err = fmt.Errorf("%s: %w", what, err)
		}
		return PagerMsg[T]{Req: req, Account: account, Page: page, Err: err}
	})
}

// Take applies msg to the paging state and reports whether it is the answer
// awaited for account: an answer to a request made before a reset (a filter
// changed, a reload) or for another account is not. The caller then adds
// msg's items, unless msg.Err says why there are none.
func (p *Pager[T]) Take(msg PagerMsg[T], account uuid.UUID) bool {
	if msg.Req != p.Req || msg.Account != account {
		return false
	}
	p.Loading, p.Err = false, msg.Err
	if msg.Err == nil {
		p.Cursor, p.More = msg.Page.Cursor, msg.Page.More()
	}
	return true
}

// Ahead asks for the next page with fetch when the cursor of t nears the
// last loaded row and no page is on its way already.
func (p *Pager[T]) Ahead(t *widget.Table, fetch func() tea.Cmd) tea.Cmd {
	if p.Loading || !p.More || p.Err != nil || !t.NearEnd(PrefetchMargin) {
		return nil
	}
	return fetch()
}

// Next is what follows msg, a page taken into t: the dashboard hears that
// the data is fresh, and the page after is asked for while the cursor still
// sits near the end (the user pressed G). Never after an empty page, which
// would loop, nor under the / filter, whose few rows always sit near the end.
func (p *Pager[T]) Next(s *ui.Session, t *widget.Table, msg PagerMsg[T], fetch func() tea.Cmd) tea.Cmd {
	if msg.Err != nil {
		return nil
	}
	var ahead tea.Cmd
	if len(msg.Page.Items) > 0 && t.Filter() == "" {
		ahead = p.Ahead(t, fetch)
	}
	return tea.Batch(s.Refreshed(), ahead)
}

// Count is the always-visible paging state of t, a list of what
// ("tickets"): "loading tickets…", "50 loaded · more available", "all 75
// loaded"; then the notes, then how many rows match the / filter.
func (p *Pager[T]) Count(what string, t *widget.Table, notes ...string) string {
	n := t.Len()
	var s string
	switch {
	case !p.Started || (p.Loading && n == 0):
		s = "loading " + what + "…"
	case p.Loading:
		s = fmt.Sprintf("%d loaded · loading more…", n)
	case p.More:
		s = fmt.Sprintf("%d loaded · more available", n)
	default:
		s = fmt.Sprintf("all %d loaded", n)
	}
	for _, note := range notes {
		s += " · " + note
	}
	if q := t.Filter(); q != "" {
		s += fmt.Sprintf(" · %d match /%s", t.Visible(), q)
	}
	return s
}
