package engine

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/sandbox/records"
	"github.com/tesouro-treasury/tesouro/sandbox/store"
)

// loadState reads a validated database into st, which holds the demo
// accesses (they come from the seed, not from the file), one kind of row
// after the other. Tickets stay in the database; only the lifecycle's work
// list (tickets still UNPAID, PENDING, ON-HOLD or PROCESSING) is read, to
// schedule it.
func (e *Engine) loadState(st *state) error {
	fresh := newState()
	for _, a := range st.accesses {
		fresh.addAccess(a)
	}
	fresh.minApprovals = st.minApprovals
	e.st = fresh
	for _, step := range []func() error{
		e.loadSettings, e.loadAccounts, e.loadBalances, e.loadRecords,
		e.loadAttempts, e.loadOperations, e.loadSessions, e.scheduleLiveTickets,
	} {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// loadSettings reads the number of approvals an operation needs.
func (e *Engine) loadSettings() error {
	n, ok, err := e.db.MinApprovals()
	if ok {
		e.st.minApprovals = n
	}
	return err
}

// loadAccounts reads the main account and its sub-accounts.
func (e *Engine) loadAccounts() error {
	return e.db.EachAccount(func(r store.AccountRow) error {
		a := newAccount(r.ID, r.Name, r.Kind, r.Main, r.MainID, r.CreatedAt)
		a.PixKey, a.Wallet, a.TaxID = r.PixKey, r.Wallet, r.TaxID
		e.st.addAccount(a)
		return nil
	})
}

// loadBalances reads every account's balances.
func (e *Engine) loadBalances() error {
	return e.db.EachBalance(func(r store.BalanceRow) error {
		a, err := e.accountOf(r.Account)
		if err != nil {
			return err
		}
		a.balances[r.Currency] = r.Amount
		return nil
	})
}

// loadRecords reads every account's small collections.
func (e *Engine) loadRecords() error {
	return e.db.EachRecords(func(acct, kind string, body []byte) error {
		a, err := e.accountOf(acct)
		if err != nil {
			return err
		}
		if err := a.restoreRecords(kind, body); err != nil {
			return fmt.Errorf("account %s %s: %w", acct, kind, err)
		}
		return nil
	})
}

// loadAttempts reads the webhook delivery attempts.
func (e *Engine) loadAttempts() error {
	return e.db.EachAttempt(func(acct string, r store.AttemptRow) error {
		a, err := e.accountOf(acct)
		if err != nil {
			return err
		}
		a.attempts.add(r.CreatedAt, r.ID, &records.WebhookAttempt{
			AccountID: acct, CreatedAt: fmtTime(r.CreatedAt), UpdatedAt: fmtTime(r.UpdatedAt), ID: r.ID.String(),
			WebhookEventID: r.EventID, WebhookURL: r.URL, ResponseStatus: r.ResponseStatus, Acknowledged: r.Acknowledged,
			EventAccountID: r.EventAccount,
		})
		return nil
	})
}

// loadOperations reads the multi-signature operations and schedules the
// expiry of the pending ones.
func (e *Engine) loadOperations() error {
	return e.db.EachOperation(func(acct string, r store.OperationRow) error {
		a, err := e.accountOf(acct)
		if err != nil {
			return err
		}
		who := e.st.accessByID[r.Requester]
		if who == nil {
			return fmt.Errorf("operation %s refers to an unknown access %s", r.ID, r.Requester)
		}
		var os operationState
		if err := json.Unmarshal(r.Detail, &os); err != nil {
			return fmt.Errorf("operation %s: %w", r.ID, err)
		}
		if os.MinApprovals < 1 {
			return fmt.Errorf("operation %s needs %d approvals; at least 1 is sane", r.ID, os.MinApprovals)
		}
		op := &Operation{
			ID: r.ID, Requester: who, Acct: a, Status: os.Status, CreatedAt: os.CreatedAt, ExpiresAt: os.ExpiresAt,
			Payload: os.Payload, req: os.Request, q: os.Quote, approvals: map[uuid.UUID]bool{}, ExecutedID: os.ExecutedID,
			Reason: os.Reason, DecidedAt: os.DecidedAt, MinApprovals: os.MinApprovals, RejectedBy: os.RejectedBy,
		}
		for _, id := range os.Approvals {
			op.approvals[id] = true
		}
		e.st.operations.add(op.CreatedAt, op.ID, op)
		if op.Status == records.OperationPending {
			e.schedule(op.ExpiresAt, dueOpExpire, uuid.Nil, op)
		}
		return nil
	})
}

// loadSessions reads the payment sessions. A session opened before
// sessions kept their settings has no expiry (zero ExpiresAt): it stays
// open as it was.
func (e *Engine) loadSessions() error {
	return e.db.EachSession(func(acct string, r store.SessionRow) error {
		var d SessionDetail
		if err := json.Unmarshal(r.Detail, &d); err != nil {
			// Options stored as names, before they were objects.
			var legacy struct {
				SessionDetail
				PaymentOptions []string `json:"paymentOptions"`
			}
			if json.Unmarshal(r.Detail, &legacy) != nil {
				return fmt.Errorf("payment session %s: %w", r.ID, err)
			}
			d = legacy.SessionDetail
			d.PaymentOptions = legacyOptions(legacy.PaymentOptions, d.OutputCurrency)
		}
		a, err := e.accountOf(acct)
		if err != nil {
			return err
		}
		who := e.st.accessByID[r.Access]
		if who == nil {
			return fmt.Errorf("payment session %s refers to an unknown access %s", r.ID, r.Access)
		}
		e.st.sessions[r.ID] = &Session{ID: r.ID, Account: a, Opener: who, CreatedAt: r.CreatedAt, SessionDetail: d}
		return nil
	})
}

// scheduleLiveTickets puts the transitions the stored tickets still wait
// for back on the lifecycle's queue.
func (e *Engine) scheduleLiveTickets() error {
	return e.db.EachLiveTicket(func(t store.LiveTicket) error {
		if !t.FundAt.IsZero() {
			e.schedule(t.FundAt, dueFund, t.ID, nil)
		}
		if !t.PayAt.IsZero() {
			e.schedule(t.PayAt, duePay, t.ID, nil)
		}
		if t.Status == string(records.TicketUnpaid) {
			e.schedule(t.ExpiresAt, dueExpire, t.ID, nil)
		}
		return nil
	})
}

func (e *Engine) accountOf(id string) (*Account, error) {
	aid, err := uuid.Parse(id)
	if err != nil {
		return nil, fmt.Errorf("account id %q is malformed", id)
	}
	a := e.st.accounts[aid]
	if a == nil {
		return nil, fmt.Errorf("account %s is unknown", id)
	}
	return a, nil
}

func (a *Account) restoreRecords(kind string, body []byte) error {
	switch kind {
	case "wallets":
		return restoreJSON(a.wallets, body, func(v *records.Wallet) (time.Time, uuid.UUID) { return v.CreatedAt.Time, v.ID })
	case "brl":
		return restoreJSON(a.brl, body, func(v *records.BRLAccount) (time.Time, uuid.UUID) { return v.CreatedAt.Time, v.ID })
	case "usd":
		return restoreJSON(a.usd, body, func(v *records.USDAccount) (time.Time, uuid.UUID) { return v.CreatedAt.Time, v.ID })
	case "cop":
		return restoreJSON(a.cop, body, func(v *records.COPAccount) (time.Time, uuid.UUID) { return v.CreatedAt.Time, v.ID })
	case "trades":
		return restoreJSON(a.trades, body, func(v *records.Trade) (time.Time, uuid.UUID) { return v.CreatedAt.Time, v.ID })
	case "ubos":
		return restoreJSON(a.ubos, body, func(v *records.UBO) (time.Time, uuid.UUID) { return v.CreatedAt.Time, v.ID })
	case "w8bens":
		return restoreJSON(a.w8bens, body, func(v *records.W8BEN) (time.Time, uuid.UUID) { return v.CreatedAt.Time, v.ID })
	case "poa":
		return restoreJSON(a.poa, body, func(v *records.ProofOfAddressAttempt) (time.Time, uuid.UUID) { return v.CreatedAt.Time, v.ID })
	case "eur":
		return restoreJSON(a.eur, body, func(v *records.EURAccount) (time.Time, uuid.UUID) { return v.CreatedAt.Time, v.ID })
	case "ars":
		return restoreJSON(a.ars, body, func(v *records.ARSAccount) (time.Time, uuid.UUID) { return v.CreatedAt.Time, v.ID })
	case "documents":
		return restoreJSON(a.documents, body, func(v *records.Document) (time.Time, uuid.UUID) { return v.CreatedAt.Time, v.ID })
	case "kyc":
		return restoreJSON(a.kyc, body, func(v *records.KYCAttempt) (time.Time, uuid.UUID) { return v.CreatedAt.Time, v.ID })
	case "metadata":
		return json.Unmarshal(body, &a.metadata)
	case "settings":
		return json.Unmarshal(body, &a.settings)
	case "webhooks":
		var ws []Webhook
		if err := json.Unmarshal(body, &ws); err != nil {
			return err
		}
		for i := range ws {
			a.webhooks = append(a.webhooks, &ws[i])
		}
		return nil
	}
	return fmt.Errorf("unknown kind of record %q", kind)
}

func restoreJSON[T any](s *series[T], body []byte, key func(*T) (time.Time, uuid.UUID)) error {
	var saved []T
	if err := json.Unmarshal(body, &saved); err != nil {
		return err
	}
	restore(s, saved, key)
	return nil
}
