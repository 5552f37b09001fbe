package sandbox_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/sandbox"
)

// Account metadata: which fiat rails an account may use (service.md §8.7).

func TestMetadataSaysWhichRailsAreUnlocked(t *testing.T) {
	e := newEnv(t, sandbox.Config{Seed: 15})
	op := e.as("operator")
	all := api.AccountMetadata{BrlUnlocked: true, UsdUnlocked: true, EurUnlocked: true, ArsUnlocked: true, CopUnlocked: true}
	if m := must[*api.AccountMetadata](t)(op.Metadata(ctx(t), uuid.Nil)); *m != all {
		t.Errorf("main account metadata %+v, want every rail unlocked", *m)
	}
	// The demo's Acme Brokerage may not use the USD rail.
	brokerage := e.subs[1]
	locked := all
	locked.UsdUnlocked = false
	if m := must[*api.AccountMetadata](t)(op.Metadata(ctx(t), brokerage)); *m != locked {
		t.Fatalf("Acme Brokerage metadata %+v, want USD locked", *m)
	}
	if status, body := e.rawAs(t, "viewer").send(t, http.MethodGet, "/v2/account/metadata?subAccountId="+brokerage.String(), "", time.Time{}, nil); status != http.StatusOK ||
		string(body) != `{"brlUnlocked":true,"usdUnlocked":false,"eurUnlocked":true,"arsUnlocked":true,"copUnlocked":true}` {
		t.Errorf("metadata on the wire: %d %s", status, body)
	}

	// A quote on the locked rail is refused, naming it; the other rails of
	// that account and the USD rail of the others still quote.
	usd := api.QuoteRequest{SubAccountID: brokerage, InputCurrency: "USDC", InputPaymentMethod: "INTERNAL", OutputCurrency: "USD", OutputPaymentMethod: "ACH", InputAmount: dec("100")}
	_, err := op.Quote(ctx(t), usd)
	if ae := wantCode(t, err, http.StatusForbidden, "RAIL_LOCKED"); !strings.Contains(ae.Message, "USD") || !strings.Contains(ae.Message, "usdUnlocked") {
		t.Errorf("message %q does not name the rail", ae.Message)
	}
	usd.OutputPaymentMethod = "WIRE"
	wantCode(t, errOf(op.Quote(ctx(t), usd)), http.StatusForbidden, "RAIL_LOCKED")
	must[*api.Quote](t)(op.Quote(ctx(t), api.QuoteRequest{SubAccountID: brokerage, InputCurrency: "BRLA", InputPaymentMethod: "INTERNAL", OutputCurrency: "BRL", OutputPaymentMethod: "PIX", InputAmount: dec("100")}))
	usd.SubAccountID = e.subs[0]
	must[*api.Quote](t)(op.Quote(ctx(t), usd))
}
