package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
)

func plain(s string) string { return ansi.Strip(s) }

func TestFirstFrameDoesNotWaitForTheConnection(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	r := New(Options{
		Env:      EnvSandbox,
		Embedded: true,
		Connect: func(ctx context.Context) (*Connection, error) {
			<-release // the keyring or the sandbox is slow
			return nil, context.Canceled
		},
	})
	r.Update(tea.WindowSizeMsg{Width: 100, Height: 32})
	_ = r.Init() // returns commands; the test never runs the connect one
	v := plain(r.View().Content)
	for _, want := range []string{"SANDBOX", "embedded sandbox", "Starting the embedded sandbox"} {
		if !strings.Contains(v, want) {
			t.Errorf("first frame lacks %q:\n%s", want, v)
		}
	}
	if !r.View().AltScreen {
		t.Error("the dashboard must use the alternate screen")
	}
}

func TestHeaderShowsEnvironmentAccessAndAccount(t *testing.T) {
	h := newHarness(t, nil)
	v := plain(h.view())
	head := strings.Split(v, "\n")[0]
	for _, want := range []string{"SANDBOX", "operator@demo.test", "account Tesouro Demo Ltda (main)", "embedded sandbox"} {
		if !strings.Contains(head, want) {
			t.Errorf("header lacks %q: %q", want, head)
		}
	}
	if strings.Contains(head, "RO") || strings.Contains(head, "FROZEN") {
		t.Errorf("header shows a badge that does not apply: %q", head)
	}

	hp := newHarness(t, func(o *Options) { o.Env, o.Embedded, o.Profile = EnvProduction, false, "live" })
	head = strings.Split(plain(hp.view()), "\n")[0]
	if !strings.Contains(head, "PRODUCTION") || !strings.Contains(head, "profile live") {
		t.Errorf("production header: %q", head)
	}
}

func TestReadOnlyHeaderSaysWhyAndHelpHidesGatedActions(t *testing.T) {
	h := newHarness(t, func(o *Options) { o.ReadOnly = true })
	ov := h.screen("overview")
	create := h.root.Session().Gate(Binding("c", "create thing", "c"), ActWrite)
	ov.bindings = []key.Binding{Binding("r", "refresh", "r"), create}
	v := plain(h.view())
	lines := strings.Split(v, "\n")
	if !strings.Contains(lines[0], "RO") {
		t.Errorf("header lacks the RO badge: %q", lines[0])
	}
	if !strings.Contains(v, "read-only session (--readonly)") {
		t.Errorf("no notice says why actions are disabled:\n%s", v)
	}
	h.key("?")
	help := plain(h.view())
	if !strings.Contains(help, "refresh") {
		t.Errorf("help lacks a live binding:\n%s", help)
	}
	if strings.Contains(help, "create thing") {
		t.Errorf("help shows an action the session may not take:\n%s", help)
	}
}

func TestFrozenAndViewOnlyAccessesAreExplained(t *testing.T) {
	h := newHarnessWithAccess(t, apiPermissionsViewOnly())
	v := plain(h.view())
	if !strings.Contains(v, "this access is view-only") {
		t.Errorf("view-only access not explained:\n%s", v)
	}
}

func TestKeysNeverLeakOutOfInputs(t *testing.T) {
	h := newHarness(t, nil)
	// Filter mode: q and ? are text.
	h.key("/")
	if h.root.Mode() != ModeFilter {
		t.Fatalf("/ did not open the filter (mode %s)", h.root.Mode())
	}
	h.typeText("q?")
	if h.quit || h.root.help {
		t.Fatal("a key typed in the filter ran a global action")
	}
	if got := h.screen("overview").filter; got != "q?" {
		t.Errorf("screen filter = %q, want %q", got, "q?")
	}
	h.key("enter")
	if h.root.Mode() != ModeNormal || h.screen("overview").filter != "q?" {
		t.Errorf("enter should keep the filter and leave filter mode")
	}
	h.key("esc")
	if h.screen("overview").filter != "" {
		t.Errorf("esc in normal mode should clear the filter first")
	}

	// Command mode.
	h.key(":")
	h.typeText("q")
	if h.quit {
		t.Fatal("q typed on the command line quit")
	}
	h.key("esc")

	// Form mode: a capturing screen gets q, ?, digits and esc.
	ov := h.screen("overview")
	ov.capturing = true
	h.key("q", "?", "2", ":", "esc")
	if h.quit || h.root.help || h.root.Active().ID() != "overview" || h.root.cmd != nil {
		t.Fatal("a key typed into a form ran a global action")
	}
	if got := strings.Join(ov.keys, " "); got != "q ? 2 : esc" {
		t.Errorf("form got keys %q", got)
	}
	ov.capturing = false
	h.key("q")
	if !h.quit {
		t.Error("q in normal mode should quit")
	}
}

func TestNumberKeysTabAndEscNavigate(t *testing.T) {
	h := newHarness(t, nil)
	h.key("3")
	if id := h.root.Active().ID(); id != "tickets" {
		t.Fatalf("3 showed %s", id)
	}
	h.key("tab")
	if id := h.root.Active().ID(); id != "overview" {
		t.Fatalf("tab wrapped to %s", id)
	}
	h.key("shift+tab")
	if id := h.root.Active().ID(); id != "tickets" {
		t.Fatalf("shift+tab went to %s", id)
	}
	h.key("esc")
	if id := h.root.Active().ID(); id != "overview" {
		t.Fatalf("esc went back to %s", id)
	}
	h.key("9") // no ninth screen: nothing happens
	if id := h.root.Active().ID(); id != "overview" {
		t.Fatalf("9 moved to %s", id)
	}
}

