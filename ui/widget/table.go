// Package widget holds the dashboard's shared widgets: the windowed table,
// countdowns, QR codes.
package widget

import (
	"hash/maphash"
	"runtime"
	"slices"
	"strings"
	"sync"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// Column describes one table column. Width 0 means the column shares the
// width left over by the fixed columns with the other zero-width columns.
type Column struct {
	Title string
	Width int
	Right bool
	// Status marks a column of status words: each cell is coloured by
	// Styles.Status (the selected row keeps its own style).
	Status bool
}

// Row is one table row. ID identifies the row across updates: the cursor and
// the render cache follow it, never the row's position.
type Row struct {
	ID       string
	Cells    []string
	Disabled bool
}

// Styles are the table's styles. Selected must stay visible without colour
// (the default is reverse video); the table also marks the selected row with
// "▶" so that it is never conveyed by style alone.
type Styles struct {
	Header, Cell, Selected, Disabled lipgloss.Style
	// Status colours a cell of a Status column by what it says; nil
	// leaves it in Cell.
	Status func(word string) lipgloss.Style
}

// DefaultStyles are the styles a new table starts with.
func DefaultStyles() Styles {
	return Styles{
		Header:   lipgloss.NewStyle().Bold(true),
		Cell:     lipgloss.NewStyle(),
		Selected: lipgloss.NewStyle().Reverse(true),
		Disabled: lipgloss.NewStyle().Faint(true),
	}
}

const (
	marker    = "▶ "
	noMarker  = "  "
	gutter    = 2 // width of the marker column
	separator = " "
)

const cellSep = '\x1f'

// plainOf appends the filter text of a row's cells to buf: joined by the
// unit separator, lower-cased, escape codes dropped, line breaks and tabs
// (and the separator itself, and NULs) turned to spaces.
func plainOf(buf []byte, cells []string) []byte {
	start := len(buf)
	ascii := true
	for i, c := range cells {
		if i > 0 {
			buf = append(buf, cellSep)
		}
		for j := 0; j < len(c); j++ {
			b := c[j]
			switch {
			case b >= 0x80 || b == 0x1b:
				ascii = false
			case b == cellSep || b == '\n' || b == '\r' || b == '\t' || b == 0:
				b = ' '
			case 'A' <= b && b <= 'Z':
				b += 'a' - 'A'
			}
			buf = append(buf, b)
		}
	}
	if ascii {
		return buf
	}
	plain := strings.ToLower(ansi.Strip(string(buf[start:])))
	return append(buf[:start], plain...)
}

// joined is a row's cells as one string, the way an eager table keeps them
// to draw: separated by the unit separator, line breaks and tabs turned to
// spaces.
func joined(cells []string) string {
	var b strings.Builder
	for i, c := range cells {
		if i > 0 {
			b.WriteByte(cellSep)
		}
		if strings.ContainsAny(c, "\x1f\n\r\t") {
			c = strings.NewReplacer("\x1f", " ", "\n", " ", "\r", " ", "\t", " ").Replace(c)
		}
		b.WriteString(c)
	}
	return b.String()
}

// Source draws the rows of a table that keeps no cells of its own (see
// SetSource): the table asks it for the rows in view only.
type Source interface {
	// Row is the row at loaded position i as it is drawn now.
	Row(i int) Row
	// ID is the ID of the row at loaded position i.
	ID(i int) string
}

// IDSource is a Source whose rows' IDs the filter matches as well as
// their text, so that the text given to Load need not repeat them (a
// long list then keeps each ID once, where the source keeps it).
type IDSource interface {
	Source
	// IDHolds reports whether the ID of the row at loaded position i
	// holds q, a lower-cased query.
	IDHolds(i int, q string) bool
}

// item is a loaded row: where its filter text lies in the arena, and its
// length; the top bit of n marks a disabled row (of an eager table).
type item struct {
	off uint32
	n   uint32
}

const disabledBit = 1 << 31

func (it item) len() int { return int(it.n &^ disabledBit) }

// forgetAll drops every cached line.
func (t *Table) forgetAll() {
	clear(t.lines)
	t.status = nil
	t.head, t.sel, t.selFor = "", "", ""
}

// forget drops the cached lines of one row.
func (t *Table) forget(id string) {
	delete(t.lines, id)
	if t.selFor == id {
		t.sel, t.selFor = "", ""
	}
}

// Table is a windowed table for lists of any length: it keeps every loaded
// row but renders only the rows in view, caches each rendered row by its ID,
// and filters against its rows' text, kept lower-cased in one arena. An
// eager table (SetRows, AppendRows) keeps each row's cells to draw them; a
// table with a Source (SetSource, Load) keeps only the filter text and asks
// the source for the rows in view, so that changing the columns costs what
// is visible, not what is loaded. It is a pointer type so that screens can
// hold it without copying its caches.
type Table struct {
	cols   []Column
	widths []int
	// lineWidth is the width of a row's line: the marker, the cells and
	// the separators; narrowStyles says the styles add no width to it (no
	// padding, margin or border), so a line need not be measured.
	lineWidth    int
	narrowStyles bool
	// cellStyle and disabledStyle render a row's cells.
	cellStyle, disabledStyle quickStyle
	styles                   Styles
	width                    int
	height                   int

	// lines caches the rendered unselected line of drawn rows by row ID; it
	// is emptied when the width, the columns or the styles change, and when
	// it grows well past a screenful. head and sel cache the header and the
	// selected row's line (selID's) the same way.
	lines  map[string]string
	status map[string]string // rendered status words
	head   string
	sel    string
	selFor string

	src   Source
	idSrc IDSource // src, when the filter matches its IDs
	text  arena
	items []item
	// ids and orig are an eager table's row IDs and cells (joined); nil
	// with a Source.
	ids  []string
	orig []string
	// slots index the rows by ID: open addressing, position+1, 0 for an
	// empty slot; twice as many slots as rows at least.
	slots []int32
	seed  maphash.Seed

	filter  string
	lfilter string
	match   []int32 // positions in items that match the filter, ascending; nil: no filter
	// recent are the matches of the last queries over the current rows;
	// any change of the rows forgets them.
	recent []recentFilter
	// pending is the filter search under way over a long list, nil when
	// match is complete; gen numbers the queries, so that the slices of a
	// replaced search stop.
	pending *search
	gen     uint64

	cursor int    // position in the visible list
	offset int    // first visible position drawn
	selID  string // the ID the cursor follows

	empty string
	blank string
	keys  tableKeys
}

type recentFilter struct {
	q     string
	match []int32
}

type tableKeys struct {
	Up, Down, PageUp, PageDown, Home, End key.Binding
}

// NewTable returns an empty table with the given columns and default styles.
func NewTable(cols ...Column) *Table {
	t := &Table{
		lines: make(map[string]string),
		seed:  maphash.MakeSeed(),
		empty: "no rows",
		keys: tableKeys{
			Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
			Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
			PageUp:   key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up")),
			PageDown: key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "page down")),
			Home:     key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("g/home", "first")),
			End:      key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("G/end", "last")),
		},
	}
	t.SetStyles(DefaultStyles())
	t.SetColumns(cols...)
	return t
}

