// Package form is the one form engine of the dashboard's screens.
//
// A Form is a vertical list of fields, one focused at a time, with local
// checks, cross-field rules and the service's errors put back on the field
// they name. A field is free text, text with suggestions cycled by ←/→ (a
// currency, a method: fixed, or computed from the other fields), a toggle
// among fixed values, or a Picker: one choice from a list the screen loads,
// filtered as the user types. A field can be shown only while other values
// call for it, disabled with the reason said beside it, or set from the
// other fields (the amount a BR Code carries); under it stand its error, or
// what was understood of its value ("understood: 12.50 BRL", "recognised:
// CPF"), and while it has focus how to fill it. The Beneficiaries,
// Compliance and Quote screens all run on it: a screen that lays the form
// out beside something else (the quote builder, its form beside the quote)
// takes its Lines and places them itself.
//
// Why not huh (charm.land/huh/v2): a huh form owns its layout, focus and
// keys, so a screen that owns only its content area (down to 40×12, beside
// a quote panel that updates every second) cannot place it; its validation
// runs on the field's own value, with no way to pin an error of the service
// on a named field until that value changes; and live hints would be
// rebuilt as dynamic descriptions on every key. What the screens need is
// small enough to keep here, on the same text inputs (widget.NewInput) as
// the rest of the dashboard.
//
// The filter bar (ui/widget) cannot use these pieces: this package imports
// ui/widget, so the widget importing it would be a cycle.
package form

import (
	"errors"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// Check validates a non-blank value. It returns the value to send (the
// normalised form: digits only, the checksummed address...) and a hint shown
// under the field while it is valid ("recognised: CPF"). A blank value never
// reaches Check: Required decides about it. value reads the other fields
// (a wallet address is checked by the rules of the chain chosen beside it).
type Check func(v string, value func(key string) string) (normalized, hint string, err error)

// Values reads the current value of the field named key.
type Values = func(key string) string

// Field describes one input of a form.
type Field struct {
	// Key is the field's name on the wire; an error of the service that
	// names it lands on this field.
	Key         string
	Label       string
	Required    bool
	Placeholder string
	// Choices makes a choice field (cycled with ←/→ or space) instead of a
	// text input. The first choice is the initial value.
	Choices []string
	// Suggest makes a text field that offers these values, cycled with
	// ←/→ (the first is the initial value); any value typed is kept.
	Suggest []string
	// Options are suggestions computed from the other fields (the methods
	// of the currency chosen beside it). When they change, a value they do
	// not offer gives way to the first of them (a value typed meanwhile
	// stays: the form's checks judge it).
	Options func(value Values) []string
	// Picker makes the field a choice among options the screen loads
	// (Form.Picker gives them to it); its value is the chosen option's id.
	Picker bool
	Check  Check
	// Visible hides the field unless it returns true; it reads the other
	// fields' current values. Hidden fields are neither checked nor sent.
	Visible func(value Values) bool
	// Disabled says why the field cannot be changed now, "" when it can.
	// A disabled field can still have focus, to read why.
	Disabled func(value Values) string
	// Derive sets the field from the others: while why is not empty the
	// field holds v and cannot be changed, and why says so (the amount a
	// BR Code carries).
	Derive func(value Values) (v, why string)
	// Help says how to fill the field, under it while it has focus.
	Help func(value Values) string
	// Missing is what a required field left blank says; "required: fill
	// it in" (a picker: "choose one") when empty.
	Missing   string
	CharLimit int
}

// Result is what an Update did to the form.
type Result int

// Results of Update.
const (
	None      Result = iota
	Submitted        // every visible field passed its checks: send it
	Cancelled        // the user left the form
	Changed          // a value changed
)

// field is a Field with its Input (or Picker): the value and the keys are
// the Input's, the checks and what is shown of them the Form's.
type field struct {
	Field
	in      *Input
	pk      *Picker
	touched bool   // left once, or a submit was attempted: show errors
	err     string // local error
	hint    string
	norm    string
	// derived is why Derive holds the value ("" when it does not).
	derived string
	// srvErr is the service's complaint about srvVal; it goes away as soon
	// as the value changes.
	srvErr, srvVal string
	// note is what the screen learnt about noteVal (who a PIX key pays);
	// shown under the hint while the value stays the same.
	note, noteVal string
}

// Form is a vertical list of fields with one focused at a time.
type Form struct {
	Title string
	// EnterSubmits makes enter submit from any field (the quote form:
	// enter asks for the quote); otherwise enter moves on and submits from
	// the last field.
	EnterSubmits bool
	// LabelWidth is the cells given to labels; 0 fits the longest label
	// (at most a third of the width).
	LabelWidth int
	// Empty is what a picker with nothing to offer says.
	Empty string

	fields  []*field
	focus   int
	width   int
	height  int
	formErr string
	sending bool
	keys    keyMap
	rules   []Rule
	// broken is the complaint of the rule that failed last, until a field
	// it read changes.
	broken *ruleError
	styles Styles
}

// ruleError is a Rule's complaint with the values the rule read: it holds
// while they do. A rule's error is about those fields together, so a change
// to any of them (not only to the field it is shown under) may settle it.
type ruleError struct {
	key, msg string
	read     map[string]string
}

// Rule is a check across fields ("a Bre-B key or a bank account number").
// It returns the key of the field to blame and the message, or "" when the
// rule holds. The fields it reads (through value) are what its message is
// about: the message goes as soon as any of them changes.
type Rule func(value Values) (key, msg string)

// AddRule adds a check across fields, run by Validate after every field
// passed its own checks.
func (f *Form) AddRule(r Rule) { f.rules = append(f.rules, r) }

type keyMap struct {
	Next, Prev, Submit, Cancel, Left, Right key.Binding
}

func newKeyMap() keyMap {
	return keyMap{
		Next:   key.NewBinding(key.WithKeys("tab", "down"), key.WithHelp("tab/↓", "next field")),
		Prev:   key.NewBinding(key.WithKeys("shift+tab", "up"), key.WithHelp("shift+tab/↑", "previous field")),
		Submit: key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "send (enter on the last field)")),
		Cancel: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
		Left:   key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←/→", "change choice")),
		Right:  key.NewBinding(key.WithKeys("right", "l", "space")),
	}
}

