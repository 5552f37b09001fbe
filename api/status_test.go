package api

import "testing"

// Every known status has a meaning, and a status word that is not known
// has none (it is shown as it came, never taken as final).
func TestEveryStatusHasItsMeaning(t *testing.T) {
	for _, s := range TicketStatuses {
		if s.Meaning() == MeaningOther {
			t.Errorf("ticket status %s has no meaning", s)
		}
	}
	for s, want := range map[string]Meaning{
		"PAID": MeaningDone, "EXECUTED": MeaningDone, "SETTLED": MeaningDone,
		"FAILED": MeaningFailed, "PARTIAL-FAILED": MeaningFailed, "CANCELED": MeaningFailed,
		"CANCELLED": MeaningFailed, "REJECTED": MeaningFailed, "EXPIRED": MeaningFailed,
		"UNPAID": MeaningWaiting, "ON-HOLD": MeaningWaiting,
		"PROCESSING": MeaningMoving, "pending": MeaningMoving, "REFUNDED": MeaningOther,
	} {
		if got := StatusMeaning(s); got != want {
			t.Errorf("%s means %d, want %d", s, got, want)
		}
	}
	if OperationPending.Meaning() != MeaningWaiting {
		t.Error("a pending operation waits for its approvers")
	}
}
