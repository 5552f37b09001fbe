package listing

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/widget"
)

// MaxPages bounds how many pages a list that loads All its pages asks for:
// such lists are short, and a runaway cursor must not loop forever.
const MaxPages = 40

// PageMsg is the answer to a page request of a List of Ts.
type PageMsg[T any] = ui.Result[api.Page[T]]

// PageCall is the request of one page, its query fixed by value when it was
// built.
type PageCall[T any] func(ctx context.Context) (api.Page[T], error)

// Query builds the request of the page that starts at cursor ("" for the
// first) from what the screen applies now (account, filters); an error
// (a filter the service would refuse) is shown instead of a request.
type Query[T any] func(cursor string) (PageCall[T], error)

// List is the base of every screen that lists the service's records: a
// typed Table, the paging of a list the service sends in cursor pages (one
// Slot awaits the next page, so an answer to a request made before a reload
// or for another account never lands), the next page asked for before the
// cursor reaches the end, the root's / filter, and the skeleton of the view:
// the count line, the last error, the table. The screen keeps what is its
// own: columns, server filters, keys, the detail of a record.
type List[T any] struct {
	*Table[T]
	s     *ui.Session
	what  string // what is listed, plural: "tickets"
	query Query[T]
	slot  ui.Slot

	Cursor  string // where the next page starts
	More    bool   // false once the service said the last page was sent
	Started bool   // the first page was asked for
	Err     error  // why the last page did not come
	// All makes the list ask for every page (up to MaxPages) without
	// waiting for the cursor to near the end: short lists whose count
	// shows in a tab.
	All     bool
	pages   int
	refresh bool // the next page replaces the rows

	// toEnd is set while G loads every page to the end: each page asks for
	// the next at once, with no MaxPages bound (a history of 100k tickets
	// is 2,000 pages), until the last one, an error, or esc. endSeen are
	// the cursors met meanwhile: a page may come empty (a screen that
	// leaves out what it does not list) and the loading goes on, but a
	// cursor met twice would loop, and stops it.
	toEnd           bool
	endSeen         map[string]bool
	endKey, stopKey key.Binding

	// selectID is selected when a page brings it (a record just created).
	selectID string
	// Extra, when set, are lines shown between the count line and the
	// error line (the registered webhooks), given the list's size; the
	// screen calls SetSize again when they change.
	Extra func(w, h int) []string
	// OnPage, when set, runs after a page was taken (its values are in the
	// table), for what a screen derives from its list.
	OnPage func(items []T) tea.Cmd

	// bar is the list's server filter bar (nil for none); apply reloads
	// the list once its form is applied.
	bar   *widget.FilterBar
	apply func() tea.Cmd

	width, height int
	// ownHeader: the screen draws its own header, the table gets the
	// whole size (SetTableSize).
	ownHeader bool
	// fresh is when the list last took a page, and why the last ask
	// failed: the count line says "as of", and how old the rows are
	// while they could not be refreshed.
	fresh ui.Fresh
	// held are the keys pressed before the first page came (see Defer).
	held []tea.KeyPressMsg
}

// heldKeys are the keys that move in or open a list: pressed before its
// first page came, they are kept for when it does, rather than lost (G
// then enter would otherwise open the first row).
var heldKeys = map[string]bool{"G": true, "end": true, "g": true, "home": true, "enter": true,
	"j": true, "k": true, "up": true, "down": true, "pgdown": true, "pgup": true}

// maxHeld bounds the keys kept while the first page is on its way.
const maxHeld = 16

// Defer keeps msg for when the first page comes, and reports whether it
// did: only keys that move in or open the list, only while it is empty
// and its first page on its way.
func (l *List[T]) Defer(msg tea.KeyPressMsg) bool {
	if l.Loaded() || !l.Loading() || len(l.held) >= maxHeld || !heldKeys[msg.String()] {
		return false
	}
	l.held = append(l.held, msg)
	return true
}

// Held returns the keys Defer kept, once the first page came, and forgets
// them: the screen handles them in order as if pressed now.
func (l *List[T]) Held() []tea.KeyPressMsg {
	if !l.Loaded() || len(l.held) == 0 {
		return nil
	}
	h := l.held
	l.held = nil
	return h
}

// New is the list of what ("trades") for s, drawn with row, each value
// named by id, its pages asked for with query.
func New[T any](s *ui.Session, what string, id func(T) string, row func(T) widget.Row, query Query[T], cols ...widget.Column) *List[T] {
	l := &List[T]{Table: NewTable(id, row, cols...), s: s, what: what, query: query,
		endKey:  key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("G/end", "last (loads to the end)")),
		stopKey: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "stop loading")),
	}
	l.Table.SetStyles(s.Styles().TableStyles())
	return l
}