// New builds a form; the first visible field has focus once Focus is called.
func New(title string, fields ...Field) *Form {
	f := &Form{Title: title, keys: newKeyMap(), width: 60, height: 20, styles: DefaultStyles()}
	for _, d := range fields {
		fl := &field{Field: d}
		limit := 200
		if d.CharLimit > 0 {
			limit = d.CharLimit
		}
		switch {
		case d.Picker:
			fl.pk = NewPicker(d.Key, d.Label)
		case len(d.Choices) > 0:
			fl.in = NewToggle(d.Key, d.Label, d.Choices...)
		case d.Suggest != nil || d.Options != nil:
			first := ""
			if len(d.Suggest) > 0 {
				first = d.Suggest[0]
			}
			fl.in = NewSuggest(d.Key, d.Label, d.Suggest, first)
			if d.CharLimit > 0 {
				fl.in.text.CharLimit = d.CharLimit
			}
			fl.in.text.Placeholder = d.Placeholder
		default:
			fl.in = NewText(d.Key, d.Label, d.Placeholder, limit)
		}
		f.fields = append(f.fields, fl)
	}
	f.Refresh()
	return f
}

// Focus gives the keyboard to the form (the first visible field).
func (f *Form) Focus() tea.Cmd {
	f.focus = -1
	return f.move(1)
}

// Blur takes the keyboard from the form: no field has focus (nor its
// marker) until Focus.
func (f *Form) Blur() {
	f.focusIndex(-1)
}

// FocusFirstToFill gives the keyboard to the first field that still needs
// the user: a required field left blank, else the first field that can be
// changed, else the first one shown.
func (f *Form) FocusFirstToFill() tea.Cmd {
	first, open := -1, -1
	for i, fl := range f.fields {
		if !f.visible(fl) {
			continue
		}
		if first < 0 {
			first = i
		}
		if f.disabled(fl) != "" {
			continue
		}
		if fl.Required && f.raw(fl) == "" {
			return f.focusIndex(i)
		}
		if open < 0 {
			open = i
		}
	}
	switch {
	case open >= 0:
		return f.focusIndex(open)
	case first >= 0:
		return f.focusIndex(first)
	}
	return nil
}

// KeyMap is the form's live bindings, for help.
func (f *Form) KeyMap() []key.Binding {
	b := []key.Binding{f.keys.Next, f.keys.Prev, f.keys.Submit, f.keys.Cancel}
	if fl := f.focused(); fl != nil && fl.in != nil && fl.in.Kind != Text {
		b = append(b, f.keys.Left)
	}
	return b
}

// Sending marks the form as submitted and waiting for the service: keys are
// ignored until SetSending(false), so that the same form is not sent twice.
func (f *Form) SetSending(v bool) { f.sending = v }

