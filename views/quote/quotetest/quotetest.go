// Package quotetest drives the Quote screen from tests outside its package
// the way an operator does, by keys: the form, the details, the
// confirmation, y. A test gives it a session and a service (the sandbox's
// client, or a fake) and a Payment to make, and reads back what the screen
// sent with Recorder.
//
//	rec := &quotetest.Recorder{Service: client}
//	d := quotetest.New(t, session, rec)
//	if err := d.Pay(quotetest.Payment{InCurrency: "BRLA", InMethod: "INTERNAL",
//		OutCurrency: "USD", OutMethod: "WIRE", Amount: "100", Payee: "Acme", Reference: "INV-7"}); err != nil {
//		t.Fatal(err)
//	}
//	req := rec.Created[0] // the creation request, as payment.Send built it
package quotetest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/payment"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/screentest"
	"github.com/tesouro-treasury/tesouro/views/quote"
)

// Payment is what the operator types, field by field. Empty fields are
// left as the screen has them.
type Payment struct {
	// The sides, as the form's currency and method fields take them.
	InCurrency, InMethod, OutCurrency, OutMethod string
	// Amount is typed as an operator types it; empty with a BR Code that
	// carries its amount. Receive fixes what they receive instead of what
	// is sent.
	Amount  string
	Receive bool
	// SendMethod is PERMIT or TRANSFER, for a chain input.
	SendMethod string
	// BrCode is a PIX BR Code to pay, pasted into the form.
	BrCode string
	// Payee is typed into the beneficiary picker's filter, and the first
	// option it leaves is chosen: a beneficiary's alias or name, "Own
	// service wallet", "Another PIX key", "Another address".
	Payee string
	// PixKey, Address and Memo are typed under "Another PIX key" and
	// "Another address", Bank under "Another bank account".
	PixKey, Address, Memo string
	Bank                  payment.BankAccount
	// Wallet is the sending wallet of a chain input.
	Wallet string
	// Reference is typed into the rail's reference field (PIX message,
	// ACH reference, wire message, SEPA reference).
	Reference string
	// ExternalID replaces the external id the screen made (ctrl+e).
	ExternalID string
}

// Driver is the Quote screen driven like the root drives it, on a fake
// clock that moves only when the test advances it (quotes do not expire
// under it unless it does).
type Driver struct {
	*screentest.Driver
	Screen *quote.Screen
}

// New drives the Quote screen of session s asking svc, in a 120×40 area.
func New(t testing.TB, s *ui.Session, svc quote.Service) *Driver {
	t.Helper()
	var sc *quote.Screen
	d := screentest.Drive(t, s, func(s *ui.Session) ui.Screen {
		sc = quote.New(s, svc).(*quote.Screen)
		return sc
	}, 120, 40)
	return &Driver{Driver: d, Screen: sc}
}

// Pay makes p from the empty form to the ticket: it fills the form, gets
// the quote, continues, fills the details, reviews and presses y. The
// error says where the screen stopped, with what it shows.
func (d *Driver) Pay(p Payment) error {
	if err := d.Quote(p); err != nil {
		return err
	}
	if err := d.Details(p); err != nil {
		return err
	}
	return d.Confirm()
}

// Quote fills the form with p's sides, amount and BR Code and gets the
// quote, leaving the screen on the form with the quote beside it.
func (d *Driver) Quote(p Payment) error {
	d.Key("e")
	for _, f := range []struct{ key, v string }{
		{"inputCurrency", p.InCurrency}, {"inputPaymentMethod", p.InMethod},
		{"outputCurrency", p.OutCurrency}, {"outputPaymentMethod", p.OutMethod},
	} {
		if f.v != "" && d.Screen.Value(f.key) != f.v {
			if err := d.typeInto(f.key, f.v); err != nil {
				return err
			}
		}
	}
	if p.Receive {
		if err := d.choose("mode", "they receive"); err != nil {
			return err
		}
	}
	if p.SendMethod != "" {
		if err := d.choose("blockchainSendMethod", p.SendMethod); err != nil {
			return err
		}
	}
	if p.BrCode != "" {
		if err := d.focus("outputBrCode"); err != nil {
			return err
		}
		d.Key("ctrl+u")
		d.Send(tea.PasteMsg{Content: p.BrCode})
	}
	if p.Amount != "" {
		if err := d.typeInto("amount", p.Amount); err != nil {
			return err
		}
	}
	d.Key("enter")
	if d.Screen.Stage() != "form" || !strings.Contains(d.PlainView(), "ready to become a ticket") {
		return d.stopped("the quote")
	}
	return nil
}

