package approvals

import (
	"encoding/json"
	"strings"
	"testing"
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
