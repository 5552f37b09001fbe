package engine

import (
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"
)

// A locked rail refuses a quote or a ticket whichever side it is on, and
// leaves tokens and the other rails alone (§8.7).
func TestLockedRailRefusesEitherSide(t *testing.T) {
	acct := newAccount(uuid.New(), "Filial", "COMPANY", false, uuid.New(), time.Now())
	if err := railRefusal(acct, "USDC", "INTERNAL", "USD", "ACH"); err != nil {
		t.Fatalf("an account with every rail unlocked: %v", err)
	}
	acct.metadata.UsdUnlocked = false
	acct.metadata.BrlUnlocked = false
	for _, c := range [][4]string{{"USDC", "INTERNAL", "USD", "WIRE"}, {"BRL", "PIX", "USDC", "INTERNAL"}, {"BRLA", "INTERNAL", "BRL", "PIX"}} {
		var r *Refusal
		if err := railRefusal(acct, c[0], c[1], c[2], c[3]); !errors.As(err, &r) || r.Kind != Forbidden || r.Code != CodeRailLocked {
			t.Errorf("%v: %v, want a Forbidden RAIL_LOCKED", c, err)
		}
	}
	for _, c := range [][4]string{{"USDC", "INTERNAL", "EUR", "SEPA"}, {"BRLA", "INTERNAL", "USDT", "POLYGON"}} {
		if err := railRefusal(acct, c[0], c[1], c[2], c[3]); err != nil {
			t.Errorf("%v: %v", c, err)
		}
	}
}
