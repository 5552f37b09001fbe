package ui

import (
	"context"
	"errors"
	"fmt"
	"log"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/journal"
	"github.com/tesouro-treasury/tesouro/ui/widget"
)

// Client is what the shell itself asks of the service: who is signed in
// (the header, the permission gates) and which accounts they can operate
// (the switcher). Screens declare their own calls in their views package
// and are handed the full client by the wiring, so this stays two methods.
type Client interface {
	AccessInfo(ctx context.Context) (*api.AccessInfo, error)
	ListAccounts(ctx context.Context) ([]api.Account, error)
}

// Connection is what Options.Connect produces: a client ready to talk to
// the service, and how to release what it holds (an embedded sandbox).
type Connection struct {
	Client Client
	// Screens are the dashboard's screens in tab order, built on the
	// client: each views package declares the few calls it makes, and the
	// wiring gives it the client that has them.
	Screens []Factory
	// Email is the access's e-mail when known before AccessInfo loads.
	Email string
	// Close releases the connection's resources; may be nil.
	Close func() error
}

// Options configure the root model. Everything here is known before the
// first frame; whatever needs I/O (reading the keyring, starting the embedded
// sandbox) happens in Connect, which runs in a command.
type Options struct {
	Env     Environment
	Profile string
	// Label names the service in the header when there is no profile
	// ("sandbox (credentials.json)").
	Label    string
	Embedded bool
	// Funding is true when the service has the sandbox-only fund endpoint.
	Funding  bool
	ReadOnly bool
	// Email is shown in the header until the access info has loaded.
	Email string
	// DemoAccess is the demo access acted as when there is no profile
	// (--sandbox --as, --credentials): the journal names it.
	DemoAccess string
	// SubAccount is the --sub-account flag: an id or a name, resolved once
	// the accounts have loaded; "" operates the main account.
	SubAccount string
	// Connect builds the client. It runs in a command, never in Update.
	Connect  func(ctx context.Context) (*Connection, error)
	Journal  *journal.Journal
	StateDir string
	// Clock is the dashboard's time; SystemClock when nil.
	Clock Clock
	// NoColor is true under NO_COLOR.
	NoColor bool
	// ConnectTimeout bounds Connect; 0 means 30 seconds.
	ConnectTimeout time.Duration
	// RequestTimeout bounds the root's own requests; 0 means 15 seconds.
	RequestTimeout time.Duration
	// Notify says how news of a screen (Session.Notify) reaches the user.
	Notify NotifyOptions
	// Heartbeat is how often the root makes sure the service answers
	// when nothing else asked it (see reach.go); 0 means every 2 seconds,
	// a negative value never.
	Heartbeat time.Duration
	// FirstFrame, when set, is closed once the first frame has reached the
	// terminal: Connect waits for it (at most firstFrameWait), so that
	// reading the keyring or dialling a service does not compete with
	// drawing the window. Nil starts Connect at once (the embedded
	// sandbox, whose first answers come sooner that way).
	FirstFrame <-chan struct{}
}

// firstFrameWait bounds how long Connect waits for Options.FirstFrame: a
// terminal that never took the first frame still gets its data.
const firstFrameWait = 250 * time.Millisecond

// Root is the dashboard's top-level model: it owns the session, the screens,
// the modes, and the header, tabs, footer, help, command line and overlays.
type Root struct {
	opts  Options
	theme *Theme
	keys  GlobalKeys
	// chrome remembers the tab bar and the footer's hints drawn lately.
	chrome *memo[chromeKey, string]

	width, height int
	layout        Layout
	// sized is set once the window's size at start is known; a later size
	// repaints the window (see resized).
	sized bool

	conn       *Connection
	connErr    error
	connecting bool
	session    *Session
	// resolving is the --sub-account name still to resolve; resolveErr says
	// why it failed (then no screen is built, rather than silently operating
	// another account).
	resolving  string
	resolveErr error
	// resolveWhy is the header's word for resolveErr ("not found", ...).
	resolveWhy string
	// barred are the sub-accounts the accounts list left out: the
	// switcher shows them disabled.
	barred []api.Account
	// accountsErr is why the accounts could not be listed, the last time
	// they were asked for (nil once they are).
	accountsErr error
	// accessFails counts the failed loads of the access info in a row;
	// while it is not zero, writes stay disabled and the load is retried.
	accessFails int

	// factories are the screens in tab order; screens[i] is nil until
	// factory i's screen is first shown in the current session.
	factories []Factory
	screens   []Screen
	active    int
	history   []int

	help       bool
	helpOffset int
	cmd        *commandLine
	filter     *textinput.Model
	filters    map[string]string
	confirm    *confirmState
	prompt     *promptState
	switcher   *switcher

	toast    *toast
	toastSeq int

	// pulseArmed is set while the pulse's timer runs; the timer's own
	// goroutine clears it when it finds nothing to animate.
	pulseArmed *atomic.Bool
	frame      int
	quitting   bool

	// beatArmed is set while the heartbeat's timer runs; down is whether
	// the window shows the service as not answering (see reach.go).
	beatArmed, down bool
}

