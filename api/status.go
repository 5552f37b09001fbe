package api

import "strings"

// Meaning is what a status says of the money, the same for tickets,
// operations, trades and batch rows: every screen colours a status by its
// meaning and always shows the service's own word beside the colour.
type Meaning int

// Meanings of a status.
const (
	// MeaningOther is a status the project does not know: shown as it
	// came, in no colour, and never taken as final.
	MeaningOther Meaning = iota
	// MeaningDone: the money arrived (PAID, EXECUTED, SETTLED).
	MeaningDone
	// MeaningFailed: it will not arrive (FAILED, CANCELED, REJECTED, ...).
	MeaningFailed
	// MeaningWaiting: someone must act first (a payment, approvers, a
	// review).
	MeaningWaiting
	// MeaningMoving: the service is at work; nobody needs to act.
	MeaningMoving
)

// Meaning of a ticket's state.
func (s TicketStatus) Meaning() Meaning {
	switch s {
	case TicketPaid:
		return MeaningDone
	case TicketFailed, TicketPartialFailed, TicketCanceled:
		return MeaningFailed
	case TicketUnpaid, TicketOnHold:
		return MeaningWaiting
	case TicketPending, TicketProcessing:
		return MeaningMoving
	}
	return MeaningOther
}

// Meaning of an operation's state: a pending operation waits for its
// approvers.
func (s OperationStatus) Meaning() Meaning {
	switch s {
	case OperationExecuted:
		return MeaningDone
	case OperationRejected, OperationExpired, OperationFailed:
		return MeaningFailed
	case OperationPending:
		return MeaningWaiting
	}
	return MeaningOther
}

// Meaning of a trade's state: a pending trade settles by itself.
func (s TradeStatus) Meaning() Meaning {
	switch s {
	case TradeSettled:
		return MeaningDone
	case TradeCancelled:
		return MeaningFailed
	case TradePending:
		return MeaningMoving
	}
	return MeaningOther
}

// StatusMeaning is the meaning of a status word whose kind is not known
// (a batch row, an event): read as a ticket's first, then an operation's,
// then a trade's.
func StatusMeaning(word string) Meaning {
	w := strings.ToUpper(strings.TrimSpace(word))
	if m := TicketStatus(w).Meaning(); m != MeaningOther {
		return m
	}
	if m := OperationStatus(w).Meaning(); m != MeaningOther {
		return m
	}
	return TradeStatus(w).Meaning()
}

// Rejection says who rejected an operation and why, in the service's
// words: "REJECTED by approver1@…: the reason"; "" unless it is rejected.
func (o *Operation) Rejection() string {
	if o == nil || o.Status != OperationRejected {
		return ""
	}
	s := string(OperationRejected)
	if o.RejectedBy != "" {
		s += " by " + o.RejectedBy
	}
	if o.Reason != "" {
		s += ": " + o.Reason
	}
	return s
}
