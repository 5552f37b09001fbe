package cli

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// newCmdMan is "tesouro man": the manual page, in roff, built from the
// command tree so that it never disagrees with --help.
func newCmdMan(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "man",
		Short: "Print the manual page (roff)",
		Long: `Prints the manual page, in roff: NAME, SYNOPSIS, DESCRIPTION, COMMANDS (every
command with its flags and examples), OPTIONS (the global flags), EXIT
STATUS, ENVIRONMENT, FILES and EXAMPLES. Read it with man ./tesouro.1, or
install it in a directory of MANPATH.`,
		Example: `  tesouro man > tesouro.1
  man ./tesouro.1`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := io.WriteString(f.Stdout, ManPage(cmd.Root(), f.Build))
			return err
		},
	}
}

// exitStatus is the EXIT STATUS of the manual and of the root's help.
var exitStatus = [][2]string{
	{"0", "The command did what was asked."},
	{"1", "A runtime failure: the service answered an error, the network, the keyring or a file failed, a write was refused by a rule (a production profile without scripted writes), a command's deadline passed, a signature did not verify."},
	{"2", "A usage mistake: an unknown command or flag, a bad value, a missing or extra argument, no profile for a command that talks to the service, a write under --readonly or with a read-only profile, no terminal for the dashboard or for a question that --yes would skip."},
	{"130, 143", "Interrupted by SIGINT (Ctrl-C) or SIGTERM."},
}

// environment is the ENVIRONMENT of the manual.
var environment = [][2]string{
	{"TESOURO_PROFILE", "The profile to use when --profile is not given."},
	{"TESOURO_CONFIG_DIR", "Where config.toml lives; else $XDG_CONFIG_HOME/tesouro, else ~/.config/tesouro."},
	{"XDG_STATE_HOME", "The state directory is $XDG_STATE_HOME/tesouro (else ~/.local/state/tesouro): the journal, logs, receipts, batch ledgers, sandbox credentials."},
	{"TESOURO_DEBUG", "api (or 1) traces every HTTP exchange as --debug does, secrets redacted."},
	{"NO_COLOR", "Set: no colour anywhere."},
	{"GOMEMLIMIT", "The dashboard's soft memory limit (default 120 MiB)."},
}

// files is the FILES of the manual.
var files = [][2]string{
	{"~/.config/tesouro/config.toml", "Profiles (no secret), export_dir, [keys], [theme] and [notifications]; mode 0600."},
	{"~/.local/state/tesouro/journal.jsonl", "One line per write action: time, profile, account, endpoint, ids, amounts, outcome; never a secret."},
	{"~/.local/state/tesouro/debug.log", "The dashboard's trace with --debug."},
	{"~/.local/state/tesouro/sandbox-credentials.json", "The demo accesses' keys of the last tesouro sandbox (mode 0600)."},
	{"~/.local/state/tesouro/batches/", "What each batch run parked for approval, so that a re-run does not park it twice."},
	{"FILE.results.csv", "Beside a batch file, one line per row of every run (payouts.csv: payouts.results.csv)."},
}

// ManPage renders the manual page of the tree under root.
func ManPage(root *cobra.Command, b Build) string {
	var m man
	v, _, date := b.resolved()
	day := time.Now().UTC().Format("2006-01-02")
	if len(date) >= 10 {
		day = date[:10]
	}
	m.raw(fmt.Sprintf(`.TH TESOURO 1 %q %q "Tesouro Manual"`, day, "tesouro "+v))
	m.section("NAME")
	m.raw("tesouro \\- " + esc(root.Short))
	m.section("SYNOPSIS")
	m.raw(".B tesouro")
	m.raw(".RI [ global-flags ]")
	m.raw(".br")
	m.raw(".B tesouro")
	m.raw(".I command")
	m.raw(".RI [ flags ] \" [\" arguments ]")
	m.section("DESCRIPTION")
	m.paragraphs(root.Long)
	m.section("COMMANDS")
	walkCommands(root, func(c *cobra.Command) {
		if c == root {
			return
		}
		m.raw(".TP")
		m.bold(strings.TrimSpace(c.UseLine()))
		m.text(c.Short)
		if c.Long != "" {
			m.raw(".RS")
			m.raw(".PP")
			m.paragraphs(c.Long)
			m.raw(".RE")
		}
		if flags := c.LocalNonPersistentFlags(); flags.HasAvailableFlags() {
			m.raw(".RS")
			m.flags(flags)
			m.raw(".RE")
		}
		m.examples(c.Example)
	})
	m.section("OPTIONS")
	m.text("The global flags go before or after the command's name.")
	m.flags(root.PersistentFlags())
	m.section("EXIT STATUS")
	m.table(exitStatus)
	m.section("ENVIRONMENT")
	m.table(environment)
	m.section("FILES")
	m.table(files)
	m.section("EXAMPLES")
	m.examples(root.Example)
	m.section("SEE ALSO")
	m.text("tesouro help COMMAND, tesouro COMMAND --help, and README.md, which says the same at length.")
	return m.b.String()
}