// New builds the root model. It does no I/O: the first frame is drawn before
// any keyring read or request.
func New(opts Options) *Root {
	if opts.ConnectTimeout <= 0 {
		opts.ConnectTimeout = 30 * time.Second
	}
	if opts.RequestTimeout <= 0 {
		opts.RequestTimeout = 15 * time.Second
	}
	if opts.Env == "" {
		opts.Env = EnvSandbox
	}
	return &Root{
		opts:       opts,
		theme:      NewTheme(true, opts.NoColor),
		keys:       DefaultGlobalKeys(),
		connecting: opts.Connect != nil,
		resolving:  strings.TrimSpace(opts.SubAccount),
		filters:    map[string]string{},
		pulseArmed: new(atomic.Bool),
		chrome:     newMemo[chromeKey, string](64),
		width:      80,
		height:     24,
		layout:     NewLayout(80, 24, false, false),
	}
}

// Internal messages.
type (
	connectedMsg struct {
		conn *Connection
		err  error
	}
	accessMsg struct {
		session *Session
		info    *api.AccessInfo
		err     error
	}
	accountsMsg struct {
		session  *Session
		accounts []api.Account
		barred   []api.Account // sub-accounts the list left out (barred.go)
		err      error
	}
	pulseMsg struct{}
	quitMsg  struct{}
	// accessRetryMsg asks for the access info again after a failure.
	accessRetryMsg struct{}
)

// accessRetryMax bounds the wait between two tries of the access info.
const accessRetryMax = time.Minute

// Init asks for the terminal background and starts connecting.
func (r *Root) Init() tea.Cmd {
	go warmWidths()
	cmds := []tea.Cmd{tea.RequestBackgroundColor}
	if r.opts.Connect != nil {
		connect, timeout, drawn := r.opts.Connect, r.opts.ConnectTimeout, r.opts.FirstFrame
		cmds = append(cmds, func() tea.Msg {
			if drawn != nil {
				wait := time.NewTimer(firstFrameWait)
				select {
				case <-drawn:
				case <-wait.C:
				}
				wait.Stop()
			}
			ctx, cancel := context.WithTimeout(context.Background(), timeout)
			defer cancel()
			conn, err := connect(ctx)
			return connectedMsg{conn: conn, err: err}
		})
		cmds = append(cmds, r.armPulse())
	}
	return tea.Batch(cmds...)
}

// Close ends the screens (see Ender) and releases the connection (stops
// the embedded sandbox).
func (r *Root) Close() error {
	for _, said := range r.endScreens() {
		log.Printf("at exit: %s", said)
	}
	if r.session != nil {
		r.session.End()
	}
	// A ticket creation or a batch row under way is finished, so that what
	// it did is journaled, not guessed.
	if !WaitWrites(closeWait) {
		log.Printf("at exit: a write was still under way after %s: look its ticket up by external id", closeWait)
	}
	if r.conn != nil && r.conn.Close != nil {
		return r.conn.Close()
	}
	return nil
}

// closeWait bounds how long the program's end waits for writes under way.
const closeWait = 45 * time.Second

// Session is the current session; nil until connected.
func (r *Root) Session() *Session { return r.session }

// Active is the active screen; nil before the screens are built.
func (r *Root) Active() Screen {
	if r.active < 0 || r.active >= len(r.screens) {
		return nil
	}
	return r.screens[r.active]
}

// Screens are the screens built in the current session, in tab order; a
// screen not shown since the session began is nil.
func (r *Root) Screens() []Screen { return r.screens }

// Theme is the root's theme.
func (r *Root) Theme() *Theme { return r.theme }

