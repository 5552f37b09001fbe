package ui

import (
	"errors"
	"fmt"
	"github.com/tesouro-treasury/tesouro/ui/widget"
	"slices"
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
)

// commandLine is the open : command line. Tab completes (the longest common
// prefix first, then cycling through the candidates); Enter runs exactly
// what is typed and never takes a completion that was only shown.
type commandLine struct {
	input      textinput.Model
	candidates []string
	cycle      int    // index of the candidate Tab showed last, -1 before
	cycleBase  string // the text Tab started cycling from
	err        string
}

// commandWords are the commands besides the screen ids.
var commandWords = []string{"sub", "move", "ticket", "quote", "help", "quit"}

func (r *Root) openCommand() {
	in := widget.NewInput()
	in.Prompt = ":"
	in.Placeholder = "sub NAME · ticket ID · quote · screen name — Tab completes"
	in.SetWidth(max(r.width-4, 1))
	r.cmd = &commandLine{input: in, cycle: -1}
	r.relayout()
}

// commandKey handles a key while the command line is open.
func (r *Root) commandKey(msg tea.KeyPressMsg) tea.Cmd {
	c := r.cmd
	switch msg.String() {
	case "esc", "ctrl+c":
		r.cmd = nil
		r.relayout()
		return nil
	case "tab":
		r.complete()
		return nil
	case "enter":
		line := strings.TrimSpace(c.input.Value())
		if line == "" {
			r.cmd = nil
			r.relayout()
			return nil
		}
		cmd, err := r.runCommand(line)
		if err != nil {
			c.err = err.Error()
			return nil
		}
		r.cmd = nil
		r.relayout()
		return cmd
	}
	var cmd tea.Cmd
	c.input, cmd = c.input.Update(msg)
	c.candidates, c.cycle, c.err = nil, -1, ""
	return cmd
}

// verbs are every first word the command line knows.
func (r *Root) verbs() []string {
	v := slices.Clone(commandWords)
	for _, f := range r.factories {
		if !slices.Contains(v, f.ID) {
			v = append(v, f.ID)
		}
	}
	return v
}

// accountNames are the names :sub completes.
func (r *Root) accountNames() []string {
	if r.session == nil {
		return nil
	}
	names := make([]string, 0, len(r.session.Accounts)+1)
	for i, a := range r.session.Accounts {
		if _, isMain := listedAccount(r.session.Accounts, i); isMain {
			names = append(names, "main")
		}
		names = append(names, a.Name)
	}
	return names
}

// namesAccount reports whether verb's argument is an account name.
func namesAccount(verb string) bool { return verb == "sub" || verb == "move" }

// noCandidates says why Tab found nothing for text: for an account name,
// the session's accounts may not be listed (a listed access has its main
// account at least), not yet or not at all (accountsErr).
func (r *Root) noCandidates(text string) string {
	verb, _, hasArg := strings.Cut(text, " ")
	if !hasArg || !namesAccount(strings.ToLower(verb)) || r.session == nil || len(r.session.Accounts) > 0 {
		return "nothing to complete"
	}
	if r.accountsErr != nil {
		return "the accounts could not be listed: " + ErrorText(r.accountsErr)
	}
	return "the accounts are still loading: Tab again in a moment"
}

// completions lists what the text could become.
func (r *Root) completions(text string) []string {
	verb, arg, hasArg := strings.Cut(text, " ")
	if !hasArg {
		var out []string
		for _, v := range r.verbs() {
			if strings.HasPrefix(v, strings.ToLower(verb)) {
				out = append(out, v)
			}
		}
		return out
	}
	verb = strings.ToLower(verb)
	if !namesAccount(verb) {
		return nil
	}
	var out []string
	arg = strings.ToLower(strings.TrimLeft(arg, " "))
	for _, n := range r.accountNames() {
		if strings.HasPrefix(strings.ToLower(n), arg) {
			out = append(out, verb+" "+n)
		}
	}
	if len(out) == 0 && arg != "" {
		// Nothing starts so: a part of the name ("bro" for "Acme
		// Brokerage") completes too.
		for _, n := range r.accountNames() {
			if strings.Contains(strings.ToLower(n), arg) {
				out = append(out, verb+" "+n)
			}
		}
	}
	return out
}