// walkCommands visits every command shown in the help, depth first in
// name order.
func walkCommands(c *cobra.Command, fn func(*cobra.Command)) {
	if c.Hidden || c.Deprecated != "" {
		return
	}
	fn(c)
	subs := c.Commands()
	sort.Slice(subs, func(i, j int) bool { return subs[i].Name() < subs[j].Name() })
	for _, sub := range subs {
		walkCommands(sub, fn)
	}
}

// man writes roff. Text passes through esc; macros through raw.
type man struct{ b strings.Builder }

func (m *man) raw(s string) { m.b.WriteString(s + "\n") }

func (m *man) section(s string) { m.raw(".SH " + s) }

func (m *man) bold(s string) { m.raw(".B " + esc(s)) }

func (m *man) text(s string) {
	if s = strings.TrimSpace(s); s != "" {
		m.raw(esc(s))
	}
}

// paragraphs writes text whose paragraphs are separated by blank lines;
// the lines of one paragraph are joined, so that man fills them to the
// reader's width.
func (m *man) paragraphs(s string) {
	for i, p := range strings.Split(strings.TrimSpace(s), "\n\n") {
		if i > 0 {
			m.raw(".PP")
		}
		m.text(strings.Join(strings.Fields(p), " "))
	}
}

// flags lists a flag set: -s, --name VALUE, then its description.
func (m *man) flags(fs *pflag.FlagSet) {
	fs.VisitAll(func(fl *pflag.Flag) {
		if fl.Hidden || fl.Name == "help" || fl.Name == "version" {
			return
		}
		name := "--" + fl.Name
		if fl.Shorthand != "" {
			name = "-" + fl.Shorthand + ", " + name
		}
		if fl.Value.Type() != "bool" {
			name += " " + valueName(fl)
		}
		m.raw(".TP")
		m.bold(name)
		usage := fl.Usage
		if d := fl.DefValue; d != "" && d != "false" && d != "0" && d != "[]" {
			usage += " (default " + d + ")"
		}
		m.text(usage)
	})
}

// valueNames name the values of flags whose descriptions do not.
var valueNames = map[string]string{"format": "FORMAT", "jq": "EXPRESSION", "method": "METHOD", "field": "KEY=VALUE",
	"raw-field": "KEY=VALUE", "timeout": "DURATION", "watch": "INTERVAL", "limit": "N", "env": "ENV", "send-method": "METHOD",
	"reference": "TEXT", "payment-rail": "RAIL", "type": "TYPE", "results": "FILE", "public-key": "FILE", "pix-key": "KEY",
	"memo": "MEMO", "kind": "KIND", "email": "ADDRESS", "faults": "SPEC", "concurrency": "N", "bits": "BITS", "alias": "ALIAS",
	"sub-account": "ID|NAME", "seed": "N", "speed": "FACTOR", "addr": "HOST:PORT", "profile": "NAME", "as": "NAME",
	"credentials": "FILE", "tax-id": "CPF|CNPJ"}

// notValueNames are capitalised words of descriptions that are not what
// the flag takes.
var notValueNames = map[string]bool{"HTTP": true, "JSON": true, "PIX": true, "PDF": true, "CSV": true, "API": true, "RSA": true,
	"SHA": true, "PEM": true, "PAID": true, "UNPAID": true, "FAILED": true, "OSC": true, "BRL": true, "USD": true, "RFC": true}

// valueName is what a flag takes, as its description names it in capitals
// (NAME, FILE), else its type.
func valueName(fl *pflag.Flag) string {
	if v, ok := valueNames[fl.Name]; ok {
		return v
	}
	for _, w := range strings.FieldsFunc(fl.Usage, func(r rune) bool { return r == ' ' || r == ',' || r == '(' || r == ')' || r == ':' || r == ';' }) {
		if len(w) > 1 && strings.ToUpper(w) == w && strings.Trim(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_|") == "" && !notValueNames[w] {
			return w
		}
	}
	return strings.ToUpper(fl.Value.Type())
}

// examples writes a command's examples unfilled, as they are typed.
func (m *man) examples(ex string) {
	ex = strings.Trim(ex, "\n")
	if strings.TrimSpace(ex) == "" {
		return
	}
	m.raw(".RS")
	m.raw(".PP")
	m.raw(".nf")
	for _, line := range strings.Split(ex, "\n") {
		m.raw(esc(strings.TrimPrefix(line, "  ")))
	}
	m.raw(".fi")
	m.raw(".RE")
}

// table writes tagged paragraphs.
func (m *man) table(rows [][2]string) {
	for _, r := range rows {
		m.raw(".TP")
		m.bold(r[0])
		m.text(r[1])
	}
}

// esc makes text safe as roff text: backslashes escaped, and a line never
// starts with a control character (. or ').
func esc(s string) string {
	s = strings.ReplaceAll(s, `\`, `\e`)
	s = strings.ReplaceAll(s, "-", `\-`)
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, ".") || strings.HasPrefix(l, "'") {
			lines[i] = `\&` + l
		}
	}
	return strings.Join(lines, "\n")
}