// Mode says where keys go right now.
func (r *Root) Mode() Mode {
	switch {
	case r.confirm != nil, r.prompt != nil, r.switcher != nil:
		return ModePrompt
	case r.cmd != nil:
		return ModeCommand
	case r.filter != nil:
		return ModeFilter
	case r.help:
		return ModeHelp
	}
	if s := r.Active(); s != nil && s.Capturing() {
		return ModeForm
	}
	return ModeNormal
}

// Update handles one message.
func (r *Root) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := r.update(msg)
	return r, cmd
}

func (r *Root) update(msg tea.Msg) tea.Cmd {
	return tea.Batch(r.handle(msg), r.followReach())
}

func (r *Root) handle(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case beatMsg:
		if msg.session != r.session {
			r.beatArmed = false
			return r.beat()
		}
		return r.onBeat(msg)
	case probedMsg:
		return nil
	case widget.SearchMsg:
		// The next slice of a / filter search over a long list: its
		// table, on whichever screen, takes it between keystrokes.
		return msg.Continue()
	case tea.WindowSizeMsg:
		return r.resized(msg)
	case tea.BackgroundColorMsg:
		r.theme.Set(NewTheme(msg.IsDark(), r.opts.NoColor))
		return r.broadcast(ThemeChangedMsg{})
	case tea.KeyPressMsg:
		return r.handleKey(msg)
	case tea.PasteMsg:
		return r.handlePaste(msg)
	case connectedMsg:
		return r.connected(msg)
	case accessMsg:
		return r.accessLoaded(msg)
	case accessRetryMsg:
		if r.session == nil || r.session.Access != nil {
			return nil
		}
		return r.loadAccess(r.session)
	case accountsMsg:
		return r.accountsLoaded(msg)
	case pulseMsg:
		r.frame++
		r.pulseArmed.Store(false)
		if r.busyIndicator() {
			return r.armPulse()
		}
		return nil
	case quitMsg:
		r.quitting = true
		return tea.Quit
	case switchNowMsg:
		return r.switchAccount(msg.account)
	case NavigateMsg:
		return r.navigate(msg)
	case SwitchAccountMsg:
		return r.requestSwitch(msg.Account)
	case OpenSwitcherMsg:
		return r.openSwitcher()
	case ReloadAccountsMsg:
		if r.session == nil {
			return nil
		}
		return r.loadAccounts(r.session)
	case ToastMsg:
		if msg.Level == ToastError {
			log.Printf("error shown: %s", msg.Text)
		}
		r.toastSeq++
		r.toast = &toast{id: r.toastSeq, text: msg.Text, level: msg.Level, screen: r.activeID()}
		return r.expireToast(r.toastSeq, msg.Level)
	case NotifyMsg:
		return r.notify(msg)
	case toastExpiredMsg:
		if r.toast != nil && r.toast.id == msg.id {
			r.toast = nil
		}
		return nil
	case RefreshedMsg:
		// Each panel says how fresh its own values are (Fresh): one time
		// for the window would make older figures look fresh.
		return nil
	case ConfirmMsg:
		r.openConfirm(msg)
		return nil
	case PromptMsg:
		r.prompt = newPrompt(msg, r.theme, r.width)
		r.relayout()
		return r.prompt.input.Focus()
	case switcherAccountsMsg:
		if r.switcher != nil {
			r.switcher.setAccounts(msg)
		}
		return nil
	}
	if rp, ok := msg.(Reply); ok && !r.session.Owns(rp) {
		// An answer to a session since replaced (another account): no
		// screen of this session asked for it. A write's outcome is still
		// told, against the account it was made on.
		return r.late(msg)
	}
	return r.broadcast(msg)
}

// broadcast delivers a message to every built screen: answers reach the
// screen that asked for them whether it is shown or not (each screen takes
// only the answers its slots await, and its own ticks).
func (r *Root) broadcast(msg tea.Msg) tea.Cmd {
	if len(r.screens) == 0 {
		return nil
	}
	cmds := make([]tea.Cmd, 0, len(r.screens))
	for i, s := range r.screens {
		if s == nil {
			continue
		}
		ns, cmd := s.Update(msg)
		r.screens[i] = ns
		if cmd != nil {
			cmds = append(cmds, cmd)
		}
	}
	return r.withPulse(tea.Batch(cmds...))
}

// toActive delivers a message to the active screen only.
func (r *Root) toActive(msg tea.Msg) tea.Cmd {
	s := r.Active()
	if s == nil {
		return nil
	}
	ns, cmd := s.Update(msg)
	r.screens[r.active] = ns
	return r.withPulse(cmd)
}

