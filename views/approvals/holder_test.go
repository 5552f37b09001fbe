package approvals

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/tesouro-treasury/tesouro/api"
)

var maria = api.PixInfo{Name: "Maria Silva", TaxID: "***.982.247-**", BankName: "Banco Azul"}

// pixPayout makes op a PIX payout from the BRLA balance with the given
// output block and attached beneficiary record ("" for none).
func pixPayout(op *api.Operation, block, record string) {
	op.Payload = json.RawMessage(`{"quoteToken":"t","ticketBrlPixOutput":` + block + `}`)
	op.Beneficiary = nil
	if record != "" {
		op.Beneficiary = json.RawMessage(record)
	}
	withQuote(op, "INTERNAL", "PIX", "BRL")
}

// TestApprovalNamesWhoThePixPayoutReaches: before approving a PIX payout
// the approver reads the holder of the key from the PIX directory, as the
// requester did on the quote's confirmation (name, masked tax id, bank);
// an unknown key or a failed look-up is said plainly, and the approver can
// still decide.
func TestApprovalNamesWhoThePixPayoutReaches(t *testing.T) {
	const ben = "0b7d0f55-5b1e-4f8e-8a43-7fd8b1b0c0bb"
	cases := []struct {
		name, block, record string
		asked               []string // keys asked of the directory
		want                []string
	}{
		{"typed key", `{"pixKey":"maria@example.com"}`, "", []string{"maria@example.com"},
			[]string{"Holder:      Maria Silva · ***.982.247-** · Banco Azul"}},
		{"registered key", `{"beneficiaryBrlBankAccountId":"` + ben + `"}`,
			`{"kind":"BRL","id":"` + ben + `","alias":"supplier","pixKey":"maria@example.com","userName":"Maria S"}`,
			[]string{"maria@example.com"}, []string{"Holder:      Maria Silva · ***.982.247-** · Banco Azul"}},
		{"registered bank account", `{"beneficiaryBrlBankAccountId":"` + ben + `"}`,
			`{"kind":"BRL","id":"` + ben + `","alias":"supplier","userName":"João Souza","taxId":"123.456.789-01","bankCode":"341","branchCode":"1","accountNumber":"9"}`,
			nil, []string{"Holder:      João Souza · ***.456.789-** · bank 341 (beneficiary record)"}},
		{"unknown key", `{"pixKey":"nobody@example.com"}`, "", []string{"nobody@example.com"},
			[]string{"✗ NO HOLDER: the PIX directory does not know this key\n",
				"Holder:      ✗ no holder for this key: pix key nobody@example.com not found"}},
		{"record gone", `{"beneficiaryBrlBankAccountId":"` + ben + `"}`, "", nil,
			[]string{"Holder:      ! not confirmed: the service attached no record of beneficiary " + ben}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h, svc, theirs := deciding(t, "approver1@example.com", func(op *api.Operation) { pixPayout(op, c.block, c.record) })
			svc.Holders = map[string]api.PixInfo{"maria@example.com": maria}
			h.Key("a")
			if len(h.Asks) != 1 {
				t.Fatalf("want one confirmation, got %d (toasts %+v)", len(h.Asks), h.Toasts)
			}
			body := ansi.Strip(h.Asks[0].Body)
			for _, want := range c.want {
				if !strings.Contains(body, want) {
					t.Errorf("the confirmation lacks %q:\n%s", want, body)
				}
			}
			// Who receives it comes before the rest, so that a small
			// terminal does not cut it; an unknown key is the first line.
			if strings.HasPrefix(body, "✗ NO HOLDER") != (c.name == "unknown key") || strings.Count(body, "NO HOLDER") > 1 {
				t.Errorf("the unknown key is not said first, or said of a known one:\n%s", body)
			}
			if d, p := strings.Index(body, "Holder:"), strings.Index(body, "Price then:"); d < 0 || p < d {
				t.Errorf("the holder is not above the pair:\n%s", body)
			}
			if !slices.Equal(svc.PixAsked, c.asked) {
				t.Errorf("the directory was asked %q, want %q", svc.PixAsked, c.asked)
			}
			h.Run(h.Asks[0].OnYes)
			if len(svc.Approved) != 1 || svc.Approved[0] != theirs.ID {
				t.Fatalf("the approver could not decide: approved %v", svc.Approved)
			}
		})
	}
}

// TestNoHolderLineForOtherOutputs: a payout to a wallet asks the PIX
// directory nothing and says nothing of a holder.
func TestNoHolderLineForOtherOutputs(t *testing.T) {
	h, svc, _ := deciding(t, "approver1@example.com", nil)
	h.Key("a")
	if len(h.Asks) != 1 || strings.Contains(h.Asks[0].Body, "Holder") || len(svc.PixAsked) != 0 {
		t.Fatalf("asked %q; confirmation:\n%s", svc.PixAsked, h.Asks[0].Body)
	}
}

// TestBatchApprovalNamesEachPixHolder: the batch confirmation names the
// holder under each PIX payout, the unknown key as plainly as on its own.
func TestBatchApprovalNamesEachPixHolder(t *testing.T) {
	svc, theirs, _, _ := inbox()
	pixPayout(theirs, `{"pixKey":"maria@example.com"}`, "")
	other := newOp("requester@example.com", "20", time.Minute)
	pixPayout(other, `{"pixKey":"nobody@example.com"}`, "")
	svc.AddOp(other)
	svc.Holders = map[string]api.PixInfo{"maria@example.com": maria}
	h := newHarness(t, svc, "approver1@example.com", approver)
	for _, op := range []*api.Operation{theirs, other} {
		h.selectOp(op.ID)
		h.Key("space")
	}
	h.Key("a")
	if len(h.Asks) != 1 {
		t.Fatalf("want one confirmation, got %d (toasts %+v)", len(h.Asks), h.Toasts)
	}
	body := ansi.Strip(h.Asks[0].Body)
	for _, want := range []string{"Holder: Maria Silva · ***.982.247-** · Banco Azul",
		"Holder: ✗ no holder for this key: pix key nobody@example.com not found"} {
		if !strings.Contains(body, want) {
			t.Errorf("the batch confirmation lacks %q:\n%s", want, body)
		}
	}
}
