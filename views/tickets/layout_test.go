package tickets

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
)

// At each target width the list shows its cells whole: the longest status,
// the creation time in the layout's format and the amounts up to a million
// with six decimals.
func TestListCellsWholeAtEachWidth(t *testing.T) {
	tk := makeTicket(0, api.TicketPartialFailed)
	tk.Quote.InputCurrency, tk.Quote.InputAmount = "BRLA", decimal.RequireFromString("1000000.000000")
	tk.Quote.OutputCurrency, tk.Quote.OutputAmount = "USDC", decimal.RequireFromString("999123.456789")
	svc := &fakeService{tickets: []api.Ticket{tk}}
	created := tk.CreatedAt.In(testNow.Location())
	in, out := "1,000,000.000000 BRLA", "999,123.456789 USDC"
	for _, c := range []struct {
		width int
		want  []string
	}{
		{120, []string{tk.ID.String()[:8], "PARTIAL-FAILED", created.Format("2006-01-02 15:04"), in, out, "POLYGON"}},
		{87, []string{tk.ID.String()[:8], "PARTIAL-FAILED", created.Format("2006-01-02 15:04"), in, out}},
		{80, []string{"PARTIAL-FAILED", created.Format("2006-01-02 15:04"), in, out}},
		{77, []string{"PARTIAL-FAILED", created.Format("2006-01-02 15:04"), in, out}},
		{56, []string{"PARTIAL-FAILED", created.Format("01-02 15:04"), out}},
	} {
		m := start(t, svc, c.width, 12)
		v := screen(m)
		row := ""
		for _, l := range strings.Split(v, "\n") {
			if strings.Contains(l, "PARTIAL") {
				row = l
			}
		}
		for _, w := range c.want {
			if !strings.Contains(row, w) {
				t.Errorf("at %d columns %q is not whole in the row %q", c.width, w, row)
			}
		}
		if c.width < 87 && strings.Contains(row, tk.ID.String()[:8]) {
			t.Errorf("at %d columns the ID takes the room of an amount: %q", c.width, row)
		}
	}
	// At 40 the status, the time and a received amount of up to 17 cells
	// show whole (the 38 cells left by the marker hold no more beside the
	// status and the time).
	tk.Quote.OutputAmount = decimal.RequireFromString("9123.456789")
	m := start(t, &fakeService{tickets: []api.Ticket{tk}}, 40, 12)
	mustContain(t, screen(m), "PARTIAL-FAILED", "9,123.456789 USDC", created.Format("15:04"))
}

// An amount is never cut, however long: at every width the columns around
// it give way first (the ID, then the input and the creation time, then
// the time at all, and last the status's room), and an amount column wider
// than its usual room widens the layouts' thresholds with it.
func TestLongAmountsAreNeverCut(t *testing.T) {
	var tks []api.Ticket
	for i, a := range []struct{ in, inCur, out, outCur string }{
		{"6172839.45", "BRL", "1234567.89", "BRL"},
		{"1234567.890000", "BRLA", "1234567.890000", "BRLA"},
		{"12345678.123456", "USDC", "67890123.45", "BRL"},
	} {
		tk := makeTicket(i, api.TicketPartialFailed)
		tk.Quote.InputCurrency, tk.Quote.InputAmount = a.inCur, decimal.RequireFromString(a.in)
		tk.Quote.OutputCurrency, tk.Quote.OutputAmount = a.outCur, decimal.RequireFromString(a.out)
		tks = append(tks, tk)
	}
	ins := []string{"6,172,839.45 BRL", "1,234,567.890000 BRLA", "12,345,678.123456 USDC"}
	outs := []string{"1,234,567.89 BRL", "1,234,567.890000 BRLA", "67,890,123.45 BRL"}
	for _, w := range []int{120, 90, 88, 80, 78, 60, 56, 50, 40} {
		m := start(t, &fakeService{tickets: tks}, w, 12)
		v := screen(m)
		for i, out := range outs {
			row := rowWith(v, out)
			if row == "" {
				t.Errorf("%d columns: %q is cut:\n%s", w, out, v)
				continue
			}
			if !strings.Contains(row, "PARTIAL-FAILED") {
				t.Errorf("%d columns: the status is cut beside %q: %q", w, out, row)
			}
			// Where the input shows, it is whole too.
			if strings.Contains(v, "Input") && !strings.Contains(row, ins[i]) {
				t.Errorf("%d columns: the input %q is cut: %q", w, ins[i], row)
			}
		}
		if t.Failed() {
			return
		}
	}
	// Past what 40 columns hold beside the status, the amount stays whole
	// and the status gives way.
	tk := makeTicket(0, api.TicketPartialFailed)
	tk.Quote.OutputCurrency, tk.Quote.OutputAmount = "BRLA", decimal.RequireFromString("123456789012.000000")
	m := start(t, &fakeService{tickets: []api.Ticket{tk}}, 40, 12)
	mustContain(t, screen(m), "123,456,789,012.000000 BRLA", "PARTIAL")
	// The status column is as wide as the statuses listed: with no
	// PARTIAL-FAILED, an amount of 18 cells leaves room for the time.
	tk = makeTicket(0, api.TicketCanceled)
	tk.Quote.OutputCurrency, tk.Quote.OutputAmount = "BRLA", decimal.RequireFromString("20454.05")
	m = start(t, &fakeService{tickets: []api.Ticket{tk}}, 40, 12)
	mustContain(t, screen(m), "CANCELED", "20,454.050000 BRLA", tk.CreatedAt.In(testNow.Location()).Format("15:04"))
}

// rowWith is the line of view that shows want, "" when none does.
func rowWith(view, want string) string {
	for _, l := range strings.Split(view, "\n") {
		if strings.Contains(l, want) {
			return l
		}
	}
	return ""
}
