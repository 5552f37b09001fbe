package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
)

// With --state FILE the sandbox saves its whole state after every change
// (atomically: a temporary file renamed over the old one) and loads it at
// start. Saves are coalesced: a burst of changes costs one write, made
// right after the burst, and Close writes the last state.

const stateVersion = 1

type persister struct {
	s    *Server
	path string
	kick chan struct{}
	mu   sync.Mutex // one writer at a time
	err  error
}

func newPersister(s *Server, path string) *persister {
	p := &persister{s: s, path: path, kick: make(chan struct{}, 1)}
	s.wg.Add(1)
	go p.loop()
	return p
}

// changed notes that the state changed. The caller holds s.mu.
func (s *Server) changed() {
	if s.persist == nil {
		return
	}
	select {
	case s.persist.kick <- struct{}{}:
	default:
	}
}

func (p *persister) loop() {
	defer p.s.wg.Done()
	for {
		select {
		case <-p.s.ctx.Done():
			return
		case <-p.kick:
			if err := p.flush(); err != nil {
				p.mu.Lock()
				p.err = err
				p.mu.Unlock()
			}
		}
	}
}

func (p *persister) flush() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.s.mu.RLock()
	if p.s.seedRand != nil { // still building: nothing to save yet
		p.s.mu.RUnlock()
		return nil
	}
	snap := p.s.snapshotLocked()
	data, err := json.Marshal(snap)
	p.s.mu.RUnlock()
	if err != nil {
		return fmt.Errorf("sandbox state: %w", err)
	}
	return writeFileAtomic(p.path, data, 0o600)
}

// stateFile is the saved form of the store.
type stateFile struct {
	Version    int              `json:"version"`
	Seed       int64            `json:"seed"`
	SavedAt    time.Time        `json:"savedAt"`
	Accounts   []accountState   `json:"accounts"`
	Operations []operationState `json:"operations"`
	Sessions   []sessionState   `json:"sessions"`
}

type accountState struct {
	ID        uuid.UUID                   `json:"id"`
	Name      string                      `json:"name"`
	Type      string                      `json:"type"`
	Main      bool                        `json:"main"`
	MainID    uuid.UUID                   `json:"mainId"`
	CreatedAt time.Time                   `json:"createdAt"`
	PixKey    string                      `json:"pixKey"`
	Wallet    string                      `json:"wallet"`
	TaxID     string                      `json:"taxId"`
	Balances  map[string]decimal.Decimal  `json:"balances"`
	Tickets   []ticketState               `json:"tickets"`
	Wallets   []api.Wallet                `json:"wallets"`
	BRL       []api.BRLAccount            `json:"brl"`
	USD       []api.USDAccount            `json:"usd"`
	COP       []api.COPAccount            `json:"cop"`
	Webhooks  []webhook                   `json:"webhooks"`
	Events    []event                     `json:"events"`
	Attempts  []api.WebhookAttempt        `json:"attempts"`
	Trades    []api.Trade                 `json:"trades"`
	UBOs      []api.UBO                   `json:"ubos"`
	W8BENs    []api.W8BEN                 `json:"w8bens"`
	PoA       []api.ProofOfAddressAttempt `json:"poa"`
}

type ticketState struct {
	Ticket     api.Ticket      `json:"ticket"`
	AccessID   uuid.UUID       `json:"accessId"`
	Quote      quoteClaims     `json:"quote"`
	OutKind    string          `json:"outKind"`
	OutID      uuid.UUID       `json:"outId"`
	FundAt     time.Time       `json:"fundAt"`
	PayAt      time.Time       `json:"payAt"`
	Debited    decimal.Decimal `json:"debited"`
	Held       decimal.Decimal `json:"held"`
	FailReason string          `json:"failReason,omitempty"`
}

type operationState struct {
	ID           uuid.UUID           `json:"id"`
	RequesterID  uuid.UUID           `json:"requesterId"`
	AccountID    uuid.UUID           `json:"accountId"`
	Status       api.OperationStatus `json:"status"`
	CreatedAt    time.Time           `json:"createdAt"`
	ExpiresAt    time.Time           `json:"expiresAt"`
	Payload      json.RawMessage     `json:"payload"`
	Request      ticketRequest       `json:"request"`
	Quote        quoteClaims         `json:"quote"`
	Approvals    []uuid.UUID         `json:"approvals"`
	ExecutedID   string              `json:"executedId"`
	Reason       string              `json:"reason"`
	DecidedAt    time.Time           `json:"decidedAt"`
	MinApprovals int32               `json:"minApprovals"`
}

