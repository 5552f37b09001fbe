// Package batch is the dashboard's Batch screen: pick a payout file, review
// every row with who it pays and its price, the totals per currency, the
// operated account and the environment, confirm once (on production by
// typing the totals), and watch the run's progress with its counts. The
// work is the batch package's; this screen only drives it.
package batch

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	pay "github.com/tesouro-treasury/tesouro/batch"
	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/ui/widget"
)

// checkTimeout bounds reading, checking and pricing a file.
const checkTimeout = 2 * time.Minute

// runTimeout bounds a whole run; "x" stops it sooner.
const runTimeout = time.Hour

// pollEvery is how often the progress is redrawn while a run goes.
const pollEvery = 250 * time.Millisecond

type phase int

const (
	picking phase = iota
	checking
	reviewing
	running
	finished
)

// Screen is the Batch screen.
type Screen struct {
	s    *ui.Session
	svc  Service
	w, h int

	phase  phase
	typing bool
	input  textinput.Model
	path   string

	checkReq, runReq, starting, polling ui.Slot
	plan                                *pay.Plan
	err                                 error
	offset                              int

	live    *liveProgress
	stop    context.CancelFunc
	final   pay.Progress
	runErr  error
	results string
	// dropped are the invalid rows v left out: the results say why.
	dropped []*pay.Planned
	// warnings are what the run could not record (results file, journal).
	warnings []string

	keys keyMap
}

type keyMap struct {
	Open, Confirm, OnlyValid, Stop, Down, Up key.Binding
}

// liveProgress is shared by the run (which writes it) and the view (which
// polls it).
type liveProgress struct {
	mu       sync.Mutex
	p        pay.Progress
	last     []string // the latest rows that did not go through
	warnings []string // what could not be recorded, each said once
}

func (l *liveProgress) get() (pay.Progress, []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.p, append([]string(nil), l.last...)
}

// warn keeps a warning once.
func (l *liveProgress) warn(w string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !slices.Contains(l.warnings, w) && len(l.warnings) < 5 {
		l.warnings = append(l.warnings, w)
	}
}

type (
	checked struct {
		plan *pay.Plan
	}
	// runDone is what a run did; after an account switch the root reports
	// it against the account it paid from (Report).
	runDone struct {
		batch    string
		prog     pay.Progress
		err      error
		results  string
		warnings []string
	}
	// startNow is the yes to the confirmation, awaited by the starting
	// slot: a yes to a plan since checked again is dropped.
	startNow struct{}
	// pollNow is the redraw timer of a run, awaited by the polling slot.
	pollNow struct{}
)

// Report implements ui.Reporter: the run's counts and where its results are.
func (d runDone) Report(err error) string {
	if err == nil {
		err = d.err
	}
	p := d.prog
	text := fmt.Sprintf("batch %s: %d created, %d already created, %d parked, %d failed, %d not sent", d.batch, p.Created, p.Existing, p.Parked, p.Failed, p.NotSent)
	if err != nil {
		text += " (" + ui.ErrorText(err) + ")"
	}
	if d.results != "" {
		text += "; results in " + d.results
	}
	return text
}

// New builds the Batch screen for a session.
func New(s *ui.Session, svc Service) ui.Screen {
	in := widget.NewInput()
	in.Placeholder = "path of a CSV file (tesouro batch template shows the columns)"
	in.Prompt = "File: "
	return &Screen{
		s: s, svc: svc, input: in,
		keys: keyMap{
			Open:      ui.Binding("o", "open a file", "o"),
			Confirm:   ui.Binding("c", "confirm and pay", "c"),
			OnlyValid: ui.Binding("v", "drop invalid rows", "v"),
			Stop:      ui.Binding("x", "stop the run", "x"),
			Down:      ui.Binding("↓/j", "scroll", "down", "j"),
			Up:        ui.Binding("↑/k", "scroll", "up", "k"),
		},
	}
}

// ID implements ui.Screen.
func (m *Screen) ID() string { return "batch" }

// Title implements ui.Screen.
func (m *Screen) Title() string { return "Batch" }

// Capturing implements ui.Screen: while a path is typed.
func (m *Screen) Capturing() bool { return m.typing }

// Busy implements ui.Screen: quitting during a run asks first.
func (m *Screen) Busy() bool { return m.phase == running }

// Stopping implements ui.Stopper: what a switch or quit does to a run.
func (m *Screen) Stopping() string {
	return "the batch stops: the rows in flight are finished and recorded, the rest are not sent (run the file again to pay them, nothing is paid twice)"
}

// Init implements ui.Screen: the screen waits for a file.
func (m *Screen) Init() tea.Cmd { return nil }

// SetSize implements ui.Screen.
func (m *Screen) SetSize(w, h int) {
	m.w, m.h = w, h
	m.input.SetWidth(max(10, w-8))
}

