package approvals

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/tesouro-treasury/tesouro/api"
)

// rowOf is the line of the inbox that shows want, "" when none does.
func rowOf(view, want string) string {
	for _, l := range strings.Split(view, "\n") {
		if strings.Contains(l, want) {
			return l
		}
	}
	return ""
}

// The inbox sizes its columns to their texts: the amount is whole, the
// destination shows at every width from 56 (whole where there is room), the
// account is the first to go, then the requester, the approvals and the age.
func TestInboxColumnsShowTheDestination(t *testing.T) {
	svc, theirs, _, _ := inbox()
	theirs.Payload = json.RawMessage(`{"quoteToken":"t","ticketBrlPixOutput":{"pixKey":"fornecedor@example.com"}}`)
	theirs.DecodedQuote = quoteJSON("1000", "181.234500", "BRL", "USDC")
	theirs.Beneficiary = nil
	theirs.SubAccountName = "Acme Treasury Ltda"
	const (
		amount = "1,000.00 BRL → 181.234500 USDC"
		pix    = "PIX key fornecedor@example.com"
	)
	h := newHarness(t, svc, "approver1@example.com", approver)
	for _, c := range []struct {
		width     int
		want, not []string
	}{
		{120, []string{"requester", amount, pix, "0/2", "5m", "Acme Treasury Ltda", "PENDING"}, nil},
		// Short of room the account shrinks before the destination.
		{100, []string{"requester", amount, pix, "0/2", "5m", "Acme Tr", "PENDING"}, []string{"Acme Treasury Ltda"}},
		{80, []string{"requester", amount, "PIX key forneced", "0/2", "5m", "PENDING"}, []string{"Acme"}},
		{56, []string{amount, "PIX key fo", "PENDING"}, []string{"Acme"}},
	} {
		h.Screen.SetSize(c.width, 20)
		v := h.PlainView()
		row := rowOf(v, "1,000.00 BRL")
		for _, w := range c.want {
			if !strings.Contains(row, w) {
				t.Errorf("%d columns: %q is not whole in %q\n%s", c.width, w, row, v)
			}
		}
		for _, w := range c.not {
			if strings.Contains(row, w) {
				t.Errorf("%d columns: %q takes the destination's room in %q", c.width, w, row)
			}
		}
		// The other destination, shorter, is whole.
		if !strings.Contains(v, "cold wallet") {
			t.Errorf("%d columns: the wallet destination is cut:\n%s", c.width, v)
		}
	}
	// At 40 the amount and the status stay, whole for an amount of up to
	// 29 cells.
	h.Screen.SetSize(40, 12)
	v := h.PlainView()
	if row := rowOf(v, "250.50 BRL"); !strings.Contains(row, "250.50 BRL → 181.234500 USDC") || !strings.Contains(row, "PENDING") {
		t.Errorf("40 columns: the amount or the status is cut in %q\n%s", row, v)
	}
}

// An amount is never cut, however long, at any width: the account, the
// requester, the approvals, the age and the destination give way first;
// where a row's two amounts do not fit the room left beside the status, it
// shows the amount sent alone (the detail shows the other), and the status
// goes only when even that does not fit. Selected for a batch or not.
func TestLongAmountsAreNeverCut(t *testing.T) {
	svc, theirs, _, _ := inbox()
	theirs.DecodedQuote = quoteJSON("1234567.89", "1232000.12", "BRL", "BRL")
	big := newOp("requester@example.com", "1", time.Minute)
	big.DecodedQuote = quoteJSON("1234567.890000", "226543.123456", "BRLA", "USDC")
	svc.AddOp(big)
	rows := []struct{ sends, both string }{
		{"1,234,567.89 BRL", "1,234,567.89 BRL → 1,232,000.12 BRL"},
		{"1,234,567.890000 BRLA", "1,234,567.890000 BRLA → 226,543.123456 USDC"},
	}
	h := newHarness(t, svc, "approver1@example.com", approver)
	check := func(label string, mark int) {
		for _, w := range []int{120, 100, 80, 60, 56, 55, 50, 46, 40, 34, 30} {
			h.Screen.SetSize(w, 20)
			v := h.PlainView()
			for _, r := range rows {
				row := rowOf(v, r.sends)
				switch n := len([]rune(r.both)); {
				case row == "":
					t.Errorf("%s, %d columns: %q is cut:\n%s", label, w, r.sends, v)
				case strings.Contains(row, "→") && !strings.Contains(row, r.both):
					t.Errorf("%s, %d columns: the amount received is cut in %q", label, w, row)
				case w >= 2+mark+n+1+8 && !strings.Contains(row, r.both):
					t.Errorf("%s, %d columns: both amounts had room in %q", label, w, row)
				case w >= 2+mark+21+1+8 && !strings.Contains(row, "PENDING"):
					t.Errorf("%s, %d columns: the status went with room for it in %q", label, w, row)
				}
			}
		}
	}
	check("unselected", 0)
	for _, op := range []*api.Operation{theirs, big} {
		h.selectOp(op.ID)
		h.Key("space")
	}
	check("selected", 2)
}