// Loading reports whether a page is on its way.
func (l *List[T]) Loading() bool { return l.slot.Waiting() }

// Loaded reports whether the first page came.
func (l *List[T]) Loaded() bool { return l.Started && (l.Len() > 0 || !l.Loading()) }

// Reload drops the list and asks for its first page under what the screen
// applies now; answers to the requests made so far are dropped from now on.
func (l *List[T]) Reload() tea.Cmd {
	l.SetItems(nil)
	l.Cursor, l.More, l.Started, l.Err, l.pages = "", true, true, nil, 0
	l.toEnd = false
	l.slot.Cancel()
	return l.Fetch()
}

// Refresh asks for the first page again and, unlike Reload, keeps the
// loaded rows until it comes: a refresh after a write, where the rows the
// user is looking at must not blink.
func (l *List[T]) Refresh() tea.Cmd {
	l.Cursor, l.More, l.Started, l.Err, l.pages = "", true, true, nil, 0
	l.refresh, l.toEnd = true, false
	return l.Fetch()
}

// Replace puts items, a screen's own refresh of the list, in place of the
// rows, with the paging state to go on from; a page on its way, which
// continued the old list, is dropped, and the next one asked for when the
// cursor is near the end.
func (l *List[T]) Replace(items []T, cursor string, more bool) tea.Cmd {
	l.slot.Cancel()
	l.refresh, l.toEnd = false, false
	l.SetItems(items)
	l.Cursor, l.More, l.Started, l.Err = cursor, more, true, nil
	l.relayout()
	return l.Ahead()
}

// Fail shows err as the list's error (a refresh of the screen's own that
// failed); the rows stay.
func (l *List[T]) Fail(err error) { l.fail(err) }

// SelectWhenLoaded selects the value with id once a page brings it.
func (l *List[T]) SelectWhenLoaded(id string) {
	if !l.Table.Table.Select(id) {
		l.selectID = id
	}
}

// Fetch asks for the page at the cursor.
func (l *List[T]) Fetch() tea.Cmd {
	call, err := l.query(l.Cursor)
	if err != nil {
		l.slot.Cancel()
		l.fail(err)
		return nil
	}
	what := "list " + l.what
	return ui.Fetch(l.s, &l.slot, 0, func(ctx context.Context) (api.Page[T], error) {
		p, err := call(ctx)
		if err != nil {
			err = fmt.Errorf("%s: %w", what, err)
		}
		return p, err
	})
}

func (l *List[T]) fail(err error) {
	l.Err = err
	l.relayout()
}

// Ahead asks for the next page when the cursor nears the last loaded row
// and no page is on its way already.
func (l *List[T]) Ahead() tea.Cmd {
	if l.Loading() || !l.More || l.Err != nil || !l.NearEnd(PrefetchMargin) {
		return nil
	}
	return l.Fetch()
}

// SetBar gives the list a server filter bar, styled with the theme;
// apply (the screen's reload) runs once the bar's form is applied.
func (l *List[T]) SetBar(bar *widget.FilterBar, apply func() tea.Cmd) {
	l.bar, l.apply = bar, apply
	Style(l.s.Styles(), l.Table.Table, bar)
}

// Handle takes what every list answers alike: its pages, the root's /
// filter, the theme, and the keys of the filter bar's open form. It
// reports whether msg was one of them.
func (l *List[T]) Handle(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case PageMsg[T]:
		return l.page(msg), true
	case ui.FilterMsg:
		return l.SetFilter(msg.Query), true
	case ui.ThemeChangedMsg:
		l.Restyle()
		return nil, false // the screen may restyle more
	case tea.KeyPressMsg:
		if l.bar != nil && l.bar.Active() {
			return UpdateForm(l.bar, msg, l.apply), true
		}
	}
	return nil, false
}

// FilterKey takes the keys of the server filter bar: open shows its form,
// clear empties it and applies that (the list is fetched again). It
// reports whether msg was one of them.
func (l *List[T]) FilterKey(msg tea.KeyPressMsg, open, clear key.Binding) (tea.Cmd, bool) {
	switch {
	case l.bar == nil:
		return nil, false
	case key.Matches(msg, open):
		return l.bar.Open(), true
	case key.Matches(msg, clear):
		l.bar.Clear()
		return l.apply(), true
	}
	return nil, false
}