// SetSource makes the table draw its rows with src: from now on it keeps
// only their filter text, and rows are given with Load, whose Cells are the
// text the filter matches (they may differ from the cells drawn, and must
// not depend on the columns). Every loaded row is dropped.
func (t *Table) SetSource(src Source) {
	t.src = src
	t.idSrc, _ = src.(IDSource)
	t.Load(nil, true, nil)
}

// SetStyles replaces the styles; every cached line is rendered again.
func (t *Table) SetStyles(s Styles) {
	t.styles = s
	t.narrowStyles = true
	for _, st := range []lipgloss.Style{s.Header, s.Cell, s.Selected, s.Disabled} {
		t.narrowStyles = t.narrowStyles && lipgloss.Width(st.Render("x")) == 1
	}
	t.cellStyle, t.disabledStyle = newQuickStyle(s.Cell), newQuickStyle(s.Disabled)
	if s.Status != nil {
		for _, w := range []string{"PAID", "FAILED", "x"} {
			t.narrowStyles = t.narrowStyles && lipgloss.Width(s.Status(w).Render(w)) == len(w)
		}
	}
	t.forgetAll()
}

// SetEmpty sets the text shown when no row is loaded.
func (t *Table) SetEmpty(text string) { t.empty = text }

// SetSize sets the size of the whole table, header line included.
func (t *Table) SetSize(w, h int) {
	w, h = max(w, 0), max(h, 0)
	if w != t.width {
		t.width = w
		t.blank = strings.Repeat(" ", w)
		t.layout()
	}
	t.height = h
	t.clampOffset()
}