func TestScreenBindingsWinOverGlobalKeysButNotQuit(t *testing.T) {
	h := newHarness(t, nil)
	ov := h.screen("overview")
	ov.bindings = []key.Binding{Binding("esc", "close detail", "esc"), Binding("q", "not allowed", "q")}
	h.key("3", "1") // history: tickets, then back on overview
	h.key("esc")
	if h.root.Active().ID() != "overview" || len(ov.keys) != 1 || ov.keys[0] != "esc" {
		t.Fatalf("esc bound by the screen should reach it (keys %v, active %s)", ov.keys, h.root.Active().ID())
	}
	h.key("q")
	if !h.quit {
		t.Error("q must stay global even when a screen binds it")
	}
}

func TestMessagesReachInactiveScreens(t *testing.T) {
	type loaded struct{ n int }
	h := newHarness(t, nil)
	h.key("3", "2")
	h.send(loaded{7})
	if !h.screen("tickets").sawMsg(loaded{7}) || !h.screen("overview").sawMsg(loaded{7}) {
		t.Error("a result must reach every built screen, shown or not")
	}
}

// Screens are built when first shown: connecting costs the requests of the
// visible screen only, and a switch builds only the visible screen anew.
func TestScreensAreBuiltWhenFirstShown(t *testing.T) {
	h := newHarness(t, nil)
	if n := len(h.built); n != 1 || h.built[0].id != "overview" {
		t.Fatalf("after connecting, %d screens were built, want only the overview", n)
	}
	if !strings.Contains(plain(h.view()), "3 Tickets") {
		t.Fatalf("an unbuilt screen has no tab:\n%s", plain(h.view()))
	}
	h.key("3")
	if n := len(h.built); n != 2 || h.built[1].id != "tickets" || h.built[1].inits != 1 {
		t.Fatalf("showing Tickets built %d screens, want it built and started once", n)
	}
	h.key("1", "3")
	if n := len(h.built); n != 2 {
		t.Fatalf("showing a screen again built it again (%d built)", n)
	}
	h.send(SwitchAccountMsg{Account: Account{ID: betaID, Name: "Beta Individual"}})
	if n := len(h.built); n != 3 || h.built[2].id != "tickets" || h.built[2].s.Account.ID != betaID {
		t.Fatalf("the switch built %d screens in all, want only the visible Tickets anew", n)
	}
}

// An answer asked by a session since replaced never reaches a screen of the
// new one, even one that awaits a request with the same type of answer.
func TestRepliesOfAReplacedSessionAreDropped(t *testing.T) {
	h := newHarness(t, nil)
	old := h.root.Session()
	req, late := Call(old, 0, func(context.Context) (int, error) { return 41, nil })
	h.send(SwitchAccountMsg{Account: Account{ID: betaID, Name: "Beta Individual"}})
	var slot Slot
	_, fresh := Call(h.root.Session(), 0, func(context.Context) (int, error) { return 42, nil })
	slot.Await(req) // even a slot tricked into awaiting the old request
	msg := late()
	h.send(msg)
	if h.screen("overview").sawMsg(msg) {
		t.Fatal("an answer of the replaced session reached the new session's screen")
	}
	h.send(fresh())
	if got := h.screen("overview").msgs; len(got) == 0 {
		t.Fatal("the new session's own answer did not reach its screen")
	}
	if h.root.Session().Owns(msg.(Reply)) {
		t.Fatal("the new session owns an answer of the old one")
	}
}

func TestConfirmDefaultsToNo(t *testing.T) {
	for _, k := range []string{"n", "enter", "esc", "Y", "q"} {
		h := newHarness(t, nil)
		ran := false
		h.send(ConfirmMsg{Title: "Approve?", Body: "100.00 BRL to Ana", OnYes: func() tea.Msg { ran = true; return nil }})
		if !strings.Contains(plain(h.view()), "100.00 BRL to Ana") {
			t.Fatalf("the confirmation must repeat what is confirmed:\n%s", plain(h.view()))
		}
		h.key(k)
		if ran || h.quit {
			t.Errorf("key %q confirmed (or quit)", k)
		}
		if h.root.Mode() != ModeNormal {
			t.Errorf("key %q left mode %s", k, h.root.Mode())
		}
	}
	h := newHarness(t, nil)
	ran := false
	h.send(ConfirmMsg{Title: "Approve?", Body: "x", OnYes: func() tea.Msg { ran = true; return nil }})
	h.key("y")
	if !ran {
		t.Error("y did not confirm")
	}
}

