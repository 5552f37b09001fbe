package tickets

import (
	"math"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/charmbracelet/x/ansi"
	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/ui/widget"
	"github.com/tesouro-treasury/tesouro/views/internal/listing"
)

// record is what the browser keeps of a listed ticket: enough for its row
// and the live refresh (the CSV export reads the service's pages whole; the
// detail pane fetches the whole ticket), packed small, since a million of
// them must fit the memory budget: 72 bytes of fixed fields, codes indexes
// into a shared table of the few strings the service repeats, amounts
// scaled integers, times Unix nanoseconds and seconds, and the external ID
// a slice of one string per page. A page's records are made in one block.
// A record is never changed after it is made (a refresh replaces it), so
// commands may read records while Update goes on.
type record struct {
	ID        uuid.UUID
	ext       string
	created   int64 // Unix nanoseconds; 0 for none
	inCoef    int64 // the input amount is inCoef × 10^inExp
	outCoef   int64
	expires   int32 // seconds after created; 0 for none
	inExp     int8
	outExp    int8
	status    code
	inCur     code
	outCur    code
	outMethod code
}

// Codes of a record, as strings.
func (r *record) Status() api.TicketStatus { return api.TicketStatus(r.status.String()) }
func (r *record) InCur() string            { return r.inCur.String() }
func (r *record) OutCur() string           { return r.outCur.String() }
func (r *record) OutMethod() string        { return r.outMethod.String() }

// ExternalID is the ticket's external ID.
func (r *record) ExternalID() string { return r.ext }

// InAmount and OutAmount are the exact amounts.
func (r *record) InAmount() decimal.Decimal  { return fromScaled(r.inCoef, r.inExp) }
func (r *record) OutAmount() decimal.Decimal { return fromScaled(r.outCoef, r.outExp) }

// code stands for one of the few distinct short strings the service repeats
// on every ticket: statuses, currencies, methods.
type code uint16

var codes = struct {
	sync.RWMutex
	list []string
	of   map[string]code
}{list: []string{""}, of: map[string]code{"": 0}}

// codeOf returns the code of s, adding it to the table. The table grows
// with the distinct values seen, a handful in practice; past 65,535 of
// them (never from the service) a value is kept as the last one made.
func codeOf(s string) code {
	codes.RLock()
	c, ok := codes.of[s]
	codes.RUnlock()
	if ok {
		return c
	}
	codes.Lock()
	defer codes.Unlock()
	if c, ok := codes.of[s]; ok {
		return c
	}
	if len(codes.list) > math.MaxUint16 {
		return code(len(codes.list) - 1)
	}
	c = code(len(codes.list))
	codes.list = append(codes.list, s)
	codes.of[s] = c
	return c
}

func (c code) String() string {
	codes.RLock()
	defer codes.RUnlock()
	return codes.list[c]
}

// bigExp marks an amount whose coefficient does not fit an int64 or whose
// exponent does not fit an int8 (no amount the service sends): its coef
// is then an index into bigNums.
const bigExp = math.MinInt8

var bigNums struct {
	sync.RWMutex
	list []decimal.Decimal
}

// toScaled is d as a scaled integer: d = coef × 10^exp.
func toScaled(d decimal.Decimal) (coef int64, exp int8) {
	if c, e := d.Coefficient(), d.Exponent(); c.IsInt64() && e > bigExp && e <= math.MaxInt8 {
		return c.Int64(), int8(e)
	}
	bigNums.Lock()
	defer bigNums.Unlock()
	bigNums.list = append(bigNums.list, d)
	return int64(len(bigNums.list) - 1), bigExp
}

func fromScaled(coef int64, exp int8) decimal.Decimal {
	if exp == bigExp {
		bigNums.RLock()
		defer bigNums.RUnlock()
		return bigNums.list[coef]
	}
	return decimal.New(coef, int32(exp))
}

func unixNano(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

func fromUnixNano(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n)
}

// CreatedAt and ExpiresAt are the ticket's timestamps; the expiry is kept
// to the second.
func (r *record) CreatedAt() time.Time { return fromUnixNano(r.created) }
func (r *record) ExpiresAt() time.Time {
	if r.expires == 0 {
		return time.Time{}
	}
	return time.Unix(0, r.created).Add(time.Duration(r.expires) * time.Second)
}

// newRecord is the record of t, on its own (a refreshed ticket).
func newRecord(t *api.Ticket) *record {
	r := new(record)
	fill(r, t, t.ExternalID)
	return r
}