// SetColumns replaces the columns. Rows keep their cells; callers that change
// the number of columns should set rows again.
func (t *Table) SetColumns(cols ...Column) {
	t.cols = slices.Clone(cols)
	t.layout()
}

// layout computes the column widths for the current width and invalidates
// every cached line.
func (t *Table) layout() {
	t.forgetAll()
	t.widths = make([]int, len(t.cols))
	avail := t.width - gutter - max(len(t.cols)-1, 0)*len(separator)
	shared := 0
	for i, c := range t.cols {
		if c.Width > 0 {
			t.widths[i] = c.Width
			avail -= c.Width
		} else {
			shared++
		}
	}
	if shared > 0 && avail > 0 {
		each, extra := avail/shared, avail%shared
		for i, c := range t.cols {
			if c.Width == 0 {
				t.widths[i] = each
				if extra > 0 {
					t.widths[i]++
					extra--
				}
			}
		}
	}
	t.lineWidth = gutter + max(len(t.cols)-1, 0)*len(separator)
	for _, w := range t.widths {
		t.lineWidth += max(w, 0)
	}
}

// SetRows replaces every row. Cached lines of rows whose ID and content did
// not change are kept; the cursor stays on the selected row's ID when it is
// still listed.
func (t *Table) SetRows(rows []Row) { t.Load(rows, true, nil) }

// AppendRows adds rows after the loaded ones. A row whose ID is already
// loaded replaces it in place (a page that overlaps the previous one, or a
// refreshed row), so the list never shows an ID twice.
func (t *Table) AppendRows(rows []Row) { t.Load(rows, false, nil) }

// Load is SetRows (reset) or AppendRows, telling placed where each row
// went (rows[i] at loaded position pos) as soon as it is placed: the way a
// table with a Source learns which value each position draws before it
// asks for any.
func (t *Table) Load(rows []Row, reset bool, placed func(i, pos int)) {
	t.recent = nil
	var keep map[string]string // reset: the cached lines that may stay
	if reset {
		keep = t.cachedRows()
		t.items, t.text, t.slots = make([]item, 0, len(rows)), arena{}, nil
		t.ids, t.orig = nil, nil
		if t.src == nil {
			t.ids, t.orig = make([]string, 0, len(rows)), make([]string, 0, len(rows))
		}
	}
	start := len(t.items)
	var buf []byte
	for i, r := range rows {
		buf = plainOf(buf[:0], r.Cells)
		pos, ok := t.lookup(r.ID)
		if ok {
			t.replace(pos, r, buf, reset)
		} else {
			pos = t.add(r, buf)
		}
		if placed != nil {
			placed(i, pos)
		}
		if !ok {
			t.insert(r.ID, pos)
		}
	}
	if reset {
		t.keepCached(keep)
		t.refilter()
	} else if t.match != nil && t.pending == nil {
		// (A search under way reaches the new rows' text: it lies after
		// every chunk searched.)
		for i := start; i < len(t.items); i++ {
			if t.holds(i, t.lfilter) {
				t.match = append(t.match, int32(i))
			}
		}
	}
	if t.text.compact(t) && t.pending != nil {
		// The rows' text moved: the search starts over, at once.
		t.refilter()
	}
	t.follow()
}

// cachedRows are the joined cells of the rows whose lines are cached, by
// ID (empty with a Source, which may draw a row otherwise for the same
// filter text).
func (t *Table) cachedRows() map[string]string {
	keep := make(map[string]string, len(t.lines)+1)
	if t.src != nil {
		return keep
	}
	for id := range t.lines {
		if i, ok := t.lookup(id); ok {
			keep[id] = t.orig[i]
		}
	}
	if i, ok := t.lookup(t.selFor); ok && t.selFor != "" {
		keep[t.selFor] = t.orig[i]
	}
	return keep
}

// keepCached forgets the cached lines of rows that are gone or changed.
func (t *Table) keepCached(keep map[string]string) {
	for id := range t.lines {
		if i, ok := t.lookup(id); !ok || t.src != nil || t.orig[i] != keep[id] {
			delete(t.lines, id)
		}
	}
	if i, ok := t.lookup(t.selFor); !ok || t.src != nil || t.orig[i] != keep[t.selFor] {
		t.sel, t.selFor = "", ""
	}
}