// A confirmation taller than the window says how many of its lines are
// still to be read; y does nothing until every line has been on screen,
// scrolling never closes the box, and then y confirms.
func TestConfirmArmsOnlyOnceEveryLineWasRead(t *testing.T) {
	h := newHarness(t, nil)
	h.send(tea.WindowSizeMsg{Width: 40, Height: 12})
	body := "Amount: 100.00 BRL\nDestination: PIX to Ana\nHolder: Ana Lima\nAccount: main\nFees: none\nRequested by ana\nState as of now\nApproved by: bea\nPair: BRLABRL\nNote: last"
	ran := false
	h.send(ConfirmMsg{Title: "Approve?", Body: body, OnYes: func() tea.Msg { ran = true; return nil }})
	v := plain(h.view())
	if !strings.Contains(v, "Amount: 100.00 BRL") {
		t.Fatalf("a tiny window must keep the start of the body:\n%s", v)
	}
	if strings.Contains(v, "Note: last") {
		t.Fatalf("the whole body fits: the test proves nothing:\n%s", v)
	}
	if !strings.Contains(v, "lines to read before y") {
		t.Fatalf("the confirmation hides lines without saying how many:\n%s", v)
	}
	h.key("y")
	if ran {
		t.Fatal("y approved what was never on screen")
	}
	if h.root.Mode() != ModePrompt {
		t.Fatal("an early y closed the confirmation")
	}
	for i := 0; i < 10 && !strings.Contains(plain(h.view()), "Note: last"); i++ {
		h.key("down")
		if h.root.Mode() != ModePrompt {
			t.Fatal("scrolling closed the confirmation")
		}
	}
	v = plain(h.view())
	if !strings.Contains(v, "Note: last") || !strings.Contains(v, "y confirm") {
		t.Fatalf("scrolled to the end, the last line and y must show:\n%s", v)
	}
	h.key("y")
	if !ran {
		t.Fatal("y did not confirm once every line was read")
	}
}

// PgDn and space scroll by a page; esc and n cancel at any point.
func TestConfirmScrollsByPagesAndCancels(t *testing.T) {
	for _, cancel := range []string{"esc", "n"} {
		h := newHarness(t, nil)
		h.send(tea.WindowSizeMsg{Width: 40, Height: 12})
		lines := make([]string, 30)
		for i := range lines {
			lines[i] = fmt.Sprintf("line %02d", i)
		}
		ran := false
		h.send(ConfirmMsg{Title: "Pay?", Body: strings.Join(lines, "\n"), OnYes: func() tea.Msg { ran = true; return nil }})
		h.key("pgdown")
		h.key("space")
		if h.root.Mode() != ModePrompt {
			t.Fatal("paging closed the confirmation")
		}
		if v := plain(h.view()); !strings.Contains(v, "line 14") || strings.Contains(v, "line 00") {
			t.Fatalf("two pages down, the window should be well past the start:\n%s", v)
		}
		h.key(cancel)
		if ran || h.root.Mode() != ModeNormal {
			t.Fatalf("%s did not cancel", cancel)
		}
	}
}

func TestPromptValidatesBeforeSubmitting(t *testing.T) {
	h := newHarness(t, nil)
	var got string
	h.send(PromptMsg{Title: "Reason", Validate: func(s string) error {
		if s == "" {
			return errString("type a reason")
		}
		return nil
	}, OnSubmit: func(s string) tea.Cmd { got = s; return nil }})
	h.key("enter")
	if got != "" || h.root.prompt == nil || !strings.Contains(plain(h.view()), "type a reason") {
		t.Fatalf("an invalid prompt was submitted or not explained:\n%s", plain(h.view()))
	}
	h.typeText("wrong beneficiary q")
	h.key("enter")
	if got != "wrong beneficiary q" {
		t.Errorf("submitted %q", got)
	}
	if h.quit {
		t.Error("q typed in a prompt quit")
	}
}

type errString string

func (e errString) Error() string { return string(e) }

func TestQuitAsksWhenAFlowIsUnderWay(t *testing.T) {
	h := newHarness(t, nil)
	h.key("2", "1")
	h.screen("quote").busy = true
	h.key("q")
	if h.quit {
		t.Fatal("quit without asking while a flow is under way")
	}
	if !strings.Contains(plain(h.view()), "Quit Tesouro?") {
		t.Fatalf("no question asked:\n%s", plain(h.view()))
	}
	h.key("n")
	if h.quit {
		t.Fatal("n quit")
	}
	h.key("q", "y")
	if !h.quit {
		t.Fatal("y did not quit")
	}
}

func TestCommandLineCompletesButEnterNeverAcceptsSilently(t *testing.T) {
	h := newHarness(t, nil)
	first := h.root.Session()
	h.key(":")
	h.typeText("sub acm")
	h.key("enter")
	if h.root.Session() != first {
		t.Fatal("Enter accepted a completion that was never shown")
	}
	if !strings.Contains(plain(h.view()), `no account named "acm"`) {
		t.Fatalf("no error for an unknown name:\n%s", plain(h.view()))
	}
	h.key("tab")
	if got := h.root.cmd.input.Value(); got != "sub Acme Pagamentos" {
		t.Fatalf("Tab completed to %q", got)
	}
	h.key("enter")
	s := h.root.Session()
	if s == first || s.Account.ID != acmeID {
		t.Fatalf("did not switch to Acme (account %v)", s.Account)
	}
	head := strings.Split(plain(h.view()), "\n")[0]
	if !strings.Contains(head, "account Acme Pagamentos") {
		t.Errorf("header does not show the new account: %q", head)
	}
}