// Sending reports whether the form waits for the service.
func (f *Form) Sending() bool { return f.sending }

func (f *Form) get(k string) *field {
	for _, fl := range f.fields {
		if fl.Key == k {
			return fl
		}
	}
	return nil
}

func (f *Form) raw(fl *field) string {
	if fl.pk != nil {
		if fl.pk.Chosen == nil {
			return ""
		}
		return fl.pk.Chosen.ID.String()
	}
	return fl.in.Value()
}

// Value is the field's current value, trimmed ("" for an unknown key); a
// picker's is the chosen option's id.
func (f *Form) Value(k string) string {
	fl := f.get(k)
	if fl == nil {
		return ""
	}
	return f.raw(fl)
}

// Normalized is the value to send: the normalised form returned by the
// field's check, or the trimmed value. Hidden fields give "".
func (f *Form) Normalized(k string) string {
	fl := f.get(k)
	if fl == nil || !f.visible(fl) {
		return ""
	}
	if fl.norm != "" {
		return fl.norm
	}
	return f.raw(fl)
}

// SetValue fills a field (a choice field takes the matching choice, a
// picker the option of that id) as the screen, not the user, sets it.
func (f *Form) SetValue(k, v string) {
	fl := f.get(k)
	if fl == nil {
		return
	}
	if fl.pk != nil {
		fl.pk.Choose(v)
	} else {
		fl.in.Set(v)
	}
	f.Refresh()
}

// Picker is the picker of field k (nil when k is not a picker), for the
// screen to give it its options and read the chosen one. After changing
// it, Refresh.
func (f *Form) Picker(k string) *Picker {
	if fl := f.get(k); fl != nil {
		return fl.pk
	}
	return nil
}

// Visible reports whether the field is shown now.
func (f *Form) Visible(k string) bool {
	fl := f.get(k)
	return fl != nil && f.visible(fl)
}

func (f *Form) visible(fl *field) bool {
	return fl.Visible == nil || fl.Visible(f.Value)
}

// Disabled says why field k cannot be changed now ("" when it can).
func (f *Form) Disabled(k string) string {
	if fl := f.get(k); fl != nil {
		return f.disabled(fl)
	}
	return ""
}

func (f *Form) disabled(fl *field) string {
	if fl.in != nil {
		return fl.in.Disabled
	}
	return ""
}

// Error is the message under a field ("" when none is shown).
func (f *Form) Error(k string) string {
	fl := f.get(k)
	if fl == nil {
		return ""
	}
	return f.shownError(fl)
}

// Hint is the hint under a valid field ("recognised: CPF").
func (f *Form) Hint(k string) string {
	fl := f.get(k)
	if fl == nil || f.shownError(fl) != "" {
		return ""
	}
	return fl.hint
}

// SetNote shows note under the field, after its hint, while its value
// stays what it is now: what the screen learnt about that value from the
// service (who a PIX key pays). An empty note removes it.
func (f *Form) SetNote(k, note string) {
	if fl := f.get(k); fl != nil {
		fl.note, fl.noteVal = note, f.raw(fl)
	}
}

// Note is the note under a field ("" when none is shown).
func (f *Form) Note(k string) string {
	fl := f.get(k)
	if fl == nil || f.shownError(fl) != "" {
		return ""
	}
	return f.noteOf(fl)
}

func (f *Form) noteOf(fl *field) string {
	if fl.note == "" || f.raw(fl) != fl.noteVal {
		return ""
	}
	return fl.note
}

// FormError is the error that names no field.
func (f *Form) FormError() string {
	if r := f.broken; r != nil && !f.Visible(r.key) {
		return r.msg
	}
	return f.formErr
}

// Keys are the keys of the fields shown now, in order.
func (f *Form) Keys() []string {
	var out []string
	for _, fl := range f.fields {
		if f.visible(fl) {
			out = append(out, fl.Key)
		}
	}
	return out
}

// Summary is what the form will send, as a confirmation repeats it: the
// label and the value to send of each field shown that holds one.
func (f *Form) Summary() [][2]string {
	var out [][2]string
	for _, fl := range f.fields {
		if v := f.Normalized(fl.Key); v != "" {
			out = append(out, [2]string{fl.Label, v})
		}
	}
	return out
}

// FocusedKey is the key of the field with focus.
func (f *Form) FocusedKey() string {
	if fl := f.focused(); fl != nil {
		return fl.Key
	}
	return ""
}

