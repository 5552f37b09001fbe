package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/uuid"
	"github.com/spf13/cobra"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/termsafe"
)

// scriptingCommands are the commands that act on the service.
func scriptingCommands(f *Factory) []*cobra.Command {
	return []*cobra.Command{
		newCmdBalances(f), newCmdAccounts(f), newCmdTickets(f), newCmdTicket(f), newCmdTransfer(f), newCmdQuote(f),
		newCmdApprovals(f), newCmdBeneficiaries(f), newCmdWebhooks(f), newCmdStatement(f), newCmdAPI(f), newCmdBatch(f),
		newCmdAccess(f), newCmdAPIKey(f),
	}
}

// session is a connected command: the client and the account it acts on.
type session struct {
	f       *Factory
	target  *Target
	conn    *Conn
	sub     uuid.UUID // uuid.Nil: the main account
	subName string
	// gated: the session was opened by runWrite, past the write gate; only
	// then may it journal, hence write.
	gated bool
}

// open connects to t and, unless mainOnly, resolves --sub-account (or the
// profile's default). The caller must call close.
func (f *Factory) open(ctx context.Context, t *Target, mainOnly bool) (*session, error) {
	conn, err := t.Connect(ctx)
	if err != nil {
		return nil, err
	}
	s := &session{f: f, target: t, conn: conn}
	if mainOnly {
		return s, nil
	}
	if s.sub, s.subName, err = SubAccount(ctx, conn.Client, t.SubAccount); err != nil {
		conn.Close()
		return nil, err
	}
	return s, nil
}

func (s *session) close() error { return s.conn.Close() }

func (s *session) client() *api.Client { return s.conn.Client }

// run opens a session for the command, runs fn and closes the session
// whatever happens.
func (f *Factory) run(cmd *cobra.Command, fn func(ctx context.Context, s *session) error) error {
	return f.runOn(cmd, false, fn)
}

// runMain is run for commands that act on the main account whatever
// sub-account the profile opens on (webhooks): that sub-account is not
// looked up, so one that is gone or renamed does not stop them.
func (f *Factory) runMain(cmd *cobra.Command, fn func(ctx context.Context, s *session) error) error {
	return f.runOn(cmd, true, fn)
}

func (f *Factory) runOn(cmd *cobra.Command, mainOnly bool, fn func(ctx context.Context, s *session) error) error {
	t, err := f.Resolve()
	if err != nil {
		return err
	}
	return f.runTarget(cmd, t, mainOnly, false, fn)
}

// runTarget runs fn in a session on t; gated says the write gate was
// crossed (runWrite).
// The command's deadline (--timeout) bounds all of it, connecting
// included, except the time a person spends answering a question.
func (f *Factory) runTarget(cmd *cobra.Command, t *Target, mainOnly, gated bool, fn func(ctx context.Context, s *session) error) (err error) {
	ctx := cmd.Context()
	if f.G.Timeout < 0 {
		return Usagef("--timeout %s: give a duration such as 30s or 5m, or 0 for no limit", f.G.Timeout)
	}
	if d := f.timeoutFor(cmd); d > 0 {
		var release func()
		ctx, release = withDeadline(ctx, d)
		defer release()
		defer func() { err = explainDeadline(ctx, err, t) }()
	}
	s, err := f.open(ctx, t, mainOnly)
	if err != nil {
		return err
	}
	s.gated = gated
	defer s.close()
	return fn(ctx, s)
}

// parseID parses a positional id argument.
func parseID(what, arg string) (uuid.UUID, error) {
	id, err := uuid.Parse(arg)
	if err != nil {
		return uuid.Nil, Usagef("%s %q is not an id (a UUID such as 7f3c...)", what, arg)
	}
	return id, nil
}

// exactArgs is cobra.ExactArgs as a usage error naming what is missing.
func exactArgs(names ...string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != len(names) {
			return Usagef("%s takes %d argument(s): %v, got %d", cmd.CommandPath(), len(names), names, len(args))
		}
		return nil
	}
}

// noArgs refuses positional arguments.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return Usagef("%s: unexpected argument %q", cmd.CommandPath(), args[0])
	}
	return nil
}

// limitFlag adds --limit, the number of items after which a list stops
// (0: all of them, every page).
func limitFlag(cmd *cobra.Command) *int {
	n := cmd.Flags().Int("limit", 0, "stop after N items (default: all, every page)")
	return n
}

// collect walks every page of a list, stopping after limit items when
// limit > 0.
func collect[T any](ctx context.Context, limit int, fetch func(ctx context.Context, cursor string) (api.Page[T], error)) ([]T, error) {
	if limit < 0 {
		return nil, Usagef("--limit must be 0 (all) or positive, not %d", limit)
	}
	out := []T{}
	for item, err := range api.All(ctx, fetch) {
		if err != nil {
			return nil, err
		}
		out = append(out, item)
		if limit > 0 && len(out) >= limit {
			break
		}
	}
	return out, nil
}

// accountLabel names the account a session acts on.
func (s *session) accountLabel() string {
	if s.sub == uuid.Nil {
		return "main account"
	}
	return fmt.Sprintf("%s (%s)", termsafe.Line(s.subName), s.sub)
}

// GroupRunE is the RunE of a command that only groups others: without a
// subcommand, or with one it does not know, it is a usage error (exit 2),
// with a suggestion when the name is close to a real one.
func GroupRunE(verbs string) func(cmd *cobra.Command, args []string) error {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 {
			return Usagef("%s: say what to do: %s (tesouro help %s)", cmd.CommandPath(), verbs, cmd.Name())
		}
		msg := fmt.Sprintf("unknown command %q for %q", args[0], cmd.CommandPath())
		if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
			msg += "\n\nDid you mean this?\n\t" + strings.Join(s, "\n\t")
		}
		return Usagef("%s: use %s", msg, verbs)
	}
}
