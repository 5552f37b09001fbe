package sandbox_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/sandbox"
)

// Length limits are stated in characters and counted in characters, as the
// dashboard's forms count them: 60 × "é" (120 bytes) is a good 100-character
// alias or name, 101 × "é" is refused naming the field and the limit.
func TestLengthLimitsCountCharacters(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 7})
	op := e.as("operator")
	const addr = "0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359"
	sixty, over := strings.Repeat("é", 60), strings.Repeat("é", 101)

	wid := must[uuid.UUID](t)(op.CreateWallet(ctx(t), uuid.Nil, api.CreateWalletRequest{Alias: sixty, Description: strings.Repeat("é", 255), WalletAddress: addr, WalletChain: "BASE"}))
	if w := must[*api.Wallet](t)(op.GetWallet(ctx(t), uuid.Nil, wid)); w.Alias != sixty {
		t.Errorf("alias stored as %q", w.Alias)
	}
	sub := must[uuid.UUID](t)(op.CreateSubAccount(ctx(t), api.CreateSubAccountRequest{AccountType: "INDIVIDUAL", Name: sixty}))
	if sub == uuid.Nil {
		t.Fatal("no sub-account id")
	}

	for _, c := range []struct {
		field string
		err   error
	}{
		{"alias", errOf(op.CreateWallet(ctx(t), uuid.Nil, api.CreateWalletRequest{Alias: over, WalletAddress: addr, WalletChain: "POLYGON"}))},
		{"description", errOf(op.CreateWallet(ctx(t), uuid.Nil, api.CreateWalletRequest{Alias: "d", Description: strings.Repeat("é", 256), WalletAddress: addr, WalletChain: "POLYGON"}))},
		{"name", errOf(op.CreateSubAccount(ctx(t), api.CreateSubAccountRequest{AccountType: "INDIVIDUAL", Name: over}))},
	} {
		ae := wantCode(t, c.err, http.StatusBadRequest, "INVALID_FIELD")
		if !strings.HasPrefix(ae.Message, c.field+":") || !strings.Contains(ae.Message, "characters") {
			t.Errorf("%s over its limit: message %q does not name the field and the limit", c.field, ae.Message)
		}
	}
}