// Rest gives the filter bar's open form what else it needs (its inputs'
// blinks); nil when no form is open.
func (l *List[T]) Rest(msg tea.Msg) tea.Cmd {
	if l.bar == nil || !l.bar.Active() {
		return nil
	}
	return UpdateForm(l.bar, msg, l.apply)
}

// Frame is a list screen in w×h cells: the filter bar's form (titled
// formTitle, with count) while it is open, else body.
func (l *List[T]) Frame(w, h int, formTitle, count string, body func() string) string {
	if w <= 0 || h <= 0 {
		return ""
	}
	var s string
	if l.bar != nil && l.bar.Active() {
		s = Form(l.s.Styles(), l.bar, formTitle, count, w, h)
	} else {
		s = body()
	}
	return ui.Fit(s, w, h)
}

// Key moves the cursor for msg and asks for the next page when it nears
// the end. G (end) with more pages to come loads every page to the end,
// the cursor landing on the last row once it came; esc stops that.
func (l *List[T]) Key(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case l.toEnd && key.Matches(msg, l.stopKey):
		l.StopLoading()
		return nil
	case key.Matches(msg, l.endKey) && l.More && l.Filter() == "":
		return l.LoadToEnd()
	}
	return tea.Batch(l.Table.Update(msg), l.Ahead())
}

// LoadToEnd asks for every page left, one after the other, and puts the
// cursor on the last row when the last page came (see Key); after a page
// failed it goes on from that page. Under the / filter it is not offered:
// the filter's few rows always sit near the end.
func (l *List[T]) LoadToEnd() tea.Cmd {
	l.Table.Update(tea.KeyPressMsg{Code: tea.KeyEnd})
	if !l.More {
		return nil
	}
	l.toEnd = true
	l.endSeen = map[string]bool{l.Cursor: true}
	l.relayout()
	if l.Loading() {
		return nil // the page on its way goes on to the next
	}
	l.Err = nil
	return l.Fetch()
}

// LoadingToEnd reports whether G is loading the pages left.
func (l *List[T]) LoadingToEnd() bool { return l.toEnd }

// StopLoading stops loading to the end: the page on its way is dropped
// (asked for again when the cursor nears the end), the rows loaded stay.
func (l *List[T]) StopLoading() {
	if !l.toEnd {
		return
	}
	l.toEnd = false
	l.slot.Cancel()
	l.relayout()
}

// Bindings is the KeyMap of a list screen whose records open in a detail
// pane: the filter bar's form keys while it is open, else, while a record
// is open, pane's keys and the scroll keys, else keys and the table's
// navigation.
func (l *List[T]) Bindings(open bool, pane []key.Binding, scroll ScrollKeys, keys ...key.Binding) []key.Binding {
	switch {
	case l.bar != nil && l.bar.Active():
		return l.bar.KeyMap()
	case open:
		return slices.Concat(pane, scroll.Bindings())
	}
	return slices.Concat(keys, l.KeyMap())
}

// KeyMap is the table's navigation, with esc while G loads to the end.
func (l *List[T]) KeyMap() []key.Binding {
	ks := l.Table.KeyMap()
	for i, k := range ks {
		if slices.Equal(k.Keys(), l.endKey.Keys()) {
			ks[i] = l.endKey
		}
	}
	if l.toEnd {
		ks = append([]key.Binding{l.stopKey}, ks...)
	}
	return ks
}

// page takes a page, if it is the one awaited.
func (l *List[T]) page(msg PageMsg[T]) tea.Cmd {
	if !l.slot.Take(msg) {
		return nil
	}
	defer l.relayout()
	l.Err = msg.Err
	l.fresh.Took(l.s.Now(), msg.Err)
	if msg.Err != nil {
		l.refresh, l.toEnd = false, false
		return nil
	}
	if l.refresh {
		l.refresh = false
		l.SetItems(msg.Value.Items)
	} else {
		l.AddItems(msg.Value.Items)
	}
	l.pages++
	l.Cursor, l.More = msg.Value.Cursor, msg.Value.More()
	if l.selectID != "" && l.Table.Table.Select(l.selectID) {
		l.selectID = ""
	}
	var own tea.Cmd
	if l.OnPage != nil {
		own = l.OnPage(msg.Value.Items)
	}
	// The page after is asked for at once while G loads to the end, when
	// every page is wanted, or while the cursor still sits near the end;
	// never after an empty page, which would loop (G's loading knows the
	// cursors it met instead), nor under the / filter, whose few rows
	// always sit near the end.
	var next tea.Cmd
	switch {
	case l.toEnd:
		switch {
		case l.More && l.endSeen[l.Cursor]:
			l.toEnd = false
			l.Err = errors.New("the service sent the same cursor twice; stopped loading to the end to avoid a loop")
		case l.More:
			l.endSeen[l.Cursor] = true
			next = l.Fetch()
		default:
			l.toEnd = false
			l.Table.Update(tea.KeyPressMsg{Code: tea.KeyEnd})
		}
	case l.All && l.More && len(msg.Value.Items) > 0 && l.pages < MaxPages:
		next = l.Fetch()
	case len(msg.Value.Items) > 0 && l.Filter() == "":
		next = l.Ahead()
	}
	return tea.Batch(l.s.Refreshed(), own, next)
}

