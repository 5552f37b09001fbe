package ui

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/tesouro-treasury/tesouro/api"
)

// --sub-account NAME when the accounts cannot be listed: the body says
// why, and the header no longer claims to be resolving.
func TestSubAccountFlagWhenTheAccountsCannotBeListed(t *testing.T) {
	h := &harness{t: t, fake: newFake()}
	h.fake.accountsErr = &api.Error{Status: 503, Message: "try later", Method: "GET", Path: "/v2/account/accounts"}
	h.newRoot(Options{Env: EnvSandbox, SubAccount: "Beta Individual", Connect: func(ctx context.Context) (*Connection, error) {
		return &Connection{Client: h.fake, Screens: overviewOnly()}, nil
	}})
	h.send(tea.WindowSizeMsg{Width: 120, Height: 30})
	h.run(h.root.Init())
	v := plain(h.view())
	if !strings.Contains(v, `could not list the accounts to find sub-account "Beta Individual"`) {
		t.Fatalf("the failure is not told:\n%s", v)
	}
	if head := strings.SplitN(v, "\n", 2)[0]; !strings.Contains(head, "Beta Individual (accounts not listed)") || strings.Contains(head, "resolving") {
		t.Errorf("header: %q", head)
	}
	if len(h.root.Screens()) != 0 {
		t.Error("screens were built for an account that was never found")
	}
}