// fill makes r the record of t, with ext its external ID.
func fill(r *record, t *api.Ticket, ext string) {
	q := &t.Quote
	*r = record{
		ID:        t.ID,
		ext:       ext,
		status:    codeOf(string(t.Status)),
		created:   unixNano(t.CreatedAt.Time),
		inCur:     codeOf(q.InputCurrency),
		outCur:    codeOf(q.OutputCurrency),
		outMethod: codeOf(q.OutputPaymentMethod),
	}
	r.inCoef, r.inExp = toScaled(q.InputAmount)
	r.outCoef, r.outExp = toScaled(q.OutputAmount)
	if exp := t.ExpiresAt.Time; !exp.IsZero() && r.created != 0 {
		// Seconds after the creation, at least one (0 is none), within
		// what 32 bits hold; without a creation time the expiry is not
		// known (the ticket is polled, see moving).
		secs := exp.Sub(t.CreatedAt.Time).Round(time.Second) / time.Second
		r.expires = int32(min(max(secs, 1), math.MaxInt32))
	}
}

// pageRecords are the records of a page's tickets, made in the shared
// blocks.
func pageRecords(items []api.Ticket) []*record {
	out := make([]*record, len(items))
	slab.Lock()
	defer slab.Unlock()
	for i := range items {
		t := &items[i]
		r := slab.record()
		fill(r, t, slab.text(t.ExternalID))
		out[i] = r
	}
	return out
}

// slab hands out records and the bytes of their external IDs from blocks
// of 64 KiB: no allocation (and none of its rounding) per record. A block
// lives as long as one of its records does.
var slab recordSlab

type recordSlab struct {
	sync.Mutex
	recs  []record
	bytes []byte
}

const slabSize = 64 << 10

// record is a new record, zero.
func (s *recordSlab) record() *record {
	if len(s.recs) == cap(s.recs) {
		s.recs = make([]record, 0, slabSize/int(unsafe.Sizeof(record{})))
	}
	s.recs = s.recs[:len(s.recs)+1]
	return &s.recs[len(s.recs)-1]
}

// text is a copy of v; the bytes of a slab are never written twice.
func (s *recordSlab) text(v string) string {
	if len(v) == 0 || len(v) > slabSize/8 {
		return strings.Clone(v)
	}
	if len(s.bytes)+len(v) > cap(s.bytes) {
		s.bytes = make([]byte, 0, slabSize)
	}
	at := len(s.bytes)
	s.bytes = append(s.bytes, v...)
	return unsafe.String(&s.bytes[at], len(v))
}

// statusWidth fits the longest live status, PARTIAL-FAILED, whole: a
// status cut short reads as another.
const statusWidth = 14

// amountWidth fits an amount of up to a million with six decimals and a
// four-letter code ("1,000,000.000000 BRLA") whole: the least room an
// amount column takes, so that columns do not move as pages come.
const amountWidth = 21

// The list's fixed columns, and the table's marker and separator.
const (
	idWidth      = 9
	createdWidth = 16
	shortCreated = 11 // "01-02 15:04"
	whenWidth    = 5
	tableGutter  = 2
)

// layoutsFor are the list's layouts by width when the widest amounts
// listed are in and out cells: an amount column is as wide as its widest
// amount, never cut. With amounts of up to amountWidth, from 87 cells the
// ID, status, created, input and output show whole; from 77 (a terminal of
// 80) the ID and the rightmost columns make way for what is sent and what
// is received; below that the list keeps what an operator reads first
// (status, what is received, when), and below 56 the creation time
// shrinks (see tinyColumns). Longer amounts move each threshold up by what
// they need.
func layoutsFor(in, out int) listing.Layouts {
	in, out = max(in, amountWidth), max(out, amountWidth)
	return listing.Layouts{
		FullWidth:   tableGutter + idWidth + statusWidth + createdWidth + in + out + 4,
		MediumWidth: tableGutter + statusWidth + createdWidth + in + out + 3,
		NarrowWidth: max(56, tableGutter+statusWidth+out+shortCreated+2),
		Full:        columns(in, out),
		Medium: []widget.Column{
			{Title: "Status", Width: statusWidth, Status: true},
			{Title: "Created", Width: createdWidth},
			{Title: "Input", Width: in, Right: true},
			{Title: "Output", Width: out, Right: true},
		},
		Narrow: []widget.Column{{Title: "Status", Width: statusWidth, Status: true}, {Title: "Output", Right: true}, {Title: "Created", Width: shortCreated}},
	}
}

