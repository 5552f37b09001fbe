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
