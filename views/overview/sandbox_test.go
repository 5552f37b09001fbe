package overview

import (
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/sandbox"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/screentest"
	"github.com/tesouro-treasury/tesouro/views/internal/livetest"
)

// Against the sandbox, through the client: the Overview of the main
// account and of a sub-account each show that account's own bank account
// for a TED, in the holder's name the service answers.
func TestOverviewShowsTheSandboxAccountsBankDetails(t *testing.T) {
	sb, err := sandbox.New(sandbox.Config{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	creds := livetest.Serve(t, sb)
	c := livetest.Client(t, creds, "operator", 10*time.Second)
	sub := creds.SubAccounts[0]
	for _, acc := range []ui.Account{{}, {ID: uuid.MustParse(sub.ID), Name: sub.Name}} {
		want, err := c.OwnBRLAccount(t.Context(), acc.ID)
		if err != nil {
			t.Fatal(err)
		}
		s := &ui.Session{Env: ui.EnvSandbox, Account: acc, Time: screentest.NewClock(time.Now()),
			Access: &api.AccessInfo{Email: "operator@demo.test", AccountPermissions: api.Permissions{PayIn: true}}}
		d := screentest.Drive(t, s, func(s *ui.Session) ui.Screen { return New(s, c) }, 120, 40)
		v := d.PlainView()
		for _, part := range []string{"Receive by TED", want.BankCode + " " + want.BankName, "branch " + want.BranchCode, "account " + want.AccountNumber, want.HolderName, taxIDText(want.TaxID)} {
			if !strings.Contains(v, part) {
				t.Errorf("%s: the Overview lacks %q:\n%s", acc.ID, part, v)
			}
		}
	}
}