// withPulse arms the footer's activity pulse along with a command that may
// start a request, so the spinner and the in-flight count show while it runs.
func (r *Root) withPulse(cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return tea.Batch(cmd, r.armPulse())
}

const pulseInterval = 120 * time.Millisecond

// armPulse arms the pulse once. When it fires with nothing to animate (a
// quick request already answered, or a command that was only a timer),
// it delivers no message: an idle window is not redrawn for it.
func (r *Root) armPulse() tea.Cmd {
	if !r.pulseArmed.CompareAndSwap(false, true) {
		return nil
	}
	// What the pulse animates, read where it fires: the session's count
	// is atomic, and connecting is the state when armed (its end is a
	// message, which redraws anyway).
	s, connecting, armed := r.session, r.connecting, r.pulseArmed
	busy := func() bool { return connecting || (s != nil && s.InFlight() > 0) }
	return r.clock().After(pulseInterval, func(time.Time) tea.Msg {
		if busy() {
			return pulseMsg{}
		}
		armed.Store(false)
		// A request that started meanwhile may have found the pulse
		// still armed: it is animated all the same.
		if busy() && armed.CompareAndSwap(false, true) {
			return pulseMsg{}
		}
		return nil
	})
}

// busyIndicator reports whether the footer shows activity that needs
// redrawing.
func (r *Root) busyIndicator() bool {
	return r.connecting || (r.session != nil && r.session.InFlight() > 0)
}

// connected builds the session and starts the root's own first requests.
func (r *Root) connected(msg connectedMsg) tea.Cmd {
	r.connecting = false
	if msg.err != nil {
		log.Printf("connect: %v", msg.err)
		r.connErr = msg.err
		return nil
	}
	log.Printf("connected as %s", msg.conn.Email)
	r.conn = msg.conn
	if r.opts.Email == "" {
		r.opts.Email = msg.conn.Email
	}
	r.opts.Journal.SetActor(journal.Actor{Profile: r.opts.Profile, DemoAccess: r.opts.DemoAccess, Email: r.opts.Email, Env: string(r.opts.Env)})
	s := &Session{
		Client:         msg.conn.Client,
		Env:            r.opts.Env,
		Profile:        r.opts.Profile,
		Label:          r.opts.Label,
		Embedded:       r.opts.Embedded,
		SandboxFunding: r.opts.Funding,
		ReadOnly:       r.opts.ReadOnly,
		Journal:        r.opts.Journal,
		StateDir:       r.opts.StateDir,
		Time:           r.opts.Clock,
		Theme:          r.theme,
		reach:          &Reach{},
	}
	r.factories = msg.conn.Screens
	if r.resolving != "" {
		if id, err := uuid.Parse(r.resolving); err == nil {
			s.Account = Account{ID: id}
			r.resolving = ""
		}
	}
	r.session = s
	cmds := []tea.Cmd{r.loadAccess(s), r.loadAccounts(s), r.beat()}
	if r.resolving == "" {
		cmds = append(cmds, r.buildScreens())
	}
	return tea.Batch(cmds...)
}

// request runs one of the root's own calls on session s, under the
// request timeout and with the activity pulse.
func (r *Root) request(s *Session, call func(ctx context.Context) (tea.Msg, error)) tea.Cmd {
	_, cmd := Call(s, r.opts.RequestTimeout, func(ctx context.Context) (tea.Msg, error) { return call(ctx) })
	return r.withPulse(func() tea.Msg { return cmd().(Result[tea.Msg]).Value })
}

func (r *Root) loadAccess(s *Session) tea.Cmd {
	return r.request(s, func(ctx context.Context) (tea.Msg, error) {
		info, err := s.Client.AccessInfo(ctx)
		return accessMsg{session: s, info: info, err: err}, nil
	})
}

func (r *Root) loadAccounts(s *Session) tea.Cmd {
	return r.request(s, func(ctx context.Context) (tea.Msg, error) {
		accs, err := s.Client.ListAccounts(ctx)
		var barred []api.Account
		if err == nil {
			barred = barredAccounts(ctx, s.Client, accs)
		}
		return accountsMsg{session: s, accounts: accs, barred: barred, err: err}, nil
	})
}