// complete applies Tab: one candidate replaces the text; several extend it
// to their common prefix, and further Tabs cycle through them.
func (r *Root) complete() {
	c := r.cmd
	if c.cycle >= 0 && len(c.candidates) > 1 {
		c.cycle = (c.cycle + 1) % len(c.candidates)
		c.input.SetValue(c.candidates[c.cycle])
		c.input.CursorEnd()
		return
	}
	text := c.input.Value()
	cands := r.completions(text)
	c.candidates, c.err = cands, ""
	switch len(cands) {
	case 0:
		c.err = r.noCandidates(text)
		return
	case 1:
		v := cands[0]
		if v == "sub" || v == "ticket" {
			v += " "
		}
		c.input.SetValue(v)
		c.candidates = nil
	default:
		p := commonPrefix(cands)
		if len(p) > len(text) {
			c.input.SetValue(p)
		} else {
			c.cycleBase = text
			c.cycle = 0
			c.input.SetValue(cands[0])
		}
	}
	c.input.CursorEnd()
}

func commonPrefix(ss []string) string {
	p := ss[0]
	for _, s := range ss[1:] {
		for !strings.HasPrefix(strings.ToLower(s), strings.ToLower(p)) {
			p = p[:len(p)-1]
		}
	}
	return p
}

// runCommand runs a typed command exactly as typed.
func (r *Root) runCommand(line string) (tea.Cmd, error) {
	verb, arg, _ := strings.Cut(line, " ")
	verb, arg = strings.ToLower(verb), strings.TrimSpace(arg)
	switch verb {
	case "q", "quit":
		return r.quit(), nil
	case "help":
		r.help = true
		return nil, nil
	case "sub":
		if r.session == nil {
			return nil, errNotConnected
		}
		if arg == "" {
			return r.openSwitcher(), nil
		}
		acc, err := findAccount(r.session.Accounts, arg)
		if err != nil {
			// A sub-account the list left out: say why it cannot be chosen.
			if b, berr := findAccount(withBlacklisted(r.barred, r.session.Accounts, r.session), arg); berr == nil {
				return nil, errors.New(unoperable(b.Name, barredReason(r.session, b.ID)))
			}
			// Enter never takes a near miss; it says what Tab would give.
			if cands := r.completions("sub " + arg); len(cands) > 0 {
				return nil, fmt.Errorf("no account named %q · Tab: %s", arg, strings.Join(cands, ", "))
			}
			return nil, err
		}
		return r.requestSwitch(acc), nil
	case "move":
		// Move funds to the account named (none: the screen asks which).
		if r.session == nil {
			return nil, errNotConnected
		}
		if r.screenIndex("subaccounts") < 0 {
			return nil, fmt.Errorf("the sub-accounts screen is not available")
		}
		id := ""
		if arg != "" {
			acc, err := findAccount(r.session.Accounts, arg)
			if err != nil {
				if cands := r.completions("move " + arg); len(cands) > 0 {
					return nil, fmt.Errorf("no account named %q · Tab: %s", arg, strings.Join(cands, ", "))
				}
				return nil, err
			}
			id = "main"
			if !acc.Main() {
				id = acc.ID.String()
			}
		}
		return r.navigate(NavigateMsg{Screen: "subaccounts", ID: id, Action: ActionMoveFunds}), nil
	case "ticket":
		if arg == "" {
			return nil, fmt.Errorf("type the ticket id after :ticket")
		}
		if r.screenIndex("tickets") < 0 {
			return nil, fmt.Errorf("the tickets screen is not available")
		}
		return r.navigate(NavigateMsg{Screen: "tickets", ID: arg}), nil
	}
	if i := r.screenIndex(verb); i >= 0 {
		if arg != "" {
			return r.navigate(NavigateMsg{Screen: verb, ID: arg}), nil
		}
		return r.navigate(NavigateMsg{Screen: verb}), nil
	}
	return nil, fmt.Errorf("unknown command %q: Tab completes, :help lists the keys", verb)
}

// commandLineView is the command line itself.
func (r *Root) commandLineView() string { return r.cmd.input.View() }

// commandStatus is the footer under the command line: the error of the
// last Enter, the candidates of the last Tab, or how the line works.
func (r *Root) commandStatus() string {
	c := r.cmd
	t := r.theme
	switch {
	case c.err != "":
		return t.Error.Render("✗ " + c.err)
	case len(c.candidates) > 1:
		shown := make([]string, 0, len(c.candidates))
		for i, s := range c.candidates {
			if i == c.cycle {
				s = t.Selected.Render(s)
			}
			shown = append(shown, s)
		}
		return t.Muted.Render("Tab: ") + strings.Join(shown, t.Muted.Render(" · "))
	}
	return t.HintKey.Render("tab") + t.HintDesc.Render(" complete  ") + t.HintKey.Render("enter") + t.HintDesc.Render(" run as typed  ") + t.HintKey.Render("esc") + t.HintDesc.Render(" cancel")
}
