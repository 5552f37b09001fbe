package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"
)

// The write gate. Every command that asks the service to change something
// (ticket create, tickets cancel, beneficiaries add, webhooks ack, batch
// run, sandbox fund, a tesouro api POST, PUT, PATCH or DELETE) runs in
// runWrite, which crosses the gate before any request is made: nothing is
// written under --readonly or with a read-only profile, and on a
// production profile a write no person confirms at a terminal (a script,
// --yes, tesouro api) is refused unless the profile allows scripted
// writes. A session opened any other way has no journal (session.journal),
// and a write that cannot be journaled is never sent: so no write can
// bypass the gate.

// write names a write for the gate.
type write struct {
	// what the refusal names: "ticket create", "tesouro api POST".
	what string
	// interactive: a person confirms it at a terminal before it is sent.
	interactive bool
	// mainOnly: it acts on the main account whatever sub-account the
	// profile opens on (webhooks).
	mainOnly bool
}

// errNoGate is a write attempted in a session that did not cross the gate:
// a mistake in this program, never the user's.
var errNoGate = errors.New("internal error: a write was attempted outside the write gate; nothing was sent")

// mayWrite is the gate itself.
func (t *Target) mayWrite(w write) error {
	switch {
	case t.ReadOnly && t.Profile != "" && !t.readOnlyFlag:
		return Usagef("read-only: %s is a write, and profile %s is read-only (tesouro profile add %s ... --replace without --readonly to change it)", w.what, t.Profile, t.Profile)
	case t.ReadOnly:
		return Usagef("read-only: %s is a write (drop --readonly)", w.what)
	case t.Production && !w.interactive && !t.ScriptedWrites:
		return fmt.Errorf("profile %s is a PRODUCTION profile that does not allow scripted writes: %s must be confirmed at a terminal (without --yes), or allow it with \"tesouro profile add %s ... --allow-scripted-writes --replace\"", t.Profile, w.what, t.Profile)
	}
	return nil
}

// runWrite resolves the target, crosses the write gate and runs fn in a
// session that may journal, hence write.
func (f *Factory) runWrite(cmd *cobra.Command, w write, fn func(ctx context.Context, s *session) error) error {
	t, err := f.Resolve()
	if err != nil {
		return err
	}
	if err := t.mayWrite(w); err != nil {
		return err
	}
	return f.runTarget(cmd, t, w.mainOnly, true, fn)
}
