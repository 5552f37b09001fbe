package ui_test

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/sandbox"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/views/accesses"
	"github.com/tesouro-treasury/tesouro/views/overview"
	"github.com/tesouro-treasury/tesouro/views/subaccounts"
)

// embeddedOptions are the dashboard's options in sandbox mode, as
// `tesouro --sandbox` builds them.
func embeddedOptions(closers *[]func() error) ui.Options {
	return ui.Options{
		Env:      ui.EnvSandbox,
		Embedded: true,
		Funding:  true,
		Connect: func(ctx context.Context) (*ui.Connection, error) {
			r, err := sandbox.Start(sandbox.Config{Seed: 1, AnswerBeforeHistory: true}, "127.0.0.1:0")
			if err != nil {
				return nil, err
			}
			*closers = append(*closers, r.Close)
			acc, _ := r.Creds.Access("operator")
			auth, err := api.NewAPIKeyAuth(acc.APIKey, []byte(acc.PrivateKeyPEM))
			if err != nil {
				return nil, err
			}
			cl, err := api.New(r.BaseURL, auth)
			if err != nil {
				return nil, err
			}
			screens := []ui.Factory{
				{ID: "overview", Title: "Overview", New: func(s *ui.Session) ui.Screen { return overview.New(s, cl) }},
				{ID: "subaccounts", Title: "Sub-accounts", New: func(s *ui.Session) ui.Screen { return subaccounts.New(s, cl) }},
				{ID: "accesses", Title: "Accesses", New: func(s *ui.Session) ui.Screen { return accesses.New(s, cl, nil) }},
			}
			return &ui.Connection{Client: cl, Email: acc.Email, Close: r.Close, Screens: screens}, nil
		},
	}
}

// drive runs the program loop without a terminal: commands run
// concurrently, their messages go through Update one at a time, until done
// reports true for the current frame.
func drive(tb testing.TB, root *ui.Root, first tea.Cmd, done func(frame string) bool) string {
	tb.Helper()
	msgs := make(chan tea.Msg, 256)
	start := func(c tea.Cmd) {
		if c == nil {
			return
		}
		go func() { msgs <- c() }()
	}
	start(first)
	deadline := time.After(20 * time.Second)
	for {
		frame := root.View().Content
		if done(frame) {
			return frame
		}
		select {
		case msg := <-msgs:
			switch m := msg.(type) {
			case nil:
			case tea.BatchMsg:
				for _, c := range m {
					start(c)
				}
			default:
				_, c := root.Update(m)
				start(c)
			}
		case <-deadline:
			tb.Fatalf("no frame satisfied the condition; last:\n%s", ansi.Strip(frame))
		}
	}
}

// BenchmarkStartupFirstFrame measures building the root model for sandbox
// mode and rendering its first View. Starting the embedded sandbox, the
// keyring and the first requests all run in commands after this frame.
func BenchmarkStartupFirstFrame(b *testing.B) {
	for b.Loop() {
		var closers []func() error
		root := ui.New(embeddedOptions(&closers))
		root.Update(tea.WindowSizeMsg{Width: 100, Height: 32})
		_ = root.Init()
		if v := root.View().Content; !strings.Contains(v, "SANDBOX") {
			b.Fatalf("first frame lacks the badge:\n%s", v)
		}
	}
}

// BenchmarkStartupToBalances measures sandbox mode from nothing to a frame
// with the operated account's balances: embedded sandbox started (seed 1
// demo data), client built, access info and accounts loaded, every screen
// started, balances received and drawn.
func BenchmarkStartupToBalances(b *testing.B) {
	for b.Loop() {
		var closers []func() error
		root := ui.New(embeddedOptions(&closers))
		root.Update(tea.WindowSizeMsg{Width: 100, Height: 32})
		drive(b, root, root.Init(), func(f string) bool {
			p := ansi.Strip(f)
			return strings.Contains(p, "Balances") && !strings.Contains(p, "loading balances") && strings.Contains(p, "BRLA")
		})
		b.StopTimer()
		for _, c := range closers {
			c()
		}
		b.StartTimer()
	}
}

// TestStartupShowsTheSandboxDashboardWithBalances is the same journey as a
// test: it fails if the embedded dashboard never shows balances.
func TestStartupShowsTheSandboxDashboardWithBalances(t *testing.T) {
	var closers []func() error
	defer func() {
		for _, c := range closers {
			c()
		}
	}()
	root := ui.New(embeddedOptions(&closers))
	root.Update(tea.WindowSizeMsg{Width: 100, Height: 32})
	begin := time.Now()
	f := drive(t, root, root.Init(), func(f string) bool {
		p := ansi.Strip(f)
		return !strings.Contains(p, "loading balances") && strings.Contains(p, "BRLA") && strings.Contains(p, "Your access")
	})
	t.Logf("sandbox mode to balances on screen: %s", time.Since(begin).Round(time.Millisecond))
	p := ansi.Strip(f)
	if !strings.Contains(strings.Split(p, "\n")[0], "embedded sandbox") {
		t.Errorf("header does not say the embedded sandbox is used:\n%s", p)
	}
}

// TestConnectWaitsForTheFirstFrame: with Options.FirstFrame set, the
// connection (the embedded sandbox's start) begins only once the first
// frame has been drawn, so that it does not compete with drawing it.
func TestConnectWaitsForTheFirstFrame(t *testing.T) {
	drawn := make(chan struct{})
	var drawnAt time.Time
	started := make(chan time.Time, 1)
	root := ui.New(ui.Options{Env: ui.EnvSandbox, Embedded: true, FirstFrame: drawn,
		Connect: func(ctx context.Context) (*ui.Connection, error) {
			started <- time.Now()
			return nil, context.Canceled
		}})
	begin := time.Now()
	batch, ok := root.Init()().(tea.BatchMsg)
	if !ok {
		t.Fatal("Init is not a batch")
	}
	for _, c := range batch {
		if c != nil {
			go c()
		}
	}
	time.Sleep(50 * time.Millisecond)
	drawnAt = time.Now()
	close(drawn)
	select {
	case at := <-started:
		// Past 250 ms Connect starts anyway (a terminal that never took
		// a frame): a machine that slow proves nothing either way.
		if at.Before(drawnAt) && at.Sub(begin) < 250*time.Millisecond {
			t.Fatalf("Connect started %s before the first frame was drawn", drawnAt.Sub(at))
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Connect never started after the first frame")
	}
}