// add places a new row after the loaded ones.
func (t *Table) add(r Row, plain []byte) int {
	pos := len(t.items)
	n := uint32(min(len(plain), chunkSize-1))
	off := t.text.add(plain[:n], int32(pos), false)
	if r.Disabled && t.src == nil {
		n |= disabledBit
	}
	t.items = append(t.items, item{off: off, n: n})
	if t.src == nil {
		t.ids = append(t.ids, r.ID)
		t.orig = append(t.orig, joined(r.Cells))
	}
	return pos
}

// replace puts r in place of the loaded row at pos, which has its ID.
func (t *Table) replace(pos int, r Row, plain []byte, reset bool) {
	it := &t.items[pos]
	changed := t.src != nil
	if t.src == nil {
		j := joined(r.Cells)
		changed = t.orig[pos] != j || (it.n&disabledBit != 0) != r.Disabled
		t.orig[pos] = j
		it.n &^= disabledBit
		if r.Disabled {
			it.n |= disabledBit
		}
	}
	if changed && !reset {
		t.forget(r.ID)
	}
	plain = plain[:min(len(plain), chunkSize-1)]
	if t.textOf(pos) == string(plain) {
		return
	}
	off, n := t.text.rewrite(it.off, it.len(), plain, int32(pos))
	it.off, it.n = off, it.n&disabledBit|uint32(n)
	if t.match != nil && !reset {
		t.rematch(pos)
	}
}

// rematch puts the row at pos in or out of the matches after its text
// changed.
func (t *Table) rematch(pos int) {
	if t.unsearched(pos) {
		t.forgetMatch(pos)
		return
	}
	in := t.holds(pos, t.lfilter)
	v, listed := slices.BinarySearch(t.match, int32(pos))
	switch {
	case in && !listed:
		t.match = slices.Insert(t.match, v, int32(pos))
	case !in && listed:
		t.match = slices.Delete(t.match, v, v+1)
	}
}

// searchChunks is the arena's search of chunks from up to to, the rows'
// IDs matched too when the source's are.
func (t *Table) searchChunks(q string, from, to, parts int) []int32 {
	var also func(int32) bool
	if t.idSrc != nil {
		also = func(pos int32) bool { return t.idSrc.IDHolds(int(pos), q) }
	}
	return t.text.searchChunks(q, t.items, from, to, parts, also)
}

// holds reports whether the row at pos holds q (lower-cased): in its
// text, or in its ID when the source's IDs are matched.
func (t *Table) holds(pos int, q string) bool {
	return strings.Contains(t.textOf(pos), q) || t.idHolds(pos, q)
}

// idHolds reports whether the ID of the row at pos holds q, when the
// source's IDs are matched.
func (t *Table) idHolds(pos int, q string) bool {
	return t.idSrc != nil && t.idSrc.IDHolds(pos, q)
}

// textOf is the filter text of the row at pos.
func (t *Table) textOf(pos int) string {
	it := t.items[pos]
	return t.text.at(it.off, it.len())
}

// idAt is the ID of the row at loaded position i.
func (t *Table) idAt(i int) string {
	if t.src != nil {
		return t.src.ID(i)
	}
	return t.ids[i]
}

// lookup finds the position of the row with id.
func (t *Table) lookup(id string) (int, bool) {
	if len(t.slots) == 0 {
		return 0, false
	}
	mask := len(t.slots) - 1
	for h := int(maphash.String(t.seed, id)) & mask; ; h = (h + 1) & mask {
		p := t.slots[h]
		if p == 0 {
			return 0, false
		}
		if t.idAt(int(p-1)) == id {
			return int(p - 1), true
		}
	}
}

// insert indexes the row at pos under id, growing the index to keep at
// least half of it free.
func (t *Table) insert(id string, pos int) {
	if 2*(pos+1) > len(t.slots) {
		t.slots = make([]int32, max(64, 2*len(t.slots)))
		for i := range pos {
			t.place(t.idAt(i), i)
		}
	}
	t.place(id, pos)
}

func (t *Table) place(id string, pos int) {
	mask := len(t.slots) - 1
	h := int(maphash.String(t.seed, id)) & mask
	for t.slots[h] != 0 {
		h = (h + 1) & mask
	}
	t.slots[h] = int32(pos + 1)
}