func (r *Root) accessLoaded(msg accessMsg) tea.Cmd {
	if r.session == nil {
		return nil
	}
	// The access info is the access's, not the account's: an answer asked
	// before an account switch holds for the new session too.
	if msg.err != nil {
		log.Printf("access info: %v", msg.err)
		r.accessFails++
		wait := min(time.Second<<min(r.accessFails, 6), accessRetryMax)
		retry := r.clock().After(wait, func(time.Time) tea.Msg { return accessRetryMsg{} })
		return tea.Batch(Toast(ToastError, fmt.Sprintf("Could not load your access info: %s. Write actions stay disabled; retrying in %s (r retries now).", ErrorText(msg.err), wait)),
			retry, r.broadcast(AccessLoadedMsg{Err: msg.err}))
	}
	r.accessFails = 0
	r.session.Access = msg.info
	if msg.info.Email != "" {
		r.opts.Email = msg.info.Email
		r.opts.Journal.SetActor(journal.Actor{Email: msg.info.Email})
	}
	r.relayout()
	return r.broadcast(AccessLoadedMsg{Access: msg.info})
}

func (r *Root) accountsLoaded(msg accountsMsg) tea.Cmd {
	if r.session == nil {
		return nil
	}
	r.accountsErr = msg.err
	if msg.err != nil {
		log.Printf("list accounts: %v", msg.err)
		var cmd tea.Cmd
		if r.resolving != "" {
			r.resolveErr = fmt.Errorf("could not list the accounts to find sub-account %q: %s", r.resolving, ErrorText(msg.err))
			r.resolveWhy = "accounts not listed"
		} else {
			cmd = Toast(ToastError, "Could not list your accounts: "+ErrorText(msg.err))
		}
		return tea.Batch(cmd, r.broadcast(AccountsLoadedMsg{Err: msg.err}))
	}
	r.session.Accounts, r.barred = msg.accounts, msg.barred
	r.session.Barred = msg.barred
	var cmds []tea.Cmd
	if acc := r.session.Account; !acc.Main() && r.resolving == "" && !slices.ContainsFunc(msg.accounts, func(a api.Account) bool { return a.ID == acc.ID }) {
		cmds = append(cmds, Toast(ToastError, fmt.Sprintf("Sub-account %s is not among the accounts this access may operate: press S to choose one", acc.ID)))
	}
	if r.resolving != "" {
		acc, err := findAccount(msg.accounts, r.resolving)
		if err != nil {
			r.resolveErr, r.resolveWhy = err, "not found"
			if _, ok := err.(ambiguousAccountError); ok {
				r.resolveWhy = "ambiguous"
			}
		} else {
			r.resolving = ""
			r.session.End()
			r.session = r.session.WithAccount(acc)
			cmds = append(cmds, r.buildScreens())
		}
	}
	cmds = append(cmds, r.broadcast(AccountsLoadedMsg{Accounts: msg.accounts}))
	return tea.Batch(cmds...)
}

// findAccount resolves an account by id or exact (case-insensitive) name;
// "main" names the main account. It never picks a near miss.
func findAccount(accounts []api.Account, name string) (Account, error) {
	name = strings.TrimSpace(name)
	if id, err := uuid.Parse(name); err == nil {
		for i, a := range accounts {
			if a.ID == id {
				acc, _ := listedAccount(accounts, i)
				return acc, nil
			}
		}
		return Account{}, fmt.Errorf("no account with id %s is available to this access", id)
	}
	var found []Account
	for i, a := range accounts {
		acc, isMain := listedAccount(accounts, i)
		if strings.EqualFold(a.Name, name) || (isMain && strings.EqualFold(name, "main")) {
			found = append(found, acc)
		}
	}
	switch len(found) {
	case 0:
		// The list holds only what this access may operate: an account it
		// is blacklisted from exists but is not in it.
		return Account{}, fmt.Errorf("no account named %q among those this access may operate: press S to see them", name)
	case 1:
		return found[0], nil
	}
	return Account{}, ambiguousAccountError(fmt.Sprintf("%d accounts are named %q: use the id instead", len(found), name))
}

// ambiguousAccountError is findAccount's answer when a name fits several.
type ambiguousAccountError string

func (e ambiguousAccountError) Error() string { return string(e) }

// listedAccount converts the i-th listed account. The service lists the
// main account first, with no main account of its own; it gets the nil id.
func listedAccount(accounts []api.Account, i int) (acc Account, isMain bool) {
	a := accounts[i]
	if i == 0 && a.MainAccountID == "" {
		return Account{ID: uuid.Nil, Name: a.Name}, true
	}
	return Account{ID: a.ID, Name: a.Name}, false
}

