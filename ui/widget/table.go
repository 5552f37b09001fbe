// Package widget holds the dashboard's shared widgets: the windowed table,
// countdowns, QR codes.
package widget

import (
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

// item is a loaded row, packed for lists of a hundred thousand rows: the
// cells are kept once, joined by a unit separator and lower-cased for the
// filter (plain), with a bitmap of the ASCII letters that were upper-case
// (upper) to give the row back as it came. Rows whose text has escape codes
// or non-ASCII bytes keep their original text (orig) instead of the bitmap.
type item struct {
	id       string
	plain    string
	upper    string
	orig     string
	disabled bool
}

const cellSep = "\x1f"

func newItem(r Row) item {
	var b strings.Builder
	for i, c := range r.Cells {
		if i > 0 {
			b.WriteString(cellSep)
		}
		if strings.ContainsAny(c, cellSep+"\n\r\t") {
			c = strings.NewReplacer(cellSep, " ", "\n", " ", "\r", " ", "\t", " ").Replace(c)
		}
		b.WriteString(c)
	}
	text := b.String()
	it := item{id: r.ID, disabled: r.Disabled}
	ascii := true
	for i := 0; i < len(text); i++ {
		if c := text[i]; c >= 0x80 || c == 0x1b {
			ascii = false
			break
		}
	}
	if !ascii {
		it.orig = text
		it.plain = strings.ToLower(ansi.Strip(text))
		return it
	}
	it.plain = strings.ToLower(text)
	if it.plain != text {
		mask := make([]byte, (len(text)+7)/8)
		for i := 0; i < len(text); i++ {
			if c := text[i]; c >= 'A' && c <= 'Z' {
				mask[i/8] |= 1 << (i % 8)
			}
		}
		it.upper = string(mask)
	}
	return it
}

// text gives the row's joined cells back as they came.
func (it *item) text() string {
	switch {
	case it.orig != "":
		return it.orig
	case it.upper == "":
		return it.plain
	}
	b := []byte(it.plain)
	for i := range b {
		if it.upper[i/8]&(1<<(i%8)) != 0 {
			b[i] -= 'a' - 'A'
		}
	}
	return string(b)
}

func (it *item) row() Row {
	return Row{ID: it.id, Cells: strings.Split(it.text(), cellSep), Disabled: it.disabled}
}

// same reports whether two items render the same.
func (it *item) same(o *item) bool {
	return it.plain == o.plain && it.upper == o.upper && it.orig == o.orig && it.disabled == o.disabled
}

// forgetAll drops every cached line.
func (t *Table) forgetAll() {
	clear(t.lines)
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
// and filters against cached plain text. It is a pointer type so that screens
// can hold it without copying its caches.
type Table struct {
	cols   []Column
	widths []int
	styles Styles
	width  int
	height int

	// lines caches the rendered unselected line of drawn rows by row ID; it
	// is emptied when the width, the columns or the styles change, and when
	// it grows well past a screenful. head and sel cache the header and the
	// selected row's line (selID's) the same way.
	lines  map[string]string
	head   string
	sel    string
	selFor string

	items []item
	index map[string]int // row ID -> position in items

	filter  string
	lfilter string
	match   []int32 // positions in items that match the filter, ascending; nil: no filter
	// freq counts the bytes of every plain text: the filter anchors its
	// search on the query's rarest byte.
	freq [256]int
	// recent are the matches of the last queries over the current rows;
	// any change of the rows forgets them.
	recent []recentFilter

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
		styles: DefaultStyles(),
		index:  make(map[string]int),
		lines:  make(map[string]string),
		empty:  "no rows",
		keys: tableKeys{
			Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
			Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
			PageUp:   key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up")),
			PageDown: key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "page down")),
			Home:     key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("g/home", "first")),
			End:      key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("G/end", "last")),
		},
	}
	t.SetColumns(cols...)
	return t
}

