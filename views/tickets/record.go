package tickets

import (
	"sync"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/export"
	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/ui/widget"
	"github.com/tesouro-treasury/tesouro/views/internal/listing"
)

// record is what the browser keeps of a listed ticket: enough for its row
// and the live refresh (the CSV export reads the service's pages whole),
// packed small (a hundred thousand of them must fit the memory budget): codes are indexes into a shared table,
// amounts exact decimals in 16 bytes, times Unix nanoseconds. The detail
// pane fetches the whole ticket, so party records and BR Codes are never
// held for every row. A record is never changed after it is made (a refresh
// replaces it), so commands may read records while Update goes on.
type record struct {
	ID            uuid.UUID
	ExternalID    string
	EndToEndID    string
	FailureReason string
	created       int64 // Unix nanoseconds; 0 for none
	updated       int64
	expires       int64
	InAmount      num
	OutAmount     num
	BasePrice     num
	MarkupAmount  num
	RebateAmount  num
	status        code
	inCur         code
	inMethod      code
	outCur        code
	outMethod     code
	markupCur     code
	rebateCur     code
}

// Codes of a record, as strings.
func (r *record) Status() api.TicketStatus { return api.TicketStatus(r.status.String()) }
func (r *record) InCur() string            { return r.inCur.String() }
func (r *record) InMethod() string         { return r.inMethod.String() }
func (r *record) OutCur() string           { return r.outCur.String() }
func (r *record) OutMethod() string        { return r.outMethod.String() }
func (r *record) MarkupCur() string        { return r.markupCur.String() }
func (r *record) RebateCur() string        { return r.rebateCur.String() }

// code stands for one of the few distinct short strings the service repeats
// on every ticket: statuses, currencies, methods, fee types.
type code uint32

var codes = struct {
	sync.RWMutex
	list []string
	of   map[string]code
}{list: []string{""}, of: map[string]code{"": 0}}

// codeOf returns the code of s, adding it to the table. The table grows
// with the distinct values seen, a handful in practice.
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

// num is an exact decimal in 16 bytes when its coefficient fits an int64
// (every amount the service sends does); larger ones live in a side table.
type num struct {
	coef int64
	exp  int32
	big  int32 // index+1 into bigNums, 0 when coef holds the value
}

var bigNums struct {
	sync.RWMutex
	list []decimal.Decimal
}

func toNum(d decimal.Decimal) num {
	if c := d.Coefficient(); c.IsInt64() {
		return num{coef: c.Int64(), exp: d.Exponent()}
	}
	bigNums.Lock()
	defer bigNums.Unlock()
	bigNums.list = append(bigNums.list, d)
	return num{big: int32(len(bigNums.list))}
}

// Decimal returns the exact value.
func (n num) Decimal() decimal.Decimal {
	if n.big != 0 {
		bigNums.RLock()
		defer bigNums.RUnlock()
		return bigNums.list[n.big-1]
	}
	return decimal.New(n.coef, n.exp)
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

// CreatedAt, UpdatedAt and ExpiresAt are the ticket's timestamps.
func (r *record) CreatedAt() time.Time { return fromUnixNano(r.created) }
func (r *record) UpdatedAt() time.Time { return fromUnixNano(r.updated) }
func (r *record) ExpiresAt() time.Time { return fromUnixNano(r.expires) }

func newRecord(t *api.Ticket) *record {
	q := &t.Quote
	r := &record{
		ID:            t.ID,
		ExternalID:    t.ExternalID,
		status:        codeOf(string(t.Status)),
		created:       unixNano(t.CreatedAt.Time),
		updated:       unixNano(t.UpdatedAt.Time),
		expires:       unixNano(t.ExpiresAt.Time),
		inCur:         codeOf(q.InputCurrency),
		inMethod:      codeOf(q.InputPaymentMethod),
		InAmount:      toNum(q.InputAmount),
		outCur:        codeOf(q.OutputCurrency),
		outMethod:     codeOf(q.OutputPaymentMethod),
		OutAmount:     toNum(q.OutputAmount),
		BasePrice:     toNum(q.BasePrice),
		MarkupAmount:  toNum(q.MarkupAmount),
		markupCur:     codeOf(q.MarkupCurrency),
		EndToEndID:    export.EndToEndID(t),
		FailureReason: t.FailureReason,
	}
	if t.Rebate != nil {
		r.RebateAmount, r.rebateCur = toNum(t.Rebate.Amount), codeOf(t.Rebate.Currency)
	}
	return r
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
	return len(r.status.String()), ansi.StringWidth(amount(r.InAmount.Decimal(), r.InCur())), ansi.StringWidth(amount(r.OutAmount.Decimal(), r.OutCur()))
}

// rowFor lays a record out for a layout. Rows of the smaller layouts carry
// the full cells after the shown ones, so that the / filter still matches
// the ID and the external ID.
func (r *record) rowFor(l listing.Layout, loc *time.Location, now time.Time) widget.Row {
	full := r.row(loc)
	var cells []string
	switch l {
	case listing.LayoutFull:
		return full
	case listing.LayoutMedium:
		cells = []string{full.Cells[1], full.Cells[2], full.Cells[3], full.Cells[4]}
	default:
		created := r.CreatedAt().In(loc)
		var when string
		switch {
		case created.IsZero() || r.created == 0:
		case l == listing.LayoutNarrow:
			when = created.Format("01-02 15:04")
		default:
			when = shortWhen(created, now.In(loc))
		}
		cells = []string{r.status.String(), amount(r.OutAmount.Decimal(), r.OutCur()), when}
	}
	return widget.Row{ID: full.ID, Cells: append(cells, full.Cells...)}
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
		amount(r.InAmount.Decimal(), r.InCur()),
		amount(r.OutAmount.Decimal(), r.OutCur()),
		r.OutMethod(),
		r.ExternalID,
	}}
}

func amount(d decimal.Decimal, cur string) string {
	return money.Format(d, cur) + " " + cur
}