// buildScreens starts the screens of a new session: none is built but the
// active one (kept from the previous session when it had one), which loads
// now; the others are built and load when first shown.
func (r *Root) buildScreens() tea.Cmd {
	prev := ""
	if r.active >= 0 && r.active < len(r.factories) && len(r.screens) > 0 {
		prev = r.factories[r.active].ID
	}
	r.screens = make([]Screen, len(r.factories))
	r.active = max(r.screenIndex(prev), 0)
	r.history = nil
	r.filters = map[string]string{}
	r.relayout()
	cmds := []tea.Cmd{r.ensure(r.active)}
	for i, f := range r.factories {
		if f.Watch {
			cmds = append(cmds, r.ensure(i))
		}
	}
	return tea.Batch(r.withPulse(tea.Batch(cmds...)), r.tellShown())
}

// endScreens ends every built screen that holds something (see Ender)
// and returns what they stopped, to be told. Only an account switch drops
// built screens (the first build waits for the account to be resolved),
// and the program's end.
func (r *Root) endScreens() []string {
	var said []string
	for _, s := range r.screens {
		if e, ok := s.(Ender); ok {
			if t := e.End(); t != "" {
				said = append(said, t)
			}
		}
	}
	return said
}

// ensure builds screen i for the current session if it is not built yet,
// and returns its Init.
func (r *Root) ensure(i int) tea.Cmd {
	if i < 0 || i >= len(r.factories) || r.screens[i] != nil || r.session == nil {
		return nil
	}
	s := r.factories[i].New(r.session)
	s.SetSize(r.layout.Width, r.layout.Content)
	r.screens[i] = s
	return s.Init()
}

// relayout recomputes the layout and sizes every component from it.
func (r *Root) relayout() {
	r.layout = NewLayout(r.width, r.height, r.notice() != "", r.cmd != nil || r.filter != nil || r.prompt != nil)
	for _, s := range r.screens {
		if s != nil {
			s.SetSize(r.layout.Width, r.layout.Content)
		}
	}
	if r.cmd != nil {
		r.cmd.input.SetWidth(max(r.width-4, 1))
	}
	if r.filter != nil {
		r.filter.SetWidth(max(r.width-4, 1))
	}
	if r.prompt != nil {
		r.prompt.input.SetWidth(max(r.width-len(r.prompt.msg.Title)-6, 1))
	}
	if r.switcher != nil {
		r.switcher.setSize(r.layout.Width, r.layout.Content)
	}
	r.confirmShown()
}

// screenIndex finds a screen by id.
func (r *Root) screenIndex(id string) int {
	return slices.IndexFunc(r.factories, func(f Factory) bool { return f.ID == id })
}

// show makes screen i active, remembering where we came from for esc, and
// tells every screen.
func (r *Root) show(i int) tea.Cmd {
	built, moved := r.activate(i)
	if !moved {
		return nil
	}
	return tea.Batch(built, r.tellShown())
}

// activate makes screen i active, remembering where we came from for esc;
// it returns the Init of the screen if it was built now, and whether the
// screen shown changed.
func (r *Root) activate(i int) (tea.Cmd, bool) {
	if i < 0 || i >= len(r.screens) || i == r.active {
		return nil, false
	}
	r.history = append(r.history, r.active)
	if len(r.history) > 50 {
		r.history = r.history[len(r.history)-50:]
	}
	r.active = i
	r.relayout()
	return r.withPulse(r.ensure(i)), true
}

// tellShown tells every built screen which one is shown. What they answer
// may include timers (a poll at the new pace): it must never be sequenced
// before another command, which would wait for them.
func (r *Root) tellShown() tea.Cmd { return r.broadcast(ShownMsg{Screen: r.activeID()}) }

func (r *Root) navigate(msg NavigateMsg) tea.Cmd {
	i := r.screenIndex(msg.Screen)
	if i < 0 {
		return Toast(ToastError, fmt.Sprintf("There is no %q screen", msg.Screen))
	}
	built, moved := r.activate(i)
	r.help = false
	cmd := tea.Sequence(built, r.toActive(msg))
	if moved {
		cmd = tea.Batch(cmd, r.tellShown())
	}
	return cmd
}