func TestCommandCompletesVerbsAndCycles(t *testing.T) {
	h := newHarness(t, nil)
	h.key(":")
	h.typeText("t")
	h.key("tab")
	if got := h.root.cmd.input.Value(); got != "ticket" && got != "tickets" {
		t.Fatalf("t<Tab> = %q", got)
	}
	h.key("esc")
	h.key(":")
	h.typeText("tickets")
	h.key("enter")
	if h.root.Active().ID() != "tickets" {
		t.Errorf(":tickets showed %s", h.root.Active().ID())
	}
	h.key(":")
	h.typeText("ticket 1234")
	h.key("enter")
	var nav NavigateMsg
	for _, m := range h.screen("tickets").msgs {
		if n, ok := m.(NavigateMsg); ok {
			nav = n
		}
	}
	if nav.ID != "1234" {
		t.Errorf(":ticket ID did not reach the tickets screen: %+v", nav)
	}
	h.key(":")
	h.typeText("bogus")
	h.key("enter")
	if !strings.Contains(plain(h.view()), `unknown command "bogus"`) {
		t.Errorf("unknown command not reported:\n%s", plain(h.view()))
	}
}

func TestSwitchRebuildsEveryScreenAndDropsTheFlow(t *testing.T) {
	h := newHarness(t, nil)
	h.key("3", "2")
	old := h.root.Session()
	quote := h.screen("quote")
	quote.busy = true // a quote in progress
	h.send(SwitchAccountMsg{Account: Account{ID: betaID, Name: "Beta Individual"}})
	if !strings.Contains(plain(h.view()), "Switch to Beta Individual?") {
		t.Fatalf("switching with a quote in progress must ask:\n%s", plain(h.view()))
	}
	h.key("y")
	s := h.root.Session()
	if s == old || s.Account.ID != betaID {
		t.Fatalf("not switched: %+v", s.Account)
	}
	for _, sc := range h.root.Screens() {
		if sc == nil {
			continue // built anew when shown
		}
		st := sc.(*stubScreen)
		if st.s != s {
			t.Errorf("screen %s still holds the old session", st.id)
		}
		if st.inits != 1 {
			t.Errorf("screen %s was not started (%d inits)", st.id, st.inits)
		}
	}
	if h.screen("quote").busy {
		t.Error("the quote in progress survived the switch")
	}
	if old.Account.ID != uuid.Nil {
		t.Error("the old session was modified")
	}
}

// TestSwitchAndCloseEndWhatAScreenHolds: a screen holding something (a
// Tickets export writing its file) is ended before an account switch
// drops it, with the switch's toast saying what was stopped, and again
// when the program ends.
func TestSwitchAndCloseEndWhatAScreenHolds(t *testing.T) {
	h := newHarness(t, nil)
	h.key("3")
	tickets := h.screen("tickets")
	tickets.busy, tickets.holding = true, "Tickets export stopped after 50 tickets; nothing was saved"
	h.send(SwitchAccountMsg{Account: Account{ID: betaID, Name: "Beta Individual"}})
	if v := plain(h.view()); !strings.Contains(v, "Switch to Beta Individual?") || !strings.Contains(v, "Tickets") {
		t.Fatalf("switching during an export must ask first, naming the screen:\n%s", v)
	}
	if v := plain(h.view()); strings.Contains(v, "quote") {
		t.Fatalf("the question about an export speaks of a quote:\n%s", v)
	}
	if tickets.ends != 0 {
		t.Fatal("the export was ended before the switch was confirmed")
	}
	h.key("y")
	if tickets.ends != 1 {
		t.Fatalf("the old screen was ended %d times by the switch, want once", tickets.ends)
	}
	if v := plain(h.view()); !strings.Contains(v, "Now operating Beta Individual · Tickets export stopped after 50 tickets; nothing was saved") {
		t.Fatalf("the switch does not say what it stopped:\n%s", v)
	}
	now := h.screen("tickets")
	if now == tickets {
		t.Fatal("the screen was not built anew")
	}
	now.holding = "Tickets export stopped after 3 tickets; nothing was saved"
	if err := h.root.Close(); err != nil {
		t.Fatal(err)
	}
	if now.ends != 1 || now.holding != "" {
		t.Fatalf("the program's end did not end the screen (%d ends)", now.ends)
	}
}

func TestBlacklistedAccountsCannotBeOperated(t *testing.T) {
	h := newHarness(t, nil)
	old := h.root.Session()
	h.key(":")
	h.typeText("sub Banned Branch")
	h.key("enter")
	if h.root.Session() != old {
		t.Fatal("switched to a blacklisted account")
	}
	if !strings.Contains(plain(h.view()), "blacklisted") {
		t.Errorf("no reason shown:\n%s", plain(h.view()))
	}
}