// tinyColumns are the columns below the narrow layout, w cells wide, when
// the widest status listed is status cells and the widest amount received
// out cells: the status, the amount and a five-cell time; without the time
// when the amount needs its room; and when even that is not enough, the
// status gives way (cut, with its "…") rather than the amount.
func tinyColumns(w, status, out int) []widget.Column {
	status = min(max(status, len("Status")), statusWidth)
	switch {
	case w >= tableGutter+status+out+whenWidth+2:
		return []widget.Column{{Title: "Status", Width: status, Status: true}, {Title: "Output", Right: true}, {Title: "When", Width: whenWidth}}
	case w >= tableGutter+status+out+1:
		return []widget.Column{{Title: "Status", Width: status, Status: true}, {Title: "Output", Right: true}}
	}
	return []widget.Column{{Title: "Status", Status: true}, {Title: "Output", Width: out, Right: true}}
}

// listColumns are the layout and the columns of the list w cells wide
// whose widest status and amounts are status, in and out cells.
func listColumns(w, status, in, out int) (listing.Layout, []widget.Column) {
	ls := layoutsFor(in, out)
	l := ls.For(w)
	if l == listing.LayoutTiny {
		return l, tinyColumns(w, status, out)
	}
	return l, ls.Columns(l)
}

// widths are the cells of the status and of the input and the output
// amounts of r.
func (r *record) widths() (status, in, out int) {
	return len(r.status.String()), ansi.StringWidth(amount(r.InAmount(), r.InCur())), ansi.StringWidth(amount(r.OutAmount(), r.OutCur()))
}

// rowFor lays a record out for a layout. The filter matches the full
// row's cells in every layout (see New): the ID and the external ID too.
func (r *record) rowFor(l listing.Layout, loc *time.Location, now time.Time) widget.Row {
	switch l {
	case listing.LayoutFull:
		return r.row(loc)
	case listing.LayoutMedium:
		return widget.Row{Cells: []string{
			r.status.String(),
			r.CreatedAt().In(loc).Format("2006-01-02 15:04"),
			amount(r.InAmount(), r.InCur()),
			amount(r.OutAmount(), r.OutCur()),
		}}
	}
	created := r.CreatedAt().In(loc)
	var when string
	switch {
	case created.IsZero() || r.created == 0:
	case l == listing.LayoutNarrow:
		when = created.Format("01-02 15:04")
	default:
		when = shortWhen(created, now.In(loc))
	}
	return widget.Row{Cells: []string{r.status.String(), amount(r.OutAmount(), r.OutCur()), when}}
}

// shortWhen is t in five cells: the time when it is today, else the month
// and day, else the year.
func shortWhen(t, now time.Time) string {
	switch {
	case t.Year() == now.Year() && t.YearDay() == now.YearDay():
		return t.Format("15:04")
	case t.Year() == now.Year():
		return t.Format("01-02")
	}
	return t.Format("2006")
}

// Columns of the full list, most telling first: on a terminal a little too
// narrow for all of them the rightmost ones are cut.
func columns(in, out int) []widget.Column {
	return []widget.Column{
		{Title: "ID", Width: idWidth},
		{Title: "Status", Width: statusWidth, Status: true},
		{Title: "Created", Width: createdWidth},
		{Title: "Input", Width: in, Right: true},
		{Title: "Output", Width: out, Right: true},
		{Title: "Out method", Width: 10},
		{Title: "External ID"},
	}
}

// row lays a record out in the list's columns. The cells carry full values
// (the filter matches the whole ID even where the column shows its start).
func (r *record) row(loc *time.Location) widget.Row {
	id := r.ID.String()
	return widget.Row{ID: id, Cells: []string{
		id,
		r.status.String(),
		r.CreatedAt().In(loc).Format("2006-01-02 15:04"),
		amount(r.InAmount(), r.InCur()),
		amount(r.OutAmount(), r.OutCur()),
		r.OutMethod(),
		r.ExternalID(),
	}}
}

// idHolds reports whether the ticket's ID, as it is written (lower-case
// hex in five groups), holds q, a lower-cased query: what the filter
// matches of the ID, written on the stack rather than kept as text. A
// query of anything but hex digits and dashes is in no ID.
func (r *record) idHolds(q string) bool {
	if len(q) > 36 || strings.Trim(q, "0123456789abcdef-") != "" {
		return false
	}
	const hexDigits = "0123456789abcdef"
	var b [36]byte
	n := 0
	for i, c := range r.ID {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			b[n] = '-'
			n++
		}
		b[n], b[n+1] = hexDigits[c>>4], hexDigits[c&0xf]
		n += 2
	}
	return strings.Contains(unsafe.String(&b[0], len(b)), q)
}

func amount(d decimal.Decimal, cur string) string {
	return money.Format(d, cur) + " " + cur
}
