package cli

import (
	"fmt"

	"github.com/tesouro-treasury/tesouro/journal"
	"github.com/tesouro-treasury/tesouro/keystore"
)

// journal opens the local journal of write actions in the state directory,
// naming who acts in session s and where. A write that cannot be recorded
// is not made.
func (e *Env) journal(s *session) (*journal.Journal, error) {
	stateDir, err := keystore.StateDir(e.Getenv)
	if err != nil {
		return nil, fmt.Errorf("state directory: %w", err)
	}
	jr, err := journal.Open(stateDir)
	if err != nil {
		return nil, fmt.Errorf("the journal is not available, and every payment must be recorded: %w", err)
	}
	env := "sandbox"
	if s.target.Production {
		env = "production"
	}
	jr.SetActor(journal.Actor{Profile: s.target.Profile, DemoAccess: s.target.DemoAccess, Email: s.conn.Email, Env: env})
	return jr, nil
}