func TestSwitcherPopupFiltersFuzzilyAndDisablesBlacklisted(t *testing.T) {
	h := newHarness(t, nil)
	h.key("S")
	if h.root.switcher == nil {
		t.Fatal("S did not open the switcher")
	}
	v := plain(h.view())
	for _, want := range []string{"Acme Pagamentos", "Beta Individual", "Banned Branch", "blacklisted", "current"} {
		if !strings.Contains(v, want) {
			t.Errorf("switcher lacks %q:\n%s", want, v)
		}
	}
	h.typeText("bind") // fuzzy: B-eta I-N-D-ividual
	if got := h.root.switcher.accountChoices(); len(got) == 0 || got[0] != "Beta Individual" {
		t.Fatalf("fuzzy filter gave %v", got)
	}
	h.key("enter")
	if h.root.Session().Account.ID != betaID {
		t.Fatalf("enter did not switch: %+v", h.root.Session().Account)
	}
	// The blacklisted one cannot be chosen.
	h.key("S")
	h.typeText("banned")
	h.key("enter")
	if h.root.Session().Account.ID == banID {
		t.Fatal("switched to a blacklisted account from the popup")
	}
}

func TestEveryFrameFitsDownTo40x12AndBelow(t *testing.T) {
	h := newHarness(t, nil)
	h.send(ToastMsg{Text: strings.Repeat("long toast ", 20), Level: ToastError})
	sizes := [][2]int{{100, 32}, {40, 12}, {39, 11}, {20, 5}, {10, 3}, {1, 1}, {0, 0}, {200, 60}}
	states := []func(){
		func() {},
		func() { h.key("?") },
		func() { h.key("esc", ":") },
		func() { h.key("esc"); h.send(ConfirmMsg{Title: "Approve?", Body: strings.Repeat("amount ", 40)}) },
		func() { h.key("n", "S") },
	}
	for _, st := range states {
		st()
		for _, sz := range sizes {
			h.send(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
			v := h.view()
			lines := strings.Split(v, "\n")
			if sz[1] > 0 && len(lines) > sz[1] {
				t.Errorf("%dx%d (mode %s): %d lines", sz[0], sz[1], h.root.Mode(), len(lines))
			}
			for i, l := range lines {
				if w := lipgloss.Width(l); w > sz[0] {
					t.Errorf("%dx%d (mode %s): line %d is %d wide: %q", sz[0], sz[1], h.root.Mode(), i, w, plain(l))
				}
			}
		}
	}
	h.send(tea.WindowSizeMsg{Width: 40, Height: 12})
	h.key("esc")
	v := plain(h.view())
	if !strings.Contains(v, "SANDBOX") {
		t.Errorf("the environment badge must show at 40x12:\n%s", v)
	}
	if n := len(strings.Split(v, "\n")); n != 12 {
		t.Errorf("40x12 frame has %d lines", n)
	}
}

func TestNoColorEmitsNoColourButKeepsTheSelection(t *testing.T) {
	th := NewTheme(true, true)
	out := th.Selected.Render("row") + th.Sandbox.Render("SANDBOX") + th.Bad.Render("FAILED") + th.ActiveTab.Render("1 Overview")
	if strings.Contains(out, "38;") || strings.Contains(out, "48;") || strings.Contains(out, "[3") && strings.Contains(out, "m") && hasColourSGR(out) {
		t.Errorf("NO_COLOR theme emits colour: %q", out)
	}
	if !strings.Contains(th.Selected.Render("row"), "\x1b[7m") {
		t.Errorf("selection must be reverse video without colour: %q", th.Selected.Render("row"))
	}
	h := newHarness(t, func(o *Options) { o.NoColor = true })
	v := h.view()
	if hasColourSGR(v) {
		t.Errorf("frame under NO_COLOR has colour codes: %q", v)
	}
	if !strings.Contains(plain(v), "[SANDBOX]") {
		t.Errorf("badge must read as a badge without colour:\n%s", plain(v))
	}
}

// hasColourSGR reports a foreground or background colour parameter in any
// SGR sequence.
func hasColourSGR(s string) bool {
	for {
		i := strings.Index(s, "\x1b[")
		if i < 0 {
			return false
		}
		s = s[i+2:]
		j := strings.IndexByte(s, 'm')
		if j < 0 {
			return false
		}
		for _, p := range strings.Split(s[:j], ";") {
			if len(p) == 2 && (p[0] == '3' || p[0] == '4' || p[0] == '9') && p[1] != '9' {
				return true
			}
		}
		s = s[j:]
	}
}

func TestThemeFollowsTheTerminalBackground(t *testing.T) {
	h := newHarness(t, nil)
	h.send(tea.BackgroundColorMsg{Color: lipgloss.Color("#ffffff")})
	if h.root.Theme().Dark {
		t.Error("a white background should give the light theme")
	}
	if h.root.Session().Theme != h.root.Theme() {
		t.Error("screens must share the root's theme")
	}
	if !h.screen("overview").sawMsg(ThemeChangedMsg{}) {
		t.Error("screens were not told the theme changed")
	}
}

func TestToastsAndInFlightShowInTheFooter(t *testing.T) {
	h := newHarness(t, nil)
	h.send(ToastMsg{Text: "Copied ticket id", Level: ToastSuccess})
	lines := strings.Split(plain(h.view()), "\n")
	foot := lines[len(lines)-1]
	if !strings.Contains(foot, "✓ Copied ticket id") {
		t.Errorf("footer lacks the toast: %q", foot)
	}
	h.root.Session().inFlight.Add(2)
	lines = strings.Split(plain(h.view()), "\n")
	if foot = lines[len(lines)-1]; !strings.Contains(foot, "2 in flight") {
		t.Errorf("footer lacks the in-flight count: %q", foot)
	}
	h.root.Session().inFlight.Add(-2)
}

// A toast keeps the key hints beside it, and stays with the screen it
// told of.
func TestToastKeepsHintsAndStaysOnItsScreen(t *testing.T) {
	h := newHarness(t, nil)
	h.send(ToastMsg{Text: "Copied ticket id", Level: ToastSuccess})
	foot := lastLine(plain(h.view()))
	if !strings.Contains(foot, "✓ Copied ticket id") || !strings.Contains(foot, "q quit") {
		t.Fatalf("the footer should show the toast and the hints: %q", foot)
	}
	h.key("3")
	foot = lastLine(plain(h.view()))
	if !strings.Contains(foot, "q quit") {
		t.Fatalf("no hints on Tickets: %q", foot)
	}
	if strings.Contains(foot, "Copied ticket id") {
		t.Fatalf("the Overview's toast followed the user to Tickets: %q", foot)
	}
}

func lastLine(s string) string {
	lines := strings.Split(s, "\n")
	return lines[len(lines)-1]
}

func TestSubAccountFlagResolvesByNameBeforeBuildingScreens(t *testing.T) {
	h := newHarness(t, func(o *Options) { o.SubAccount = "beta individual" })
	s := h.root.Session()
	if s.Account.ID != betaID {
		t.Fatalf("operating %+v, want Beta", s.Account)
	}
	for _, sc := range h.built {
		if sc.s.Account.ID != betaID {
			t.Errorf("a screen was built for another account: %+v", sc.s.Account)
		}
	}
	h2 := newHarness(t, func(o *Options) { o.SubAccount = "nope" })
	if len(h2.root.Screens()) != 0 {
		t.Error("screens were built although the sub-account does not exist")
	}
	if !strings.Contains(plain(h2.view()), `no account named "nope"`) {
		t.Errorf("unknown sub-account not explained:\n%s", plain(h2.view()))
	}
	// The header says so too, instead of resolving for ever.
	if head := strings.SplitN(plain(h2.view()), "\n", 2)[0]; !strings.Contains(head, "nope (not found)") || strings.Contains(head, "resolving") {
		t.Errorf("header after the lookup failed: %q", head)
	}
	// Choosing the main account from the switcher recovers.
	h2.key("S", "enter")
	if len(h2.root.Screens()) == 0 || !h2.root.Session().Account.Main() {
		t.Errorf("choosing the main account after a failed --sub-account built no screens")
	}
}

// The tab bar is chosen from the width alone: showing another screen
// changes which tab is marked, never a label or a position.
func TestTabsAreTheSameOnEveryScreen(t *testing.T) {
	h := twelveScreens(t)
	for _, w := range []int{160, 120, 100, 80, 60, 40} {
		h.send(tea.WindowSizeMsg{Width: w, Height: 24})
		var first string
		for _, k := range []string{"1", "4", "0", "-", "=", "3"} {
			h.key(k)
			tabs := strings.Split(plain(h.view()), "\n")[1]
			if lipgloss.Width(tabs) > w {
				t.Fatalf("width %d: the bar is %d cells wide: %q", w, lipgloss.Width(tabs), tabs)
			}
			// Below the full titles the shown screen's title follows the
			// tabs: the tabs themselves must not change.
			bar := strings.TrimSuffix(strings.TrimRight(tabs, " "), "  "+twelveTitles[h.root.active])
			if first == "" {
				first = bar
			} else if bar != first {
				t.Errorf("width %d: the bar changed with screen %s:\n%q\n%q", w, k, first, bar)
			}
		}
		if w != 80 && !strings.Contains(strings.Split(plain(h.view()), "\n")[1], "Tickets") {
			t.Errorf("width %d: the bar does not name the shown screen", w)
		}
	}
}

// Every screen has a key, Batch and Statement included, and help lists
// each screen with its key.
func TestEveryScreenHasAKeyListedInHelp(t *testing.T) {
	h := twelveScreens(t)
	for i, k := range []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "-", "="} {
		h.key(k)
		if got := h.root.activeID(); got != strings.ToLower(twelveTitles[i]) {
			t.Errorf("key %s shows %s, want %s", k, got, twelveTitles[i])
		}
	}
	h.send(tea.WindowSizeMsg{Width: 120, Height: 40})
	h.key("?")
	v := plain(h.view())
	for _, want := range []string{"-  Batch", "=  Statement", "1  Overview", "0  Accesses"} {
		if !strings.Contains(v, want) {
			t.Errorf("help lacks %q:\n%s", want, v)
		}
	}
}

