package cli

import (
	"fmt"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/journal"
	"github.com/tesouro-treasury/tesouro/keystore"
	"github.com/tesouro-treasury/tesouro/money"
)

// Every write a command makes is journaled as the dashboard's are: one
// line in the local journal, under the dashboard's action names
// (cancel-ticket, create-beneficiary-wallet, sandbox-fund-ticket, ...),
// naming who acted, the environment and account, the endpoint, the ids and
// amounts, and the outcome, an error included. Never a secret.

// entry starts the journal line of a write the session makes; the
// journal's actor (set by write) names who acted.
func (s *session) entry(action, endpoint string) journal.Entry {
	env := keystore.EnvSandbox
	if s.target.Production {
		env = keystore.EnvProduction
	}
	account := "main"
	if s.sub != uuid.Nil {
		account = s.sub.String()
	}
	return journal.Entry{Env: env, Account: account, Action: action, Endpoint: endpoint}
}

// write makes one write and journals it. The journal is opened first: a
// write that could not be recorded is not sent. do sends the write and
// fills in the entry (ids, amounts, outcome); its error becomes the
// outcome. A line that cannot be written is a warning: the write is done.
func (s *session) write(action, endpoint string, do func(e *journal.Entry) error) error {
	j, err := s.journal()
	if err != nil {
		return err
	}
	e := s.entry(action, endpoint)
	err = do(&e)
	if err != nil {
		e.Outcome = "error: " + err.Error()
	}
	if jerr := j.Record(e); jerr != nil {
		fmt.Fprintf(s.f.Stderr, "warning: %v\n", jerr)
	}
	return err
}

// journal is the journal of write actions, naming who acts in this session
// and where; the payment core writes a payment's lines to it itself. It
// cannot be opened: nothing is sent. Only a session past the write gate
// (runWrite) has one.
func (s *session) journal() (*journal.Journal, error) {
	if !s.gated {
		return nil, errNoGate
	}
	j, err := s.f.Journal()
	if err != nil {
		return nil, fmt.Errorf("the journal is not available, and every write is recorded there: %w; nothing was sent", err)
	}
	env := keystore.EnvSandbox
	if s.target.Production {
		env = keystore.EnvProduction
	}
	j.SetActor(journal.Actor{Profile: s.target.Profile, DemoAccess: s.target.DemoAccess, Email: s.conn.Email, Env: env})
	return j, nil
}

// quoteAmounts are a ticket's amounts as the journal writes them.
func quoteAmounts(q api.TicketQuote) map[string]string {
	return map[string]string{
		"input":  money.Wire(q.InputAmount, q.InputCurrency) + " " + q.InputCurrency,
		"output": money.Wire(q.OutputAmount, q.OutputCurrency) + " " + q.OutputCurrency,
	}
}
