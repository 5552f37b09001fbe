package trades

import (
	"strings"
	"testing"

	"github.com/tesouro-treasury/tesouro/ui"
)

func TestNarrowListKeepsStatusAmountAndSettlement(t *testing.T) {
	svc := &fakeService{trades: makeTrades(4)}
	m, _ := start(t, svc, 40, 12)
	v := view(m)
	tr := svc.trades[0]
	for _, want := range []string{"Status", "Output", "SETTLED", "27,000.00 BRL", "08-21"} {
		if !strings.Contains(v, want) {
			t.Fatalf("40 columns lack %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, tr.ID.String()[:8]) || strings.Contains(v, "…") {
		t.Fatalf("40 columns show the ID or cut a cell:\n%s", v)
	}
	m.Update(ui.FilterMsg{Query: tr.ID.String()[:13]})
	if m.list.Visible() != 1 {
		t.Fatalf("the filter by ID matches %d rows at 40 columns", m.list.Visible())
	}
	m.Update(ui.FilterMsg{})
	m.SetSize(60, 12)
	if v := view(m); !strings.Contains(v, "2026-08-21") || !strings.Contains(v, "27,000.00 BRL") {
		t.Fatalf("60 columns lack the whole settlement date or the amount:\n%s", v)
	}
	m.SetSize(120, 12)
	if v := view(m); !strings.Contains(v, tr.ID.String()[:8]) || !strings.Contains(v, "5,000.000000 USDC") {
		t.Fatalf("120 columns lack the ID or the input:\n%s", v)
	}
}