// KeyMap implements ui.Screen.
func (m *Screen) KeyMap() []key.Binding {
	k := m.keys
	k.Open.SetEnabled(m.phase != running && m.phase != checking && !m.typing)
	// Decided now, not when the screen was built: the access loads later,
	// and may change.
	k.Confirm = m.s.Gate(m.s.Gate(k.Confirm, ui.ActCreateTicket), ui.ActPayOut)
	k.Confirm.SetEnabled(k.Confirm.Enabled() && m.phase == reviewing && m.plan != nil && m.plan.Ready())
	k.OnlyValid.SetEnabled(m.phase == reviewing && m.plan != nil && len(m.plan.Problems) == 0 && !m.plan.Ready() && m.plan.Valid() > 0)
	k.Stop.SetEnabled(m.phase == running)
	scroll := m.phase == reviewing
	k.Down.SetEnabled(scroll)
	k.Up.SetEnabled(scroll)
	return []key.Binding{k.Open, k.Confirm, k.OnlyValid, k.Stop, k.Down, k.Up}
}

// Update implements ui.Screen.
func (m *Screen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case ui.Result[checked]:
		if !m.checkReq.Take(msg) {
			return m, nil
		}
		m.plan, m.err, m.offset = msg.Value.plan, msg.Err, 0
		m.phase = reviewing
		if msg.Err != nil {
			m.phase = picking
		}
		return m, nil
	case ui.Result[runDone]:
		if !m.runReq.Take(msg) {
			return m, nil
		}
		m.phase, m.final, m.runErr, m.results, m.warnings = finished, msg.Value.prog, msg.Value.err, msg.Value.results, msg.Value.warnings
		if msg.Err != nil {
			m.runErr = msg.Err
		}
		if m.stop != nil {
			m.stop()
			m.stop = nil
		}
		level := ui.ToastSuccess
		if m.runErr != nil || m.final.Failed > 0 || len(m.warnings) > 0 {
			level = ui.ToastError
		}
		return m, tea.Batch(ui.Toast(level, msg.Value.Report(msg.Err)), ui.ChangedIn(m.s.Account.ID, ui.ChangedTickets|ui.ChangedBalances|ui.ChangedOperations, "batch"))
	case ui.Result[startNow]:
		if !m.starting.Take(msg) || m.phase != reviewing {
			return m, nil
		}
		return m, m.start()
	case ui.Result[pollNow]:
		if !m.polling.Take(msg) || m.phase != running {
			return m, nil
		}
		return m, m.poll()
	case tea.KeyPressMsg:
		return m, m.key(msg)
	}
	if m.typing {
		var cmd tea.Cmd
		m.input, cmd = m.input.Update(msg)
		return m, cmd
	}
	return m, nil
}

func (m *Screen) key(msg tea.KeyPressMsg) tea.Cmd {
	if m.typing {
		switch msg.String() {
		case "esc":
			m.typing = false
			m.input.Blur()
			return nil
		case "enter":
			m.typing = false
			m.input.Blur()
			return m.check(strings.TrimSpace(m.input.Value()))
		}
		var cmd tea.Cmd
		m.input, cmd = m.input.Update(msg)
		return cmd
	}
	k := m.KeyMap()
	switch {
	case key.Matches(msg, k[0]):
		m.typing = true
		return m.input.Focus()
	case key.Matches(msg, k[1]):
		return m.confirm()
	case key.Matches(msg, k[2]):
		for _, r := range m.plan.Rows {
			if r.Problem != "" {
				m.dropped = append(m.dropped, r)
			}
		}
		m.plan.OnlyValid()
		m.offset = 0
	case key.Matches(msg, k[3]):
		if m.stop != nil {
			m.stop()
		}
	case key.Matches(msg, k[4]) && m.plan != nil:
		// By line: a reason wrapped on several lines is read to its end.
		_, body, _ := m.reviewBody()
		m.offset = min(m.offset+1, max(0, len(body)-1))
	case key.Matches(msg, k[5]):
		m.offset = max(0, m.offset-1)
	}
	return nil
}

// nowFunc makes the session's clock a batch clock, so that quote lives are
// counted on the clock the tests move.
type nowFunc func() time.Time

func (f nowFunc) Now() time.Time { return f() }

// options are the batch's options for this session; ledger holds what
// earlier runs of the batch parked (nil without a state directory).
func (m *Screen) options(ledger pay.Ledger) pay.Options {
	return pay.Options{SubAccountID: m.s.Account.ID, Clock: nowFunc(m.s.Now), Ledger: ledger, Journal: m.s.Journal}
}

// openLedger opens the ledger of the batch called name in the state
// directory (none without one).
func openLedger(stateDir, name string) (*pay.FileLedger, error) {
	if stateDir == "" {
		return nil, nil
	}
	return pay.OpenLedger(filepath.Join(stateDir, "batches"), name)
}

// check reads, parses, checks and prices the file, off the update loop.
func (m *Screen) check(path string) tea.Cmd {
	if path == "" {
		return nil
	}
	if strings.HasPrefix(path, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			path = filepath.Join(home, path[2:])
		}
	}
	m.path, m.plan, m.err, m.phase, m.dropped = path, nil, nil, checking, nil
	m.starting.Cancel()
	svc, opts, stateDir := m.svc, m.options(nil), m.s.StateDir
	return ui.Fetch(m.s, &m.checkReq, checkTimeout, func(ctx context.Context) (checked, error) {
		data, err := pay.ReadFile(path)
		if err != nil {
			return checked{}, err
		}
		f, err := pay.Parse(data, pay.NameOf(path))
		if err != nil {
			return checked{}, err
		}
		l, err := openLedger(stateDir, f.Name)
		if err != nil {
			return checked{}, err
		}
		if l != nil {
			defer l.Close()
			opts.Ledger = l
		}
		plan, err := pay.Check(ctx, svc, f, opts)
		return checked{plan: plan}, err
	})
}