func TestFrozenAccessShowsTheBadgeAndWhy(t *testing.T) {
	h := &harness{t: t, fake: newFake()}
	h.fake.access.FrozenUntil = api.NewTime(time.Now().Add(2 * time.Hour))
	h.newRoot(Options{
		Connect: func(ctx context.Context) (*Connection, error) {
			return &Connection{Client: h.fake, Screens: overviewOnly()}, nil
		},
	})
	h.send(tea.WindowSizeMsg{Width: 100, Height: 32})
	h.run(h.root.Init())
	v := plain(h.view())
	lines := strings.Split(v, "\n")
	if !strings.Contains(lines[0], "FROZEN") {
		t.Errorf("header lacks FROZEN: %q", lines[0])
	}
	if !strings.Contains(v, "this access is frozen until") {
		t.Errorf("no notice says why writes are disabled:\n%s", v)
	}
	if err := h.root.Session().Can(ActCreateTicket); err == nil {
		t.Error("a frozen access may create tickets")
	}
}

// An approver with no money permissions is told, in words, what it lacks
// and that it may not create tickets (not "lacks tickets", which is no
// permission's name).
func TestNoticeNamesMissingPermissionsAndTickets(t *testing.T) {
	h := &harness{t: t, fake: newFake()}
	h.fake.access.AccountPermissions = api.Permissions{OperationApprover: true}
	h.newRoot(Options{
		Connect: func(ctx context.Context) (*Connection, error) {
			return &Connection{Client: h.fake, Screens: overviewOnly()}, nil
		},
	})
	h.send(tea.WindowSizeMsg{Width: 160, Height: 32})
	h.run(h.root.Init())
	want := "this access lacks payOut, markup, beneficiary; it may not create tickets: those actions are hidden"
	if v := plain(h.view()); !strings.Contains(v, want) {
		t.Errorf("no notice %q:\n%s", want, v)
	}
}