type sessionState struct {
	ID        uuid.UUID `json:"id"`
	AccountID uuid.UUID `json:"accountId"`
	AccessID  uuid.UUID `json:"accessId"`
	CreatedAt time.Time `json:"createdAt"`
}

// values copies a collection out, oldest first, to be saved.
func values[T any](s *series[T]) []T {
	out := make([]T, len(s.es))
	for i, e := range s.es {
		out[i] = *e.v
	}
	return out
}

// restore adds saved records to a collection, each at the creation time
// and under the id key reads.
func restore[T any](s *series[T], saved []T, key func(*T) (time.Time, uuid.UUID)) {
	for _, v := range saved {
		at, id := key(&v)
		s.add(at, id, &v)
	}
}

// snapshotLocked copies the store into its saved form. The caller holds s.mu.
func (s *Server) snapshotLocked() *stateFile {
	st := s.st
	f := &stateFile{Version: stateVersion, Seed: s.cfg.Seed, SavedAt: s.now()}
	for _, a := range append([]*account{st.main}, st.subs...) {
		as := accountState{
			ID: a.ID, Name: a.Name, Type: a.Type, Main: a.Main, MainID: a.MainID, CreatedAt: a.CreatedAt,
			PixKey: a.PixKey, Wallet: a.Wallet, TaxID: a.TaxID, Balances: a.balances,
			Wallets: values(a.wallets), BRL: values(a.brl), USD: values(a.usd), COP: values(a.cop),
			Events: values(a.events), Trades: values(a.trades), UBOs: values(a.ubos), W8BENs: values(a.w8bens), PoA: values(a.poa),
		}
		for _, w := range a.webhooks {
			as.Webhooks = append(as.Webhooks, *w)
		}
		for _, e := range a.attempts.es {
			as.Attempts = append(as.Attempts, e.v.WebhookAttempt)
		}
		for _, e := range a.tickets.es {
			t := e.v
			as.Tickets = append(as.Tickets, ticketState{Ticket: t.Ticket, AccessID: t.accessID, Quote: t.q, OutKind: t.outKind, OutID: t.outID, FundAt: t.fundAt, PayAt: t.payAt, Debited: t.debited, Held: t.held, FailReason: t.failReason})
		}
		f.Accounts = append(f.Accounts, as)
	}
	for _, e := range st.operations.es {
		op := e.v
		os := operationState{
			ID: op.ID, RequesterID: op.Requester.ID, AccountID: op.Acct.ID, Status: op.Status, CreatedAt: op.CreatedAt, ExpiresAt: op.ExpiresAt,
			Payload: op.Payload, Request: op.req, Quote: op.q, ExecutedID: op.ExecutedID, Reason: op.Reason, DecidedAt: op.DecidedAt, MinApprovals: op.MinApprovals,
		}
		for id := range op.approvals {
			os.Approvals = append(os.Approvals, id)
		}
		f.Operations = append(f.Operations, os)
	}
	for _, ps := range st.sessions {
		f.Sessions = append(f.Sessions, sessionState{ID: ps.ID, AccountID: ps.acct.ID, AccessID: ps.who.ID, CreatedAt: ps.CreatedAt})
	}
	return f
}