// confirm asks the root for the one confirmation: y on a sandbox, the
// typed totals on production.
func (m *Screen) confirm() tea.Cmd {
	req, start := ui.Answer(m.s, startNow{})
	m.starting.Await(req)
	curs := pay.Currencies(m.plan.Out)
	var totals []string
	for _, c := range curs {
		totals = append(totals, money.Format(m.plan.Out[c], c)+" "+c)
	}
	body := fmt.Sprintf("%d payouts from %s (%s)\nThey receive: %s\n%s", len(m.plan.Rows), m.s.AccountName(), strings.ToUpper(string(m.s.Env)), strings.Join(totals, ", "), m.paysLine())
	if m.s.Env != ui.EnvProduction {
		return ui.Confirm("Pay this batch?", body, start)
	}
	out := m.plan.Out
	return func() tea.Msg {
		return ui.PromptMsg{
			Title:       "PRODUCTION — " + body + "\nType the total" + plural(len(curs)) + " (" + strings.Join(curs, " ") + ") to pay",
			Placeholder: strings.Join(curs, " ") + " total" + plural(len(curs)),
			Validate: func(typed string) error {
				fields := strings.Fields(typed)
				if len(fields) != len(curs) {
					return fmt.Errorf("type %d total%s, in the order %s", len(curs), plural(len(curs)), strings.Join(curs, " "))
				}
				for i, c := range curs {
					d, err := money.ParseAmount(fields[i], c)
					if err != nil || !d.Equal(out[c]) {
						return fmt.Errorf("%s is not the %s total", fields[i], c)
					}
				}
				return nil
			},
			OnSubmit: func(string) tea.Cmd { return start },
		}
	}
}

func plural(n int) string {
	if n > 1 {
		return "s"
	}
	return ""
}

func (m *Screen) paysLine() string {
	return "You pay (at today's quotes): " + strings.Join(m.payParts(), ", ")
}

// payParts are what the account pays, per source currency.
func (m *Screen) payParts() []string {
	var parts []string
	for _, c := range pay.Currencies(m.plan.In) {
		parts = append(parts, money.Format(m.plan.In[c], c)+" "+c)
	}
	return parts
}

// start runs the confirmed plan. Outcomes go to the results CSV next to
// the file (appended, with the run's time and the rows left out as
// invalid), the batch ledger and, through the payment core, the journal;
// the view polls the counts. The run stops between rows on x or when the
// session ends (an account switch, the program's end): the rows in flight
// are finished, and the outcome is reported against this account.
func (m *Screen) start() tea.Cmd {
	m.phase = running
	live := &liveProgress{p: pay.Progress{Total: len(m.plan.Rows), Remaining: len(m.plan.Rows)}}
	m.live = live
	stopCtx, stop := context.WithCancel(m.s.Context())
	m.stop = stop
	svc, plan, opts, stateDir, dropped := m.svc, m.plan, m.options(nil), m.s.StateDir, m.dropped
	results := strings.TrimSuffix(m.path, filepath.Ext(m.path)) + ".results.csv"
	run := ui.Settle(m.s, &m.runReq, runTimeout, func(context.Context) (runDone, error) {
		done := runDone{batch: plan.File.Name}
		l, err := openLedger(stateDir, plan.File.Name)
		if err != nil {
			return done, err
		}
		if l != nil {
			defer l.Close()
			opts.Ledger = l
		}
		rw, err := pay.OpenResults(results, time.Now())
		if err != nil {
			return done, err
		}
		defer rw.Close()
		done.results = results
		if err := rw.AddInvalid(dropped); err != nil {
			live.warn("results file: " + err.Error())
		}
		done.prog, done.err = pay.Run(stopCtx, svc, plan, opts, func(o pay.Outcome, p pay.Progress) {
			if err := rw.Add(o); err != nil {
				live.warn("results file: " + err.Error())
			}
			if o.JournalErr != nil {
				live.warn("journal: " + o.JournalErr.Error())
			}
			live.mu.Lock()
			live.p = p
			if o.Err != "" && o.Status != pay.NotSent {
				live.last = append(live.last, fmt.Sprintf("row %d: %s: %s", o.Row.N, o.Status, o.Err))
				if len(live.last) > 3 {
					live.last = live.last[1:]
				}
			}
			live.mu.Unlock()
		})
		live.mu.Lock()
		done.warnings = slices.Clone(live.warnings)
		live.mu.Unlock()
		return done, nil
	})
	return tea.Batch(run, m.poll())
}

func (m *Screen) poll() tea.Cmd {
	return ui.After(m.s, &m.polling, pollEvery, pollNow{})
}