// accountChoices are the switcher's rows, best match first.
func (sw *switcher) accountChoices() []string {
	out := make([]string, 0, len(sw.shown))
	for _, i := range sw.shown {
		out = append(out, sw.all[i].account.Name)
	}
	return out
}

// From 80 columns up every screen keeps a name on its tab, so none of the
// ten is undiscoverable.
func TestEveryTabKeepsANameFrom80Columns(t *testing.T) {
	titles, shorts := twelveTitles, twelveShorts
	h := twelveScreens(t)
	r := h.root
	for _, w := range []int{80, 100, 120} {
		h.send(tea.WindowSizeMsg{Width: w, Height: 24})
		h.run(r.Init())
		for _, k := range []string{"5", "0", "1"} {
			h.key(k)
			tabs := strings.Split(plain(h.view()), "\n")[1]
			for i := range titles {
				if !strings.Contains(tabs, shorts[i]) && !strings.Contains(tabs, titles[i]) {
					t.Errorf("width %d, screen %s shown: tab %d has no name: %q", w, k, i+1, tabs)
				}
			}
			// Screens past the tenth have no digit key: none is shown
			// for them (a "1" or "2" before them would open Overview or
			// Quote).
			if strings.Contains(tabs, "1 Bat") || strings.Contains(tabs, "2 Stmt") || strings.Contains(tabs, "2 Statement") {
				t.Errorf("width %d: a tab past the tenth shows a digit key: %q", w, tabs)
			}
		}
	}
}

// When the access info fails to load, writes stay disabled only until it
// loads: it is retried on its own with a growing wait, and at once on r.
func TestAccessInfoIsRetriedAfterAFailure(t *testing.T) {
	h := &harness{t: t, fake: newFake()}
	h.fake.accessFails = 2
	h.newRoot(Options{Connect: func(ctx context.Context) (*Connection, error) {
		return &Connection{Client: h.fake, Screens: overviewOnly()}, nil
	}, Heartbeat: -1}) // the heartbeat's own asks are not retries
	h.send(tea.WindowSizeMsg{Width: 120, Height: 30})
	h.run(h.root.Init())
	if h.root.Session().Access != nil || !strings.Contains(plain(h.view()), "retrying in 2s") {
		t.Fatalf("the failure is not told with the retry:\n%s", plain(h.view()))
	}
	h.advance(2 * time.Second)
	if h.fake.accessAsks != 2 || h.root.Session().Access != nil {
		t.Fatalf("after 2s: %d asks, access %v; want a second (failing) ask", h.fake.accessAsks, h.root.Session().Access)
	}
	h.key("r")
	if h.fake.accessAsks != 3 || h.root.Session().Access == nil {
		t.Fatalf("r did not retry at once: %d asks", h.fake.accessAsks)
	}
	if err := h.root.Session().Can(ActCreateTicket); err != nil {
		t.Fatalf("writes still disabled once the access loaded: %v", err)
	}
	h.advance(time.Minute)
	if h.fake.accessAsks != 3 {
		t.Fatalf("asked again after it loaded: %d asks", h.fake.accessAsks)
	}
}

// TestSwitcherTellsAFailedLoadWithoutThePath: the accounts cannot be
// listed; the switcher says what the service said, not the request line.
func TestSwitcherTellsAFailedLoadWithoutThePath(t *testing.T) {
	h := &harness{t: t, fake: newFake()}
	h.fake.accountsErr = &api.Error{Status: 403, Message: "not allowed here", Method: "GET", Path: "/v2/account/accounts"}
	h.newRoot(Options{Connect: func(ctx context.Context) (*Connection, error) {
		return &Connection{Client: h.fake, Screens: overviewOnly()}, nil
	}})
	h.send(tea.WindowSizeMsg{Width: 120, Height: 30})
	h.run(h.root.Init())
	h.key("S")
	v := plain(h.view())
	if !strings.Contains(v, "could not list accounts: not allowed here (HTTP 403)") || strings.Contains(v, "/v2/") {
		t.Fatalf("the switcher's error:\n%s", v)
	}
}