// SetStyles replaces the styles; every cached line is rendered again.
func (t *Table) SetStyles(s Styles) {
	t.styles = s
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
	if shared == 0 || avail <= 0 {
		return
	}
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

// SetRows replaces every row. Cached lines of rows whose ID and content did
// not change are kept; the cursor stays on the selected row's ID when it is
// still listed.
func (t *Table) SetRows(rows []Row) {
	t.recent = nil
	t.freq = [256]int{}
	items := make([]item, 0, len(rows))
	index := make(map[string]int, len(rows))
	for _, r := range rows {
		it := newItem(r)
		if i, ok := t.index[r.ID]; !ok || !t.items[i].same(&it) {
			t.forget(r.ID)
		}
		t.count(it.plain)
		if j, dup := index[r.ID]; dup {
			items[j] = it
			continue
		}
		index[r.ID] = len(items)
		items = append(items, it)
	}
	t.items, t.index = items, index
	t.refilter()
	t.follow()
}

// AppendRows adds rows after the loaded ones. A row whose ID is already
// loaded replaces it in place (a page that overlaps the previous one, or a
// refreshed row), so the list never shows an ID twice.
func (t *Table) AppendRows(rows []Row) {
	t.recent = nil
	replaced := false
	start := len(t.items)
	for _, r := range rows {
		it := newItem(r)
		t.count(it.plain)
		if i, ok := t.index[r.ID]; ok {
			if !t.items[i].same(&it) {
				t.items[i] = it
				t.forget(r.ID)
				replaced = true
			}
			continue
		}
		t.index[r.ID] = len(t.items)
		t.items = append(t.items, it)
	}
	switch {
	case t.match == nil:
	case replaced:
		t.refilter()
	default:
		for i := start; i < len(t.items); i++ {
			if contains(t.items[i].plain, t.lfilter, t.anchor(t.lfilter)) {
				t.match = append(t.match, int32(i))
			}
		}
	}
	t.follow()
}

// SetFilter shows only the rows whose text contains q, ignoring case. A
// query that extends the previous one narrows the previous matches instead of
// scanning every row again.
func (t *Table) SetFilter(q string) {
	if q == t.filter {
		return
	}
	lq := strings.ToLower(q)
	narrow := t.match != nil && t.lfilter != "" && strings.Contains(lq, t.lfilter)
	t.filter, t.lfilter = q, lq
	switch cached, ok := t.recall(lq); {
	case lq == "":
		t.match = nil
	case ok:
		t.match = cached
	case narrow:
		kept := make([]int32, 0, len(t.match)/2)
		k := t.anchor(lq)
		for _, i := range t.match {
			if contains(t.items[i].plain, lq, k) {
				kept = append(kept, i)
			}
		}
		t.match = kept
	default:
		t.refilter()
	}
	t.remember(lq, t.match)
	// A row hidden by the filter gives way to the first match, as in any
	// incremental search.
	if !t.followID() {
		t.moveTo(0)
	}
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
	return lq == "" || strings.Contains(newItem(r).plain, lq)
}

// Filter returns the current filter query.
func (t *Table) Filter() string { return t.filter }

func (t *Table) refilter() {
	if t.lfilter == "" {
		t.match = nil
		return
	}
	t.match = scan(t.items, t.lfilter, t.anchor(t.lfilter))
}

// count adds a plain text to the byte frequencies.
func (t *Table) count(plain string) {
	for i := 0; i < len(plain); i++ {
		t.freq[plain[i]]++
	}
}

// anchor is the position of q's rarest byte among the loaded rows.
func (t *Table) anchor(q string) int {
	k := 0
	for i := 1; i < len(q); i++ {
		if t.freq[q[i]] < t.freq[q[k]] {
			k = i
		}
	}
	return k
}

// contains reports whether q occurs in s, looking for q's byte at k (its
// rarest) with the vectorised byte search and comparing around each hit:
// far fewer false starts than searching from q's first byte when that byte
// is common (hex digits of ids).
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

// parallelScan is the number of rows from which a full filter scan is split
// across the processors: one keystroke over a hundred thousand rows must
// stay well under 10 ms.
const parallelScan = 16_384

// scan returns the positions of the items whose plain text contains q, in
// order. Every part of a parallel scan writes into its own range of one
// buffer, compacted at the end: one allocation whatever the matches.
func scan(items []item, q string, k int) []int32 {
	buf := make([]int32, len(items))
	scanPart := func(lo, hi int) int {
		n := lo
		for i := lo; i < hi; i++ {
			if contains(items[i].plain, q, k) {
				buf[n] = int32(i)
				n++
			}
		}
		return n - lo
	}
	parts := min(runtime.GOMAXPROCS(0), len(items)/parallelScan)
	if parts <= 1 {
		return buf[:scanPart(0, len(items))]
	}
	size := (len(items) + parts - 1) / parts
	counts := make([]int, parts)
	var wg sync.WaitGroup
	for p := range parts {
		lo, hi := p*size, min((p+1)*size, len(items))
		wg.Go(func() { counts[p] = scanPart(lo, hi) })
	}
	wg.Wait()
	n := 0
	for p, c := range counts {
		n += copy(buf[n:], buf[p*size:p*size+c])
	}
	return buf[:n]
}

// Index is the position of the row with id among the loaded rows, in the
// order they were set and appended (a replaced row keeps its place).
func (t *Table) Index(id string) (int, bool) {
	i, ok := t.index[id]
	return i, ok
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
	return t.items[t.at(t.cursor)].row(), true
}

// Select moves the cursor to the row with the given ID, if it is visible.
func (t *Table) Select(id string) bool {
	i, ok := t.index[id]
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

// VisibleRows returns the rows matching the filter, in order.
func (t *Table) VisibleRows() []Row {
	out := make([]Row, 0, t.Visible())
	for v := range t.Visible() {
		out = append(out, t.items[t.at(v)].row())
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
	i, ok := t.index[t.selID]
	if !ok || t.selID == "" {
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
		t.selID = t.items[t.at(v)].id
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
		t.head = t.fit(t.styles.Header.Render(noMarker + t.cells(strings.Join(t.headerCells(), cellSep), nil)))
	}
	b.WriteString(t.head)
	lines := 1
	n := t.Visible()
	if n == 0 {
		msg := t.empty
		if len(t.items) > 0 {
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
		it := &t.items[t.at(v)]
		if v == t.cursor {
			if t.selFor != it.id || t.sel == "" {
				t.sel, t.selFor = t.fit(marker+t.styles.Selected.Render(t.cells(it.text(), nil))), it.id
			}
			b.WriteString(t.sel)
		} else {
			line, ok := t.lines[it.id]
			if !ok {
				st := t.styles.Cell
				if it.disabled {
					st = t.styles.Disabled
				}
				line = t.fit(noMarker + t.styledCells(it.text(), st, it.disabled))
				t.lines[it.id] = line
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
func (t *Table) cells(text string, paint func(col int, cell string) string) string {
	var b strings.Builder
	rest := text
	for i, w := range t.widths {
		c, tail, _ := strings.Cut(rest, cellSep)
		rest = tail
		if i > 0 {
			b.WriteString(separator)
		}
		if w <= 0 {
			continue
		}
		c = ansi.Truncate(c, w, "…")
		pad := strings.Repeat(" ", w-ansi.StringWidth(c))
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

// styledCells is cells in style st, each cell of a Status column in the
// style of its word (not on a disabled row, which reads as one).
func (t *Table) styledCells(text string, st lipgloss.Style, disabled bool) string {
	styled := false
	for _, c := range t.cols {
		styled = styled || c.Status
	}
	if !styled || disabled || t.styles.Status == nil {
		return st.Render(t.cells(text, nil))
	}
	return t.cells(text, func(col int, cell string) string {
		if t.cols[col].Status {
			return t.styles.Status(cell).Render(cell)
		}
		return st.Render(cell)
	})
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