// Details continues from the quote to the details, fills them with p's
// payee, inline destination, sending wallet, reference and external id,
// picks the first markup wallet when the quote carries a markup, and
// reviews: the screen is left on the confirmation.
func (d *Driver) Details(p Payment) error {
	d.Key("c")
	if d.Screen.Stage() != "details" {
		return d.stopped("the details")
	}
	if p.ExternalID != "" {
		d.Key("ctrl+e")
		if err := d.typeInto("externalId", p.ExternalID); err != nil {
			return err
		}
	}
	if p.Wallet != "" {
		if err := d.typeInto("ticketBlockchainInput.walletAddress", p.Wallet); err != nil {
			return err
		}
	}
	if p.Payee != "" {
		if err := d.focus("beneficiary"); err != nil {
			return err
		}
		d.Type(p.Payee)
		d.Key("enter")
	}
	b := p.Bank
	for _, f := range []struct{ key, v string }{{"pixKey", p.PixKey}, {"walletAddress", p.Address}, {"walletMemo", p.Memo},
		{"taxId", b.TaxID}, {"userName", b.UserName}, {"bankCode", b.BankCode}, {"branchCode", b.BranchCode}, {"accountNumber", b.AccountNumber},
		{"reference", p.Reference}} {
		if f.v != "" {
			if err := d.typeInto(f.key, f.v); err != nil {
				return err
			}
		}
	}
	if b.AccountType != "" {
		if err := d.choose("accountType", b.AccountType); err != nil {
			return err
		}
	}
	if d.Screen.Stage() == "details" && slices.Contains(d.Screen.Fields(), "markupWalletAddress") && d.Screen.Value("markupWalletAddress") == "" {
		if err := d.focus("markupWalletAddress"); err != nil {
			return err
		}
		d.Key("enter")
	}
	if d.Screen.Stage() == "details" {
		d.Key("ctrl+s")
	}
	if d.Screen.Stage() != "confirm" {
		return d.stopped("the confirmation")
	}
	return nil
}

// Confirm presses y on the confirmation: the screen is left on the ticket
// (or the operation parked for approval).
func (d *Driver) Confirm() error {
	d.Key("y")
	if d.Screen.Stage() != "result" {
		return d.stopped("the ticket")
	}
	return nil
}

// focus moves the focus to the field key with tab and shift+tab (which
// every field, a picker too, leaves to the form).
func (d *Driver) focus(key string) error {
	for range 60 {
		fields := d.Screen.Fields()
		at, cur := slices.Index(fields, key), slices.Index(fields, d.Screen.Focused())
		switch {
		case at < 0:
			return d.stopped("the field " + key)
		case at == cur:
			return nil
		case at < cur:
			d.Key("shift+tab")
		default:
			d.Key("tab")
		}
	}
	return d.stopped("the field " + key)
}

// typeInto replaces the text of field key with v, as typed.
func (d *Driver) typeInto(key, v string) error {
	if err := d.focus(key); err != nil {
		return err
	}
	d.Key("ctrl+u")
	d.Type(v)
	if got := d.Screen.Value(key); !strings.EqualFold(got, v) && !strings.EqualFold(strings.ReplaceAll(got, " ", ""), strings.ReplaceAll(v, " ", "")) {
		return fmt.Errorf("%s reads %q after typing %q:\n%s", key, got, v, d.PlainView())
	}
	return nil
}

// choose cycles the choice field key with → until it reads v.
func (d *Driver) choose(key, v string) error {
	if err := d.focus(key); err != nil {
		return err
	}
	for range 10 {
		if d.Screen.Value(key) == v {
			return nil
		}
		d.Key("right")
	}
	return fmt.Errorf("%s never reads %q:\n%s", key, v, d.PlainView())
}

func (d *Driver) stopped(at string) error {
	return fmt.Errorf("the screen did not reach %s (stage %s):\n%s", at, d.Screen.Stage(), d.PlainView())
}

// Recorder is a Service that keeps every creation request the screen
// sends, in order, before passing it on.
type Recorder struct {
	quote.Service
	mu      sync.Mutex
	Created []api.CreateTicketRequest
}

// CreateTicket records req and creates it with the Service.
func (r *Recorder) CreateTicket(ctx context.Context, subAccountID uuid.UUID, req api.CreateTicketRequest) (*api.CreateTicketResult, error) {
	r.mu.Lock()
	r.Created = append(r.Created, req)
	r.mu.Unlock()
	return r.Service.CreateTicket(ctx, subAccountID, req)
}
