package tabbed

import (
	"context"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/screentest"
	"github.com/tesouro-treasury/tesouro/ui/widget"
)

// wallets is a screen of one list, the least a Frame needs to be one.
type wallets struct{ *Frame }

func (wallets) ID() string                                { return "wallets" }
func (wallets) Title() string                             { return "Wallets" }
func (w wallets) KeyMap() []key.Binding                   { return w.Bindings() }
func (w wallets) View() string                            { return w.Render(w.Status("")) }
func (w wallets) Update(msg tea.Msg) (ui.Screen, tea.Cmd) { return w, w.Handle(msg) }

// store lists the wallets named in names, for any account.
type store struct{ names []string }

func (st *store) newWallets(s *ui.Session) ui.Screen {
	return wallets{New(s, ui.ActBeneficiary, "wallets", &List{Title: "Wallets", What: "wallets",
		Cols: []widget.Column{{Title: "Alias"}, {Title: "Chain"}},
		Load: Paged(func(_ context.Context, acct uuid.UUID, _ string) (api.Page[string], error) {
			return api.Page[string]{Items: append([]string(nil), st.names...)}, nil
		}, func(n string) Entry { return Entry{ID: n, Name: n, Cells: []string{n, "BASE"}} }),
	})}
}

func session() *ui.Session {
	return &ui.Session{Time: screentest.NewClock(screentest.Epoch), Account: ui.Account{ID: uuid.New(), Name: "Main"},
		Access: &api.AccessInfo{AccountPermissions: api.Permissions{Beneficiary: true}}}
}

func TestTabbedDropsAnOlderLoad(t *testing.T) {
	st := &store{names: []string{"old"}}
	s := session()
	sc := st.newWallets(s).(wallets)
	d := screentest.New(t, s, sc)
	late := sc.Init()() // answered before the data changed, delivered last
	st.names = []string{"fresh"}
	d.Run(sc.Load(0))
	d.Send(late)
	if e, _ := sc.lists[0].Selected(); e.ID != "fresh" || sc.lists[0].list.Len() != 1 {
		t.Fatalf("the older answer replaced the newer one: %+v\n%s", e, d.PlainView())
	}
}

// TestTabbedDropsAnotherAccountsLoad: the root rebuilds the screen for
// another account; a late answer of the old screen must not fill the new
// one, which still takes its own.
func TestTabbedDropsAnotherAccountsLoad(t *testing.T) {
	a := session()
	fromA := (&store{names: []string{"a-wallet"}}).newWallets(a).Init()

	b := a.WithAccount(ui.Account{ID: uuid.New(), Name: "Other"})
	sc := (&store{names: []string{"b-wallet"}}).newWallets(b).(wallets)
	d := screentest.New(t, b, sc)
	sc.SetSize(80, 20)
	fromB := sc.Init()
	before := d.PlainView()
	d.Send(fromA())
	if got := d.PlainView(); got != before || sc.lists[0].list.Len() != 0 {
		t.Fatalf("B's screen took A's answer:\n%s", got)
	}
	d.Run(fromB)
	if v := d.PlainView(); !strings.Contains(v, "b-wallet") || strings.Contains(v, "a-wallet") {
		t.Fatalf("B's own answer:\n%s", v)
	}
}