// SetFilter shows only the rows whose text contains q, ignoring case. A
// query that extends the previous one narrows the previous matches when
// they are few, instead of searching every row again. A new query over a
// long list is searched a slice at a time (see SearchMsg): the command
// returned asks for the next slice, nil when the matches are complete.
func (t *Table) SetFilter(q string) tea.Cmd {
	if q == t.filter {
		return nil
	}
	lq := strings.ToLower(q)
	extends := t.match != nil && t.lfilter != "" && strings.Contains(lq, t.lfilter)
	narrow := extends && t.pending == nil && len(t.match) < len(t.items)/4
	follow := t.selID
	t.filter, t.lfilter = q, lq
	t.gen++
	switch cached, ok := t.recall(lq); {
	case lq == "":
		t.match, t.pending = nil, nil
	case ok:
		t.match, t.pending = cached, nil
	case extends && t.pending != nil:
		// The search under way goes on for the longer query, over the
		// matches found so far and the chunks left.
		t.match = t.narrowed(lq)
		t.pending.gen = t.gen
	case narrow:
		t.match = t.narrowed(lq)
	case len(t.text.chunks) > spreadChunks:
		t.startSearch(follow)
	default:
		t.refilter()
	}
	if t.pending == nil {
		t.remember(lq, t.match)
	}
	// A row hidden by the filter gives way to the first match, as in any
	// incremental search.
	if !t.followID() {
		t.moveTo(0)
	}
	return t.nextSlice()
}

// recall returns the matches of a recent query over the same rows (a
// backspace while typing), which are never changed once made.
func (t *Table) recall(lq string) ([]int32, bool) {
	for _, c := range t.recent {
		if c.q == lq {
			return c.match, true
		}
	}
	return nil, false
}

// remember keeps the matches of a query for recall, the latest few only.
func (t *Table) remember(lq string, match []int32) {
	if lq == "" {
		return
	}
	if _, ok := t.recall(lq); ok {
		return
	}
	t.recent = append([]recentFilter{{q: lq, match: match}}, t.recent[:min(len(t.recent), 3)]...)
}

// Matches reports whether row r is among those SetFilter(q) shows: what
// an export of the rows on screen keeps.
func Matches(r Row, q string) bool {
	lq := strings.ToLower(q)
	return lq == "" || strings.Contains(string(plainOf(nil, r.Cells)), lq)
}

// Filter returns the current filter query.
func (t *Table) Filter() string { return t.filter }

func (t *Table) refilter() {
	t.pending = nil
	if t.lfilter == "" {
		t.match = nil
		return
	}
	q := t.lfilter
	if len(t.text.chunks) > 1 && t.text.dense(q, t.items) {
		t.match = t.scanRows(q)
		return
	}
	parts := max(min(runtime.GOMAXPROCS(0), len(t.items)/parallelScan, len(t.text.chunks)), 1)
	t.match = t.searchChunks(q, 0, len(t.text.chunks), parts)
}

// scanRows returns the positions of the rows whose text holds q, row by
// row: faster than searching whole chunks when most rows hold it, since
// each row costs one search for q's rarest byte rather than a search and a
// count of the line breaks before each hit.
func (t *Table) scanRows(q string) []int32 {
	if strings.ContainsAny(q, "\n\x00") {
		return []int32{}
	}
	k := t.text.anchor(q)
	n := len(t.items)
	buf := make([]int32, n)
	scanPart := func(lo, hi int) int {
		m := lo
		for i := lo; i < hi; i++ {
			if contains(t.textOf(i), q, k) || t.idHolds(i, q) {
				buf[m] = int32(i)
				m++
			}
		}
		return m - lo
	}
	parts := min(runtime.GOMAXPROCS(0), n/parallelScan)
	if parts <= 1 {
		return buf[:scanPart(0, n)]
	}
	size := (n + parts - 1) / parts
	counts := make([]int, parts)
	var wg sync.WaitGroup
	for p := range parts {
		lo, hi := p*size, min((p+1)*size, n)
		wg.Go(func() { counts[p] = scanPart(lo, hi) })
	}
	wg.Wait()
	m := 0
	for p, c := range counts {
		m += copy(buf[m:], buf[p*size:p*size+c])
	}
	return buf[:m]
}