func (f *Form) shownError(fl *field) string {
	if fl.srvErr != "" && f.raw(fl) == fl.srvVal {
		return fl.srvErr
	}
	if r := f.broken; r != nil && r.key == fl.Key {
		return r.msg
	}
	if fl.touched {
		return fl.err
	}
	return ""
}

func (f *Form) focused() *field {
	if f.focus < 0 || f.focus >= len(f.fields) {
		return nil
	}
	return f.fields[f.focus]
}

// recheck runs the field's local rules on its current value.
func (f *Form) recheck(fl *field) {
	fl.err, fl.hint, fl.norm = "", "", ""
	v := f.raw(fl)
	if v == "" {
		if fl.Required {
			switch {
			case fl.pk != nil && fl.pk.Loading:
				fl.err = "still loading: wait a moment"
			case fl.Missing != "":
				fl.err = fl.Missing
			case fl.pk != nil:
				fl.err = "choose one: type to filter, ↑/↓, enter"
			default:
				fl.err = "required: fill it in"
			}
		}
		return
	}
	if fl.Check == nil {
		return
	}
	n, h, err := fl.Check(v, f.Value)
	if err != nil {
		fl.err = err.Error()
		return
	}
	fl.norm, fl.hint = n, h
}

// Refresh brings everything that depends on other values up to date: the
// options offered, the values derived, what is disabled, the checks. The
// form does it after every change it sees; a screen calls it after
// changing what the form's functions read (a picker's list, an access that
// loaded).
func (f *Form) Refresh() {
	// Twice: a value set from another may itself be read by a third.
	for range 2 {
		for _, fl := range f.fields {
			f.sync(fl)
		}
	}
	f.recheckAll()
}

// sync applies the field's options, derivation and disabling.
func (f *Form) sync(fl *field) {
	if fl.in == nil {
		return
	}
	if fl.Options != nil {
		opts := fl.Options(f.Value)
		moved := !slices.Equal(opts, fl.in.Options) || fl.in.Value() == ""
		fl.in.Options = opts
		if moved && len(opts) > 0 && fl.in.option(fl.in.Value()) < 0 {
			fl.in.Set(opts[0])
		}
	}
	fl.derived = ""
	if fl.Derive != nil {
		if v, why := fl.Derive(f.Value); why != "" {
			if fl.in.Value() != v {
				fl.in.Set(v)
			}
			fl.derived = why
		}
	}
	fl.in.Disabled = fl.derived
	if fl.Disabled != nil && fl.derived == "" {
		fl.in.Disabled = fl.Disabled(f.Value)
	}
}

func (f *Form) recheckAll() {
	for _, fl := range f.fields {
		f.recheck(fl)
	}
	if r := f.broken; r != nil {
		for k, v := range r.read {
			if f.Value(k) != v {
				f.broken = nil
				break
			}
		}
	}
}

// Validate checks every visible field, shows every error and moves the focus
// to the first field in error. It reports whether the form may be sent.
func (f *Form) Validate() bool {
	f.Refresh()
	f.formErr = ""
	first := -1
	for i, fl := range f.fields {
		if !f.visible(fl) {
			continue
		}
		fl.touched = true
		if f.shownError(fl) != "" && first < 0 {
			first = i
		}
	}
	if first >= 0 {
		f.focusIndex(first)
		return false
	}
	f.broken = nil
	for _, r := range f.rules {
		read := map[string]string{}
		k, msg := r(func(key string) string {
			v := f.Value(key)
			read[key] = v
			return v
		})
		if msg != "" {
			f.broken = &ruleError{key: k, msg: msg, read: read}
			f.FocusField(k)
			return false
		}
	}
	return true
}

// SetFieldError shows msg under the field named k until its value changes,
// and focuses it. It reports false when no visible field has that key.
func (f *Form) SetFieldError(k, msg string) bool {
	for i, fl := range f.fields {
		if fl.Key == k && f.visible(fl) {
			fl.srvErr, fl.srvVal = msg, f.raw(fl)
			f.focusIndex(i)
			return true
		}
	}
	return false
}

// FocusField moves the focus to the visible field k, so that what is said
// under it is in view; false when k is not shown.
func (f *Form) FocusField(k string) bool {
	for i, fl := range f.fields {
		if fl.Key == k && f.visible(fl) {
			f.focusIndex(i)
			return true
		}
	}
	return false
}

// SetFormError shows an error that names no field, above the fields.
func (f *Form) SetFormError(msg string) { f.formErr = msg }

