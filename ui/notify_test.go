package ui

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// watchHarness is the stub dashboard with a fourth screen, "inbox", that
// watches: it is built with the session, not when first shown.
func watchHarness(t *testing.T, n NotifyOptions) *harness {
	t.Helper()
	return newHarness(t, func(o *Options) {
		o.Notify = n
		connect := o.Connect
		o.Connect = func(ctx context.Context) (*Connection, error) {
			c, err := connect(ctx)
			if err != nil {
				return nil, err
			}
			c.Screens = append(c.Screens, Factory{ID: "inbox", Title: "Inbox", Watch: true, New: func(s *Session) Screen {
				return &stubScreen{id: "inbox", title: "Inbox", s: s}
			}})
			return c, nil
		}
	})
}

// raw is what the screens saw of the escape sequences written to the
// terminal (the harness delivers the program's messages to the root).
func (h *harness) raw() string {
	var b strings.Builder
	for _, m := range h.screen("overview").msgs {
		if r, ok := m.(tea.RawMsg); ok {
			b.WriteString(r.Msg.(string))
		}
	}
	return b.String()
}

func TestAWatchingScreenIsBuiltAtOnceAndToldWhatIsShown(t *testing.T) {
	h := watchHarness(t, NotifyOptions{})
	in := h.screen("inbox")
	if in.inits != 1 || len(h.built) != 1 || h.root.Screens()[2] != nil {
		t.Fatalf("only the Overview and the watching screen must be built (%d stubs, %d inits)", len(h.built), in.inits)
	}
	if !in.sawMsg(ShownMsg{Screen: "overview"}) {
		t.Fatalf("the watching screen was not told the Overview is shown: %+v", in.msgs)
	}
	h.key("3")
	if !in.sawMsg(ShownMsg{Screen: "tickets"}) || !h.screen("tickets").sawMsg(ShownMsg{Screen: "tickets"}) {
		t.Fatal("showing Tickets was not told to every screen, the new one included")
	}
	h.key("esc")
	if n := len(in.msgs); in.msgs[n-1] != (ShownMsg{Screen: "overview"}) {
		t.Fatalf("going back was not told: %+v", in.msgs[n-1])
	}
}

func TestNewsIsToldOnTheScreenShownWithBellAndDesktop(t *testing.T) {
	h := watchHarness(t, NotifyOptions{Protocol: "osc777"})
	h.key("3")
	h.run(h.screen("inbox").s.Notify("Tesouro: approval needed", "New operation; to approve"))
	if foot := lastLine(plain(h.view())); !strings.Contains(foot, "New operation; to approve") {
		t.Fatalf("the news is not in the footer of the screen shown: %q", foot)
	}
	if got, want := h.raw(), "\a\x1b]777;notify;Tesouro: approval needed;New operation  to approve\x07"; got != want {
		t.Fatalf("written to the terminal %q, want the bell and OSC 777 %q", got, want)
	}
}

func TestEachWayOfTellingNewsCanBeTurnedOff(t *testing.T) {
	h := watchHarness(t, NotifyOptions{Protocol: "osc9", NoBell: true})
	h.run(h.screen("inbox").s.Notify("T", "first news"))
	if got := h.raw(); got != "\x1b]9;T: first news\x07" {
		t.Fatalf("with the bell off, wrote %q", got)
	}
	h = watchHarness(t, NotifyOptions{Protocol: "osc9", NoToast: true, NoBell: true, NoDesktop: true})
	h.run(h.screen("inbox").s.Notify("T", "second news"))
	if h.raw() != "" || strings.Contains(plain(h.view()), "second news") {
		t.Fatalf("everything off, yet told: %q", h.raw())
	}
	// Where the terminal is not known to take a desktop notification
	// (tmux), none is sent.
	env := map[string]string{"TMUX": "/tmp/tmux-1/default,1,0", "TERM_PROGRAM": "iTerm.app"}
	if p := DesktopProtocol(func(k string) string { return env[k] }); p != "" {
		t.Fatalf("inside tmux the protocol is %q, want none", p)
	}
	if p := DesktopProtocol(func(k string) string { return map[string]string{"TERM_PROGRAM": "WezTerm"}[k] }); p != "osc9" {
		t.Fatalf("WezTerm: %q", p)
	}
}