// contains reports whether q occurs in s, looking for q's byte at k (its
// rarest) with the vectorised byte search and comparing around each hit:
// far fewer false starts than searching from q's first byte when that
// byte is common (hex digits of IDs).
func contains(s, q string, k int) bool {
	n := len(q)
	if n == 0 {
		return true
	}
	c := q[k]
	last := len(s) - (n - 1 - k) // the anchor byte lies before last
	for i := k; i < last; {
		j := strings.IndexByte(s[i:last], c)
		if j < 0 {
			return false
		}
		i += j
		if s[i-k:i-k+n] == q {
			return true
		}
		i++
	}
	return false
}

// Index is the position of the row with id among the loaded rows, in the
// order they were set and appended (a replaced row keeps its place).
func (t *Table) Index(id string) (int, bool) { return t.lookup(id) }

// rowAt is the row at loaded position i.
func (t *Table) rowAt(i int) Row {
	if t.src != nil {
		r := t.src.Row(i)
		r.ID = t.src.ID(i)
		return r
	}
	return Row{ID: t.ids[i], Cells: strings.Split(t.orig[i], string(cellSep)), Disabled: t.items[i].n&disabledBit != 0}
}

// Len is the number of loaded rows.
func (t *Table) Len() int { return len(t.items) }

// Visible is the number of rows matching the filter.
func (t *Table) Visible() int {
	if t.match == nil {
		return len(t.items)
	}
	return len(t.match)
}

// at maps a visible position to a position in items.
func (t *Table) at(v int) int {
	if t.match == nil {
		return v
	}
	return int(t.match[v])
}

// visiblePos maps a position in items to its visible position.
func (t *Table) visiblePos(i int) (int, bool) {
	if t.match == nil {
		return i, true
	}
	v, ok := slices.BinarySearch(t.match, int32(i))
	return v, ok
}

// Selected returns the row under the cursor.
func (t *Table) Selected() (Row, bool) {
	if t.Visible() == 0 {
		return Row{}, false
	}
	return t.rowAt(t.at(t.cursor)), true
}

// SelectedIndex is the loaded position of the row under the cursor.
func (t *Table) SelectedIndex() (int, bool) {
	if t.Visible() == 0 {
		return 0, false
	}
	return t.at(t.cursor), true
}

// Select moves the cursor to the row with the given ID, if it is visible.
func (t *Table) Select(id string) bool {
	i, ok := t.lookup(id)
	if !ok {
		return false
	}
	v, ok := t.visiblePos(i)
	if !ok {
		return false
	}
	t.moveTo(v)
	return true
}

// VisibleRows returns the rows matching the filter, in order (a search
// under way is finished first).
func (t *Table) VisibleRows() []Row {
	t.finishSearch()
	out := make([]Row, 0, t.Visible())
	for v := range t.Visible() {
		out = append(out, t.rowAt(t.at(v)))
	}
	return out
}

// NearEnd reports whether the cursor is within n rows of the last visible
// row; screens use it to fetch the next page before the user reaches the end.
func (t *Table) NearEnd(n int) bool {
	return t.Visible() == 0 || t.cursor >= t.Visible()-1-n
}

// follow puts the cursor back on the row it follows after the rows or the
// filter changed. When that row is gone the cursor keeps its position.
func (t *Table) follow() {
	if !t.followID() {
		t.moveTo(t.cursor)
	}
}

// followID moves the cursor to the followed row if it is visible.
func (t *Table) followID() bool {
	if t.selID == "" {
		return false
	}
	i, ok := t.lookup(t.selID)
	if !ok {
		return false
	}
	v, ok := t.visiblePos(i)
	if ok {
		t.moveTo(v)
	}
	return ok
}

func (t *Table) moveTo(v int) {
	n := t.Visible()
	v = min(v, n-1)
	v = max(v, 0)
	t.cursor = v
	if n > 0 {
		t.selID = t.idAt(t.at(v))
	}
	t.clampOffset()
}

func (t *Table) bodyHeight() int { return max(t.height-1, 0) }