// loadState replaces the demo history with a saved state. A missing file is
// not an error (the sandbox starts from the demo data and creates it).
func (s *Server) loadState(path string) (bool, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("sandbox state %s: %w", path, err)
	}
	var f stateFile
	if err := json.Unmarshal(data, &f); err != nil {
		return false, fmt.Errorf("sandbox state %s is not a state file (%v); move it away to start afresh", path, err)
	}
	if f.Version != stateVersion {
		return false, fmt.Errorf("sandbox state %s has version %d, this sandbox reads %d; move it away to start afresh", path, f.Version, stateVersion)
	}
	if f.Seed != s.cfg.Seed {
		return false, fmt.Errorf("sandbox state %s was written with --seed %d; start with that seed or move the file away", path, f.Seed)
	}
	old := s.st
	st := newStore()
	for _, a := range old.accesses {
		st.addAccess(a)
	}
	st.minApprovals = old.minApprovals
	s.st = st
	for _, as := range f.Accounts {
		a := newAccount(as.ID, as.Name, as.Type, as.Main, as.MainID, as.CreatedAt)
		a.PixKey, a.Wallet, a.TaxID = as.PixKey, as.Wallet, as.TaxID
		if as.Balances != nil {
			a.balances = as.Balances
		}
		st.addAccount(a)
		restore(a.wallets, as.Wallets, func(v *api.Wallet) (time.Time, uuid.UUID) { return v.CreatedAt.Time, v.ID })
		restore(a.brl, as.BRL, func(v *api.BRLAccount) (time.Time, uuid.UUID) { return v.CreatedAt.Time, v.ID })
		restore(a.usd, as.USD, func(v *api.USDAccount) (time.Time, uuid.UUID) { return v.CreatedAt.Time, v.ID })
		restore(a.cop, as.COP, func(v *api.COPAccount) (time.Time, uuid.UUID) { return v.CreatedAt.Time, v.ID })
		restore(a.events, as.Events, func(v *event) (time.Time, uuid.UUID) { return v.CreatedAt, v.ID })
		restore(a.trades, as.Trades, func(v *api.Trade) (time.Time, uuid.UUID) { return v.CreatedAt.Time, v.ID })
		restore(a.ubos, as.UBOs, func(v *api.UBO) (time.Time, uuid.UUID) { return v.CreatedAt.Time, v.ID })
		restore(a.w8bens, as.W8BENs, func(v *api.W8BEN) (time.Time, uuid.UUID) { return v.CreatedAt.Time, v.ID })
		restore(a.poa, as.PoA, func(v *api.ProofOfAddressAttempt) (time.Time, uuid.UUID) { return v.CreatedAt.Time, v.ID })
		for _, w := range as.Webhooks {
			a.webhooks = append(a.webhooks, &w)
		}
		for _, v := range as.Attempts {
			at, _ := time.Parse(time.RFC3339Nano, v.CreatedAt)
			id, err := uuid.Parse(v.ID)
			if err != nil {
				return false, fmt.Errorf("sandbox state %s: attempt id %q: %v", path, v.ID, err)
			}
			a.attempts.add(at, id, &attempt{v})
		}
		for _, ts := range as.Tickets {
			t := &ticket{Ticket: ts.Ticket, acct: a, accessID: ts.AccessID, q: ts.Quote, outKind: ts.OutKind, outID: ts.OutID, fundAt: ts.FundAt, payAt: ts.PayAt, debited: ts.Debited, held: ts.Held, failReason: ts.FailReason}
			a.tickets.add(t.CreatedAt.Time, t.ID, t)
			if t.ExternalID != "" {
				a.byExternal[t.ExternalID] = append(a.byExternal[t.ExternalID], t)
			}
			for _, e2e := range []string{senderE2E(t), receiverE2E(t)} {
				if e2e != "" {
					a.byE2E[e2e] = t
				}
			}
			if !t.fundAt.IsZero() {
				s.schedule(t.fundAt, dueFund, t, nil)
			}
			if !t.payAt.IsZero() {
				s.schedule(t.payAt, duePay, t, nil)
			}
			if t.Status == api.TicketPending {
				s.schedule(t.ExpiresAt.Time, dueExpire, t, nil)
			}
		}
	}
	if st.main == nil {
		return false, fmt.Errorf("sandbox state %s has no main account", path)
	}
	for _, os := range f.Operations {
		acct, who := st.accounts[os.AccountID], st.accessByID[os.RequesterID]
		if acct == nil || who == nil {
			return false, fmt.Errorf("sandbox state %s: operation %s refers to an unknown account or access", path, os.ID)
		}
		op := &operation{
			ID: os.ID, Requester: who, Acct: acct, Status: os.Status, CreatedAt: os.CreatedAt, ExpiresAt: os.ExpiresAt,
			Payload: os.Payload, req: os.Request, q: os.Quote, approvals: map[uuid.UUID]bool{}, ExecutedID: os.ExecutedID,
			Reason: os.Reason, DecidedAt: os.DecidedAt, MinApprovals: os.MinApprovals,
		}
		for _, id := range os.Approvals {
			op.approvals[id] = true
		}
		st.operations.add(op.CreatedAt, op.ID, op)
		if op.Status == api.OperationPending {
			s.schedule(op.ExpiresAt, dueOpExpire, nil, op)
		}
	}
	for _, ss := range f.Sessions {
		acct, who := st.accounts[ss.AccountID], st.accessByID[ss.AccessID]
		if acct != nil && who != nil {
			st.sessions[ss.ID] = &paymentSession{ID: ss.ID, acct: acct, who: who, CreatedAt: ss.CreatedAt}
		}
	}
	return true, nil
}

func senderE2E(t *ticket) string {
	if t.BrazilianFiatSenderInfo != nil {
		return t.BrazilianFiatSenderInfo.EndToEndID
	}
	return ""
}

func receiverE2E(t *ticket) string {
	if t.BrazilianFiatReceiverInfo != nil {
		return t.BrazilianFiatReceiverInfo.EndToEndID
	}
	return ""
}
