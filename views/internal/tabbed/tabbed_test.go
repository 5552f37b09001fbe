package tabbed

import (
	"context"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/widget"
	"github.com/tesouro-treasury/tesouro/views/internal/fakeservice"
)

// wallets is a screen of one list, the least a Frame needs to be one.
type wallets struct{ *Frame }

func (wallets) ID() string                                { return "wallets" }
func (wallets) Title() string                             { return "Wallets" }
func (w wallets) KeyMap() []key.Binding                   { return w.Bindings() }
func (w wallets) View() string                            { return w.Render(w.Status("")) }
func (w wallets) Update(msg tea.Msg) (ui.Screen, tea.Cmd) { return w, w.Handle(msg) }

func newWallets(s *ui.Session) ui.Screen {
	return wallets{New(s, ui.ActBeneficiary, "wallets", &List{Title: "Wallets", What: "wallets",
		Cols: []widget.Column{{Title: "Alias"}, {Title: "Chain"}, {Title: "Address"}, {Title: "Created"}},
		Load: Paged(func(ctx context.Context, svc api.Service, acct uuid.UUID, c string) (api.Page[api.Wallet], error) {
			return svc.ListWallets(ctx, api.WalletFilter{SubAccountID: acct, Cursor: c})
		}, func(w api.Wallet) Entry {
			return Entry{ID: w.ID.String(), Name: w.Alias, Cells: []string{w.Alias, w.WalletChain, w.WalletAddress, ""}}
		}),
	})}
}

func newHarness(t *testing.T) *fakeservice.Harness {
	s := fakeservice.Session(t, &fakeservice.Service{}, "operator@example.com", api.Permissions{Beneficiary: true})
	return fakeservice.Drive(t, s, newWallets, 100, 30)
}

func TestStaleListIsDropped(t *testing.T) {
	h := newHarness(t)
	m := h.Screen.(wallets)
	m.Load(0)
	older := m.lists[0].gen
	m.Load(0)
	newer := m.lists[0].gen
	fresh := []Entry{{ID: "b", Name: "fresh", Cells: []string{"fresh", "BASE", "0x1", ""}}}
	old := []Entry{{ID: "a", Name: "old", Cells: []string{"old", "BASE", "0x2", ""}}}
	h.Send(loadedMsg{list: 0, gen: newer, entries: fresh})
	h.Send(loadedMsg{list: 0, gen: older, entries: old})
	if row, _ := m.lists[0].table.Selected(); row.ID != "b" || m.lists[0].table.Len() != 1 {
		t.Fatalf("the older answer replaced the newer one: %+v", row)
	}

	// The root rebuilds the screen for another account: a late answer of
	// the old screen must not fill the new one, though both loaded once.
	other := newHarness(t)
	other.Send(loadedMsg{list: 0, gen: newer, entries: old})
	if other.Screen.(wallets).lists[0].table.Len() != 0 {
		t.Fatal("an answer for another screen instance was taken")
	}
}