// clampOffset keeps the cursor inside the drawn window.
func (t *Table) clampOffset() {
	body := t.bodyHeight()
	if body == 0 {
		t.offset = t.cursor
		return
	}
	if t.cursor < t.offset {
		t.offset = t.cursor
	}
	if t.cursor >= t.offset+body {
		t.offset = t.cursor - body + 1
	}
	t.offset = max(min(t.offset, t.Visible()-body), 0)
}

// Update moves the cursor on navigation keys.
func (t *Table) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	page := max(t.bodyHeight(), 1)
	if t.pending != nil && slices.ContainsFunc(t.KeyMap(), func(b key.Binding) bool { return key.Matches(k, b) }) {
		// The cursor moved by hand stays where it is put.
		t.pending.follow = ""
	}
	switch {
	case key.Matches(k, t.keys.Up):
		t.moveTo(t.cursor - 1)
	case key.Matches(k, t.keys.Down):
		t.moveTo(t.cursor + 1)
	case key.Matches(k, t.keys.PageUp):
		t.moveTo(t.cursor - page)
	case key.Matches(k, t.keys.PageDown):
		t.moveTo(t.cursor + page)
	case key.Matches(k, t.keys.Home):
		t.moveTo(0)
	case key.Matches(k, t.keys.End):
		t.finishSearch()
		t.moveTo(t.Visible() - 1)
	}
	return nil
}

// KeyMap returns the navigation bindings.
func (t *Table) KeyMap() []key.Binding {
	k := t.keys
	return []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Home, k.End}
}

// View renders the header and the rows in the window, exactly the size last
// given to SetSize.
func (t *Table) View() string {
	if t.height == 0 {
		return ""
	}
	if len(t.lines) > 4*t.height+256 {
		clear(t.lines)
	}
	var b strings.Builder
	b.Grow((t.width + 16) * t.height)
	if t.head == "" {
		t.head = t.fitLine(t.styles.Header.Render(noMarker + t.cells(t.headerCells(), nil)))
	}
	b.WriteString(t.head)
	lines := 1
	n := t.Visible()
	if n == 0 {
		msg := t.empty
		switch {
		case t.pending != nil:
			msg = "searching for “" + t.filter + "”…"
		case len(t.items) > 0:
			msg = "no rows match “" + t.filter + "”"
		}
		if t.height > 1 {
			b.WriteByte('\n')
			b.WriteString(t.fit(t.styles.Disabled.Render(noMarker + msg)))
			lines++
		}
	}
	for v := t.offset; v < n && lines < t.height; v++ {
		b.WriteByte('\n')
		i := t.at(v)
		id := t.idAt(i)
		if v == t.cursor {
			if t.selFor != id || t.sel == "" {
				t.sel, t.selFor = t.fitLine(marker+t.styles.Selected.Render(t.cells(t.rowAt(i).Cells, nil))), id
			}
			b.WriteString(t.sel)
		} else {
			line, ok := t.lines[id]
			if !ok {
				r := t.rowAt(i)
				st := t.cellStyle
				if r.Disabled {
					st = t.disabledStyle
				}
				line = t.fitLine(noMarker + t.styledCells(r.Cells, st, r.Disabled))
				t.lines[id] = line
			}
			b.WriteString(line)
		}
		lines++
	}
	for ; lines < t.height; lines++ {
		b.WriteByte('\n')
		b.WriteString(t.blank)
	}
	return b.String()
}

func (t *Table) headerCells() []string {
	h := make([]string, len(t.cols))
	for i, c := range t.cols {
		h[i] = c.Title
	}
	return h
}

// cells lays the joined cells of a row out in the column widths,
// truncating with "…" and padding by display width; paint, when set,
// styles each cell (its column given) before it is padded.
func (t *Table) cells(cells []string, paint func(col int, cell string) string) string {
	var b strings.Builder
	b.Grow(t.width + 8)
	for i, w := range t.widths {
		if i > 0 {
			b.WriteString(separator)
		}
		if w <= 0 {
			continue
		}
		c, pad := t.cell(cells, i, w)
		if paint != nil {
			c = paint(i, c)
		}
		if t.cols[i].Right {
			b.WriteString(pad)
			b.WriteString(c)
		} else {
			b.WriteString(c)
			b.WriteString(pad)
		}
	}
	return b.String()
}

