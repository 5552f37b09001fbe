package ui

import (
	"testing"

	"github.com/google/uuid"
)

func TestChangedReachesEveryScreenOfTheAccount(t *testing.T) {
	h := newHarness(t, nil)
	h.key("2", "3", "1") // every screen shown once, so built
	h.run(ChangedIn(uuid.Nil, ChangedTickets|ChangedBalances, "quote"))
	want := ChangedMsg{Account: uuid.Nil, What: ChangedTickets | ChangedBalances, By: "quote"}
	for _, id := range []string{"overview", "quote", "tickets"} {
		sc := h.screen(id)
		if !sc.sawMsg(want) {
			t.Fatalf("screen %s did not get %+v", id, want)
		}
		if !want.For(sc.s, ChangedTickets) || !want.For(sc.s, ChangedBalances) {
			t.Fatalf("the change is not for the main account's screen %s", id)
		}
		if want.For(sc.s, ChangedBeneficiaries) || want.For(sc.s, ChangedOperations) {
			t.Fatal("the change claims kinds that did not change")
		}
		other := sc.s.WithAccount(Account{ID: acmeID, Name: "Acme Pagamentos"})
		if want.For(other, ChangedTickets) {
			t.Fatal("a change of the main account is taken by a sub-account's screen")
		}
	}
}