// ApplyError puts an error of the service on the field it names, or on the
// form when it names none. It returns the key of the field ("" for the form).
func (f *Form) ApplyError(err error) string {
	if err == nil {
		return ""
	}
	keys := make([]string, 0, len(f.fields))
	for _, fl := range f.fields {
		if f.visible(fl) {
			keys = append(keys, fl.Key)
		}
	}
	k, msg := FieldOf(err, keys)
	if k != "" && f.SetFieldError(k, msg) {
		return k
	}
	f.formErr = msg
	return ""
}

func (f *Form) focusIndex(i int) tea.Cmd {
	if cur := f.focused(); cur != nil {
		if cur.pk != nil {
			cur.pk.Blur()
		} else {
			cur.in.Blur()
		}
	}
	f.focus = i
	if fl := f.focused(); fl != nil {
		if fl.pk != nil {
			return fl.pk.Focus()
		}
		return fl.in.Focus()
	}
	return nil
}

// move focuses the next (dir 1) or previous (dir -1) visible field, marking
// the field left as touched so that its error shows. It stops at either
// end instead of going round.
func (f *Form) move(dir int) tea.Cmd {
	if cur := f.focused(); cur != nil {
		cur.touched = true
	}
	for i := f.focus + dir; i >= 0 && i < len(f.fields); i += dir {
		if f.visible(f.fields[i]) {
			return f.focusIndex(i)
		}
	}
	if f.focus < 0 { // nothing visible at all
		return nil
	}
	return f.focusIndex(f.focus)
}

func (f *Form) lastVisible() bool {
	for i := f.focus + 1; i < len(f.fields); i++ {
		if f.visible(f.fields[i]) {
			return false
		}
	}
	return true
}

// pickerKeys are the keys a focused picker keeps for its list.
var pickerKeys = map[string]bool{"up": true, "down": true, "ctrl+p": true, "ctrl+n": true}

// Update handles a key or any message the text inputs need (cursor blink,
// a paste).
func (f *Form) Update(msg tea.Msg) (Result, tea.Cmd) {
	kp, ok := msg.(tea.KeyPressMsg)
	fl := f.focused()
	if !ok {
		if fl == nil || f.sending {
			return None, nil
		}
		// A paste changes the value: check it as typing would.
		if fl.pk != nil {
			return None, fl.pk.Paste(msg)
		}
		changed, cmd := fl.in.Paste(msg)
		if changed {
			f.Refresh()
			return Changed, cmd
		}
		return None, cmd
	}
	if f.sending {
		return None, nil
	}
	switch {
	case key.Matches(kp, f.keys.Cancel):
		return Cancelled, nil
	case key.Matches(kp, f.keys.Submit):
		return f.submit()
	case kp.String() == "enter":
		if fl != nil && fl.pk != nil {
			chose, cmd := fl.pk.Update(kp)
			if !chose {
				return None, cmd
			}
			f.Refresh()
			if f.EnterSubmits || f.lastVisible() {
				return f.submit()
			}
			return Changed, f.move(1)
		}
		if f.EnterSubmits || f.lastVisible() {
			return f.submit()
		}
		return None, f.move(1)
	case fl != nil && fl.pk != nil && pickerKeys[kp.String()]:
		_, cmd := fl.pk.Update(kp)
		return None, cmd
	case key.Matches(kp, f.keys.Next):
		return None, f.move(1)
	case key.Matches(kp, f.keys.Prev):
		return None, f.move(-1)
	}
	if fl == nil {
		return None, nil
	}
	if fl.pk != nil {
		_, cmd := fl.pk.Update(kp)
		return None, cmd
	}
	changed, cmd := fl.in.Update(kp)
	if !changed {
		return None, cmd
	}
	f.Refresh()
	return Changed, cmd
}

func (f *Form) submit() (Result, tea.Cmd) {
	if !f.Validate() {
		return None, nil
	}
	return Submitted, nil
}

// help is what the focused field says about how to fill it: its Help, or
// for a suggestion field its suggestions.
func (f *Form) help(fl *field) string {
	switch {
	case fl.Help != nil:
		return fl.Help(f.Value)
	case fl.in != nil && fl.in.Kind == Suggest && len(fl.in.Options) > 0 && f.disabled(fl) == "":
		return "←/→ " + strings.Join(fl.in.Options, " ") + " (or type any code)"
	}
	return ""
}

// errNoField is what FieldOf returns for a nil error's message.
var errNoField = errors.New("the service refused the request")