// cell is cell i of a row cut to w cells with "…", and the spaces that
// pad it to w.
func (t *Table) cell(cells []string, i, w int) (string, string) {
	var c string
	if i < len(cells) {
		c = cells[i]
	}
	if n, ok := printableWidth(c); ok {
		// Plain ASCII, the common case: no grapheme to measure.
		if n > w {
			c, n = c[:w-1]+"…", w
		}
		return c, t.spaces(w - n)
	}
	if strings.ContainsAny(c, "\x1f\n\r\t") {
		c = strings.NewReplacer("\x1f", " ", "\n", " ", "\r", " ", "\t", " ").Replace(c)
	}
	c = ansi.Truncate(c, w, "…")
	return c, t.spaces(w - ansi.StringWidth(c))
}

// printableWidth is the width of s when it is printable ASCII only.
func printableWidth(s string) (int, bool) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e {
			return 0, false
		}
	}
	return len(s), true
}

// spaces is n spaces, sliced from the blank line when it is long enough.
func (t *Table) spaces(n int) string {
	if n <= len(t.blank) {
		return t.blank[:n]
	}
	return strings.Repeat(" ", n)
}

// styledCells is cells in style st, each cell of a Status column in the
// style of its word (not on a disabled row, which reads as one). The cells
// between two status cells are styled as one run.
func (t *Table) styledCells(cells []string, st quickStyle, disabled bool) string {
	styled := false
	for _, c := range t.cols {
		styled = styled || c.Status
	}
	if !styled || disabled || t.styles.Status == nil {
		return st.Render(t.cells(cells, nil))
	}
	var b, run strings.Builder
	b.Grow(t.width + 64)
	run.Grow(t.width)
	flush := func() {
		if run.Len() > 0 {
			b.WriteString(st.Render(run.String()))
			run.Reset()
		}
	}
	for i, w := range t.widths {
		if i > 0 {
			run.WriteString(separator)
		}
		if w <= 0 {
			continue
		}
		c, pad := t.cell(cells, i, w)
		switch {
		case !t.cols[i].Status:
			if t.cols[i].Right {
				run.WriteString(pad)
				run.WriteString(c)
			} else {
				run.WriteString(c)
				run.WriteString(pad)
			}
		case t.cols[i].Right:
			run.WriteString(pad)
			flush()
			b.WriteString(t.statusCell(c))
		default:
			flush()
			b.WriteString(t.statusCell(c))
			run.WriteString(pad)
		}
	}
	flush()
	return b.String()
}

// statusCell is a status word in its style, rendered once per word.
func (t *Table) statusCell(word string) string {
	if s, ok := t.status[word]; ok {
		return s
	}
	if t.status == nil || len(t.status) > 64 {
		t.status = make(map[string]string)
	}
	s := t.styles.Status(word).Render(word)
	t.status[word] = s
	return s
}

// fitLine is fit for a line laid out by cells after the marker, whose
// width is known (lineWidth): nothing to measure.
func (t *Table) fitLine(s string) string {
	if t.lineWidth > t.width || !t.narrowStyles {
		return t.fit(s)
	}
	return s + t.blank[:t.width-t.lineWidth]
}

// quickStyle renders one line of text in a style: when the style only
// wraps the text in escape codes (no padding, width or per-word work),
// with the codes it was seen to put around a sample, measuring nothing;
// else with the style itself.
type quickStyle struct {
	st       lipgloss.Style
	pre, suf string
	plain    bool
}

func newQuickStyle(st lipgloss.Style) quickStyle {
	q := quickStyle{st: st}
	const sample = "x"
	r := st.Render(sample)
	i := strings.Index(r, sample)
	if i < 0 {
		return q
	}
	q.pre, q.suf = r[:i], r[i+len(sample):]
	for _, probe := range []string{"ab  cd ", " 1,000.00 BRL", "é…"} {
		if st.Render(probe) != q.pre+probe+q.suf {
			return q
		}
	}
	q.plain = true
	return q
}

// Render is the line s in the style.
func (q quickStyle) Render(s string) string {
	if !q.plain || strings.ContainsAny(s, "\n\x1b") {
		return q.st.Render(s)
	}
	return q.pre + s + q.suf
}

// fit truncates or pads a rendered line to exactly the table's width.
func (t *Table) fit(s string) string {
	w := ansi.StringWidth(s)
	switch {
	case w > t.width:
		return ansi.Truncate(s, t.width, "")
	case w < t.width:
		return s + t.blank[:t.width-w]
	}
	return s
}