// Count is the always-visible paging state: "loading trades…", "50 loaded
// · more available", "all 75 loaded"; then notes, then how many rows match
// the / filter.
func (l *List[T]) Count(notes ...string) string {
	n := l.Len()
	var s string
	switch {
	case !l.Started || (l.Loading() && n == 0):
		s = "loading " + l.what + "…"
	case l.toEnd:
		s = fmt.Sprintf("%d loaded · loading to the end · esc stops", n)
	case l.Loading():
		s = fmt.Sprintf("%d loaded · loading more…", n)
	case l.More:
		s = fmt.Sprintf("%d loaded · more available", n)
	default:
		s = fmt.Sprintf("all %d loaded", n)
	}
	for _, note := range notes {
		s += " · " + note
	}
	if q := l.Filter(); q != "" {
		s += fmt.Sprintf(" · %d match /%s%s", l.Visible(), q, l.SearchNote())
	}
	return s
}

// AsOf says when the rows were last read (" · as of 15:04:05"), and how
// old they are while they could not be refreshed; "" before any read.
func (l *List[T]) AsOf() string {
	f := l.fresh
	if !f.Known() {
		return ""
	}
	s := " · as of " + f.At.In(l.s.Now().Location()).Format("15:04:05")
	if f.Stale() && l.Len() > 0 {
		s += ", " + ui.Ago(l.s.Now().Sub(f.At)) + " ago, not refreshed"
	}
	return s
}

// SetSize gives the list w×h cells, its count and error lines included.
func (l *List[T]) SetSize(w, h int) {
	l.width, l.height = max(w, 0), max(h, 0)
	l.relayout()
}

// SetTableSize gives the table alone w×h cells, for a screen that draws
// the paging state and errors its own way (not with View).
func (l *List[T]) SetTableSize(w, h int) {
	l.width, l.height, l.ownHeader = max(w, 0), max(h, 0), true
	l.relayout()
}

// Size is the list's size.
func (l *List[T]) Size() (w, h int) { return l.width, l.height }

// relayout gives the table the room the header leaves, which depends on
// whether an error is shown.
func (l *List[T]) relayout() {
	l.Table.SetSize(l.width, max(l.height-l.headerLines(), 0))
}

func (l *List[T]) headerLines() int {
	if l.ownHeader {
		return 0
	}
	return len(l.header("", nil))
}

func (l *List[T]) showsErr() bool { return l.height >= 6 && l.Err != nil }

// header is what sits above the table: the count line, the Extra lines,
// the last error with the fix when there is room; the table keeps a line.
func (l *List[T]) header(filters string, notes []string) []string {
	if l.height <= 0 {
		return nil
	}
	th := l.s.Styles()
	count := l.Count(notes...)
	if asOf := l.AsOf(); lipgloss.Width(count)+lipgloss.Width(asOf)+lipgloss.Width(filters)+2 <= l.width {
		count += asOf // when it fits beside the rest: a narrow window keeps the count
	}
	lines := []string{CountLine(th, count, filters, l.width)}
	if l.Extra != nil {
		lines = append(lines, l.Extra(l.width, l.height)...)
	}
	if l.showsErr() {
		lines = append(lines, ErrorLine(th, l.Err, l.width))
	}
	return lines[:min(len(lines), max(l.height-1, 1))]
}

// View is the list in its w×h cells: the count line (count and notes, then
// filters, cut first), the Extra lines, the last error with the fix when
// there is room, and the table.
func (l *List[T]) View(filters string, notes ...string) string {
	return Below(l.header(filters, notes), l.Table.Table, l.height)
}

// Restyle gives the table and the filter bar the theme's styles
// (ui.ThemeChangedMsg).
func (l *List[T]) Restyle() {
	if l.bar != nil {
		Style(l.s.Styles(), l.Table.Table, l.bar)
		return
	}
	l.Table.SetStyles(l.s.Styles().TableStyles())
}