var (
	twelveTitles = []string{"Overview", "Quote", "Tickets", "Approvals", "Beneficiaries", "Sub-accounts", "Trades", "Compliance", "Webhooks", "Accesses", "Batch", "Statement"}
	twelveShorts = []string{"Home", "Qte", "Tkts", "Appr", "Bnfs", "Subs", "Trds", "Comp", "Hook", "Accs", "Bat", "Stmt"}
)

// twelveScreens is a dashboard of stub screens with the real titles.
func twelveScreens(t *testing.T) *harness {
	var screens []Factory
	for i, title := range twelveTitles {
		id := strings.ToLower(title)
		screens = append(screens, Factory{ID: id, Title: title, Short: twelveShorts[i], New: func(s *Session) Screen {
			return &stubScreen{id: id, title: title, s: s}
		}})
	}
	fake := newFake()
	h := &harness{t: t, fake: fake}
	r := h.newRoot(Options{Connect: func(ctx context.Context) (*Connection, error) {
		return &Connection{Client: fake, Screens: screens}, nil
	}})
	h.send(tea.WindowSizeMsg{Width: 100, Height: 24})
	h.run(r.Init())
	return h
}

// q on the help screen closes help; it does not quit.
func TestQClosesHelpInsteadOfQuitting(t *testing.T) {
	h := newHarness(t, nil)
	h.key("?")
	if h.root.Mode() != ModeHelp {
		t.Fatal("? did not open help")
	}
	h.key("q")
	if h.quit || h.root.Mode() != ModeNormal {
		t.Fatalf("q on help: quit %v, mode %s", h.quit, h.root.Mode())
	}
}

// :sub with a part of a name: Tab completes it ("pag" is in "Acme
// Pagamentos"), and Enter on the part says what Tab gives rather than
// taking it silently.
func TestSubCompletesAPartOfTheName(t *testing.T) {
	h := newHarness(t, nil)
	first := h.root.Session()
	h.key(":")
	h.typeText("sub pag")
	h.key("enter")
	if h.root.Session() != first {
		t.Fatal("Enter took a near miss")
	}
	if v := plain(h.view()); !strings.Contains(v, "Tab: sub Acme Pagamentos") {
		t.Fatalf("Enter does not say what Tab gives:\n%s", v)
	}
	h.key("tab")
	if got := h.root.cmd.input.Value(); got != "sub Acme Pagamentos" {
		t.Fatalf("Tab completed to %q", got)
	}
	h.key("enter")
	if s := h.root.Session(); s.Account.ID != acmeID {
		t.Fatalf("did not switch to Acme (account %v)", s.Account)
	}
}

// Enter in the switcher on a blacklisted match, or on no match, says why
// in the popup itself.
func TestSwitcherEnterOnADisabledMatchSaysWhy(t *testing.T) {
	h := newHarness(t, nil)
	h.key("S")
	h.typeText("banned")
	h.key("enter")
	if v := plain(h.view()); !strings.Contains(v, "✗") || !strings.Contains(v, "Banned Branch") || !strings.Contains(v, "blacklisted") {
		t.Fatalf("enter on a blacklisted account said nothing in the popup:\n%s", v)
	}
	h.typeText("zzz")
	h.key("enter")
	if v := plain(h.view()); !strings.Contains(v, `no account matches "bannedzzz"`) {
		t.Fatalf("enter on no match said nothing:\n%s", v)
	}
}

// The footer shows whole hints, as many as fit, never one cut short.
func TestFooterHintsAreNeverCut(t *testing.T) {
	h := newHarness(t, nil)
	sc := h.screen("overview")
	sc.bindings = []key.Binding{Binding("n", "new quote", "n"), Binding("e", "edit the amount", "e"), Binding("a", "auto re-quote", "a")}
	for _, w := range []int{40, 60, 80, 120} {
		h.send(tea.WindowSizeMsg{Width: w, Height: 24})
		lines := strings.Split(plain(h.view()), "\n")
		foot := lines[len(lines)-1]
		if strings.Contains(foot, "…") {
			t.Errorf("width %d: a hint is cut: %q", w, foot)
		}
		if !strings.Contains(foot, "n new quote") {
			t.Errorf("width %d: the first hint is not whole: %q", w, foot)
		}
	}
}

// Tab on :sub before the accounts are listed, or after their listing
// failed, says so rather than "nothing to complete", which would read as
// no such account.
func TestSubCompletionSaysWhenTheAccountsAreNotKnown(t *testing.T) {
	h := newHarness(t, nil)
	s := h.root.Session()
	s.Accounts = nil // as between the access's answer and the accounts'
	h.key(":")
	h.typeText("sub pag")
	h.key("tab")
	if v := plain(h.view()); !strings.Contains(v, "the accounts are still loading") {
		t.Fatalf("Tab before the accounts are listed:\n%s", v)
	}
	h.send(accountsMsg{session: s, err: errors.New("connection reset by peer")})
	h.key("tab")
	if v := plain(h.view()); !strings.Contains(v, "the accounts could not be listed") || !strings.Contains(v, "connection reset") {
		t.Fatalf("Tab after the accounts failed to list:\n%s", v)
	}
	h.send(accountsMsg{session: s, accounts: h.fake.accounts})
	h.key("tab")
	if got := h.root.cmd.input.Value(); got != "sub Acme Pagamentos" {
		t.Fatalf("Tab once the accounts are listed completed to %q", got)
	}
}
