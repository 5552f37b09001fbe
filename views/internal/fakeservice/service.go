// Package fakeservice is the service as the views' unit tests see it: an
// in-memory service that keeps what the screens create and records what
// they sent, and a Harness that drives a screen the way the root does. It
// has exactly the methods of the screens' own Service interfaces, so a
// screen calling a method it lacks does not compile.
package fakeservice

import (
	"context"
	"sync"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
)

// Service keeps beneficiaries, compliance records and multi-signature
// operations in memory. Tests fill the lists, run the screen, then read
// what was sent.
type Service struct {
	mu sync.Mutex
	// Accounts is the operated account of every beneficiary call.
	Accounts []uuid.UUID

	Wallets     []api.Wallet
	BRL         []api.BRLAccount
	WalletsSent []api.CreateWalletRequest
	BRLSent     []api.CreateBRLAccountRequest
	Deleted     []uuid.UUID
	// CreateErr, when set, is every create's answer.
	CreateErr error
	// EUR, ARS and Holders are in live.go.
	Live

	UBOs    []api.UBO
	W8BENs  []api.W8BEN
	POA     []api.ProofOfAddressAttempt
	UBOSent []api.CreateUBORequest
	W8Sent  []api.W8BENRequest
	W8JSON  []string // the bodies of W8Sent, as the wire would carry them

	// Me is the caller's e-mail: the approval rules refuse its own requests.
	Me       string
	Ops      []*api.Operation
	Approved []uuid.UUID
	Rejected map[uuid.UUID]string // operation: reason
	Gets     int                  // operation details fetched
	Lists    int                  // inbox pages listed
	// Fresh is the answer to every quote asked (an error when nil);
	// Quotes are the quotes asked, in order.
	Fresh  *api.Quote
	Quotes []api.QuoteRequest
	// Tickets are the tickets executed operations created, by id.
	Tickets map[uuid.UUID]*api.Ticket
}

// GetTicket is the fake service's answer: a ticket of Tickets.
func (f *Service) GetTicket(_ context.Context, _, id uuid.UUID) (*api.Ticket, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if t := f.Tickets[id]; t != nil {
		c := *t
		return &c, nil
	}
	return nil, &api.Error{Status: 404, Code: "NOT_FOUND", Message: "no such ticket"}
}

// Quote is the fake service's answer: Fresh, whatever is asked.
func (f *Service) Quote(_ context.Context, req api.QuoteRequest) (*api.Quote, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.Quotes = append(f.Quotes, req)
	if f.Fresh == nil {
		return nil, &api.Error{Status: 503, Message: "no price now"}
	}
	q := *f.Fresh
	return &q, nil
}