func (r *Root) back() tea.Cmd {
	if len(r.history) == 0 {
		return nil
	}
	r.active = r.history[len(r.history)-1]
	r.history = r.history[:len(r.history)-1]
	r.relayout()
	return tea.Batch(r.withPulse(r.ensure(r.active)), r.tellShown())
}

// late tells what became of a write whose answer arrived after its
// session ended (an account switch), naming the account it was made on.
func (r *Root) late(msg tea.Msg) tea.Cmd {
	lr, ok := msg.(lateReply)
	if !ok {
		return nil
	}
	text, ok := lr.Late()
	if !ok || text == "" {
		return nil
	}
	log.Printf("after the switch: %s: %s", r.accountName(lr.Request().Account), text)
	return Toast(ToastInfo, r.accountName(lr.Request().Account)+" (before the switch): "+text)
}

// accountName names an account the access may operate, by its id.
func (r *Root) accountName(id uuid.UUID) string {
	if r.session != nil {
		for i, a := range r.session.Accounts {
			if a.ID == id || (id == uuid.Nil && a.MainAccountID == "") {
				if acc, ok := listedAccount(r.session.Accounts, i); ok {
					return displayName(acc)
				}
			}
		}
	}
	return displayName(Account{ID: id})
}

// busyScreens are the screens with a flow under way.
func (r *Root) busyScreens() []Screen {
	var out []Screen
	for _, s := range r.screens {
		if s != nil && s.Busy() {
			out = append(out, s)
		}
	}
	return out
}

// Stopper is a busy screen that says what ending its session does to its
// flow, for the question asked before an account switch or quit: "the
// batch stops after the rows in flight...". A busy screen without it, or
// that says nothing, is said to lose its flow.
type Stopper interface {
	Stopping() string
}

// stopping says, screen by screen, what ending the session does to the
// flows under way, or "" when there is none.
func (r *Root) stopping() string {
	var lines []string
	for _, s := range r.busyScreens() {
		what := "the flow under way is dropped: it belongs to this account"
		if st, ok := s.(Stopper); ok && st.Stopping() != "" {
			what = st.Stopping()
		}
		lines = append(lines, s.Title()+": "+what)
	}
	return strings.Join(lines, "\n")
}

// quit ends the program, asking first when a flow is under way.
func (r *Root) quit() tea.Cmd {
	if body := r.stopping(); body != "" {
		r.openConfirm(ConfirmMsg{
			Title: "Quit Tesouro?",
			Body:  body,
			OnYes: func() tea.Msg { return quitMsg{} },
		})
		return nil
	}
	r.quitting = true
	return tea.Quit
}

// requestSwitch switches the operated account, asking first when a flow is
// under way (a quote is bound to its account and is dropped).
func (r *Root) requestSwitch(a Account) tea.Cmd {
	if r.session == nil {
		return nil
	}
	if a.ID == r.session.Account.ID && len(r.screens) > 0 {
		return Toast(ToastInfo, "Already operating "+r.session.AccountName())
	}
	if r.session.Access != nil {
		probe := r.session.WithAccount(a)
		if probe.Blacklisted() {
			return Toast(ToastError, fmt.Sprintf("This access is blacklisted from %s: pick another account", displayName(a)))
		}
	}
	if body := r.stopping(); body != "" {
		r.openConfirm(ConfirmMsg{
			Title: "Switch to " + displayName(a) + "?",
			Body:  "Switching ends the work of " + r.session.AccountName() + ":\n" + body,
			OnYes: func() tea.Msg { return switchNowMsg{a} },
		})
		return nil
	}
	return r.switchAccount(a)
}

type switchNowMsg struct{ account Account }

func displayName(a Account) string {
	if a.Name != "" {
		return a.Name
	}
	if a.Main() {
		return "the main account"
	}
	return a.ID.String()
}

// switchAccount rebuilds the session and every screen for account a.
func (r *Root) switchAccount(a Account) tea.Cmd {
	log.Printf("switch account: %s (%s)", displayName(a), a.ID)
	// What the old account's screens stop is said with the switch: one
	// toast, so that neither hides the other.
	next := r.session.WithAccount(a)
	said := append([]string{"Now operating " + next.AccountName()}, r.endScreens()...)
	r.session.End()
	r.session = next
	r.resolving, r.resolveErr = "", nil
	cmd := r.buildScreens()
	return tea.Batch(cmd, Toast(ToastSuccess, strings.Join(said, " · ")))
}

// errNotConnected is shown when a command needs the service.
var errNotConnected = errors.New("not connected yet")
