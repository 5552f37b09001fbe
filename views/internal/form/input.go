package form

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tesouro-treasury/tesouro/ui/widget"
)

// Kind is how an Input takes its value.
type Kind int

const (
	// Text is free text.
	Text Kind = iota
	// Suggest is free text with a list of suggested values that ←/→ cycle
	// through: a catalogue is offered, yet any value is accepted and the
	// service has the last word.
	Suggest
	// Toggle is one of a fixed list of values, changed with ←/→/space.
	Toggle
)

// Input is one field of a form: its value, the live note under it (what
// was recognised of the value, or how to fill it), its error, and why it
// cannot be changed when it cannot. Form is built of Inputs; a screen with
// a form of its own shape (the quote builder) lays Inputs out itself.
type Input struct {
	ID, Label string
	Kind      Kind
	// Options are a Suggest's suggestions or a Toggle's values.
	Options []string
	// Note is shown under the field: a live hint ("understood: 12.50 BRL").
	Note string
	// Err is shown under the field instead of the note.
	Err string
	// Disabled holds why the field cannot be changed ("" when it can).
	Disabled string

	text textinput.Model
	idx  int // a Toggle's current option
	// chosen is true while a Suggest's value was chosen (cycled to, or set
	// by the screen) rather than typed: the first character typed then
	// replaces it instead of being added to it.
	chosen bool
}

// NewText is a free text input of at most limit characters.
func NewText(id, label, placeholder string, limit int) *Input {
	in := widget.NewInput()
	in.Prompt = ""
	in.Placeholder = placeholder
	in.CharLimit = limit
	return &Input{ID: id, Label: label, Kind: Text, text: in}
}

// NewSuggest is a text input offering options, starting at value.
func NewSuggest(id, label string, options []string, value string) *Input {
	f := NewText(id, label, "", 24)
	f.Kind = Suggest
	f.Options = options
	f.text.SetValue(value)
	f.chosen = value != ""
	return f
}

// NewToggle is a choice among options, starting at the first.
func NewToggle(id, label string, options ...string) *Input {
	return &Input{ID: id, Label: label, Kind: Toggle, Options: options}
}

// Value is the field's value, trimmed. A Suggest's is spelt as the option
// it names, whatever the case typed ("usdce" is "USDCe"), and upper-cased
// when it names none, because the codes it suggests (currencies, methods)
// are.
func (f *Input) Value() string {
	switch f.Kind {
	case Toggle:
		if f.idx >= len(f.Options) {
			return ""
		}
		return f.Options[f.idx]
	case Suggest:
		v := strings.TrimSpace(f.text.Value())
		if i := f.option(v); i >= 0 {
			return f.Options[i]
		}
		return strings.ToUpper(v)
	}
	return strings.TrimSpace(f.text.Value())
}

// option is the index of the option v names, whatever its case, or -1.
func (f *Input) option(v string) int {
	return slices.IndexFunc(f.Options, func(o string) bool { return strings.EqualFold(o, v) })
}

// Set changes the value (a Toggle picks the matching option, if any).
func (f *Input) Set(v string) {
	if f.Kind == Toggle {
		if i := slices.Index(f.Options, v); i >= 0 {
			f.idx = i
		}
		return
	}
	f.text.SetValue(v)
	f.text.CursorEnd()
	f.chosen = f.Kind == Suggest && v != ""
}

// SetWidth gives a text input the cells its value may take.
func (f *Input) SetWidth(w int) { f.text.SetWidth(w) }

// Focus gives the field the keyboard.
func (f *Input) Focus() tea.Cmd {
	if f.Kind == Toggle {
		return nil
	}
	cmd := f.text.Focus()
	f.text.CursorEnd()
	return cmd
}

// Blur takes the keyboard away.
func (f *Input) Blur() {
	if f.Kind != Toggle {
		f.text.Blur()
	}
}

// Cycle moves a Suggest or Toggle to the next (step 1) or previous option;
// it reports whether the value changed.
func (f *Input) Cycle(step int) bool {
	if len(f.Options) == 0 {
		return false
	}
	switch f.Kind {
	case Toggle:
		f.idx = (f.idx + step + len(f.Options)) % len(f.Options)
		return true
	case Suggest:
		i := f.option(f.Value())
		switch {
		case i >= 0:
			i = (i + step + len(f.Options)) % len(f.Options)
		case step > 0:
			i = 0
		default:
			i = len(f.Options) - 1
		}
		f.Set(f.Options[i])
		return true
	}
	return false
}

// Update feeds a key to the field; it reports whether the value may have
// changed.
func (f *Input) Update(msg tea.KeyPressMsg) (bool, tea.Cmd) {
	if f.Disabled != "" {
		return false, nil
	}
	switch f.Kind {
	case Toggle:
		switch msg.String() {
		case "left", "h":
			return f.Cycle(-1), nil
		case "right", "l", "space", " ":
			return f.Cycle(1), nil
		}
		return false, nil
	case Suggest:
		switch msg.String() {
		case "left":
			return f.Cycle(-1), nil
		case "right":
			return f.Cycle(1), nil
		}
	}
	return f.feed(msg)
}

// Paste gives a text field what is not a key but may change its value:
// pasted text, or the clipboard's answer to ctrl+v. It reports whether the
// value changed (a Toggle, or a disabled field, takes nothing).
func (f *Input) Paste(msg tea.Msg) (bool, tea.Cmd) {
	if f.Kind == Toggle || f.Disabled != "" {
		return false, nil
	}
	return f.feed(msg)
}

func (f *Input) feed(msg tea.Msg) (bool, tea.Cmd) {
	before := f.text.Value()
	if f.chosen && replaces(msg) {
		// A code chosen with ←/→ is replaced by what is typed over it:
		// "USD" typed over "USDM" is USD, not USDMUSD.
		f.text.SetValue("")
	}
	if _, isKey := msg.(tea.KeyPressMsg); isKey || f.text.Value() != before {
		f.chosen = false
	}
	var cmd tea.Cmd
	f.text, cmd = f.text.Update(msg)
	if v := f.text.Value(); f.Kind == Suggest && v != "" && v != f.Value() && strings.TrimSpace(v) == v {
		// A code reads as it is sent: "usd" typed shows USD.
		pos := f.text.Position()
		f.text.SetValue(f.Value())
		f.text.SetCursor(pos)
	}
	return f.text.Value() != before, cmd
}

// replaces reports whether msg puts text in the field: a printable key
// (no ctrl or alt held) or a paste.
func replaces(msg tea.Msg) bool {
	switch m := msg.(type) {
	case tea.KeyPressMsg:
		return m.Text != "" && m.Mod&(tea.ModCtrl|tea.ModAlt) == 0
	case tea.PasteMsg:
		return m.Content != ""
	}
	return false
}

// LineStyles are the styles of a form laid out one field a line (Inputs
// and Pickers). Meaning never rests on colour alone: focus has a "›"
// marker, errors a "✗", the selected option brackets.
type LineStyles struct {
	Marker, Label, FocusLabel, Dim, Value, Selected, Error lipgloss.Style
}

// Head starts a line: the "›" focus marker (or room for it) and the label
// padded to labelW, ready for the value.
func (st LineStyles) Head(label string, focused bool, labelW int) string {
	if focused {
		return st.Marker.Render("›") + " " + st.FocusLabel.Render(padTo(label, labelW)) + " "
	}
	return "  " + st.Label.Render(padTo(label, labelW)) + " "
}

// Render draws the field as "› Label    value" plus, below it, the note or
// the error, all within width cells.
func (f *Input) Render(st LineStyles, focused bool, labelW, width int) []string {
	return append(f.ValueLines(st, focused, labelW, width), f.MessageLines(st, width)...)
}

// ValueLines are "› Label    value", the value continuing under itself
// when it is too long for its room.
func (f *Input) ValueLines(st LineStyles, focused bool, labelW, width int) []string {
	return f.valueLines(st, f.Label, focused, labelW, width)
}

func (f *Input) valueLines(st LineStyles, label string, focused bool, labelW, width int) []string {
	l := st.Head(label, focused, labelW)
	valueW := max(width-labelW-3, 4)
	var value string
	switch {
	case f.Disabled != "":
		value = st.Dim.Render(f.Value() + " (" + f.Disabled + ")")
		if f.Kind != Toggle && f.Value() == "" {
			value = st.Dim.Render("unavailable: " + f.Disabled)
		}
	case f.Kind == Toggle && f.listed(valueW):
		parts := make([]string, len(f.Options))
		for i, o := range f.Options {
			if i == f.idx {
				parts[i] = st.Selected.Render("[" + o + "]")
			} else {
				parts[i] = st.Dim.Render(" " + o + " ")
			}
		}
		value = strings.Join(parts, " ")
	case f.Kind == Toggle:
		v := f.Value()
		if v == "" {
			v = "not given"
		}
		value = "‹ " + v + " ›"
		if focused {
			value = st.Selected.Render(value)
		}
	default:
		arrows := f.Kind == Suggest && focused
		inputW := valueW - 1
		if arrows {
			// "◂ " and " ▸" share the line with the input.
			inputW = max(inputW-4, 1)
		}
		if f.Kind == Suggest {
			// A code is short: the arrows stay beside the longest one.
			w := lipgloss.Width(f.text.Value())
			for _, o := range f.Options {
				w = max(w, lipgloss.Width(o))
			}
			inputW = min(inputW, max(w, 5)+1)
		}
		if f.text.Width() != inputW {
			f.text.SetWidth(inputW)
			// What is shown of a long value follows the new width.
			f.text.SetCursor(f.text.Position())
		}
		value = f.text.View()
		if arrows {
			value = st.Dim.Render("◂ ") + value + st.Dim.Render(" ▸")
		}
	}
	vs := wrapTo(value, valueW)
	lines := []string{l + vs[0]}
	indent := strings.Repeat(" ", lipgloss.Width(l))
	for _, v := range vs[1:] {
		lines = append(lines, indent+v)
	}
	return lines
}

// listed reports whether a toggle shows all its options side by side: when
// they fit in w cells and none is blank (a blank option reads "not given"
// only when it stands alone).
func (f *Input) listed(w int) bool {
	n := 0
	for _, o := range f.Options {
		if o == "" {
			return false
		}
		n += lipgloss.Width(o) + 3
	}
	return n <= w
}

// MessageLines are the error, else the note, indented under the field and
// wrapped to width.
func (f *Input) MessageLines(st LineStyles, width int) []string {
	msg, style := f.Note, st.Dim
	if f.Err != "" {
		msg, style = "✗ "+f.Err, st.Error
	}
	if msg == "" {
		return nil
	}
	var lines []string
	for _, m := range wrapTo(msg, max(width-4, 1)) {
		lines = append(lines, "    "+style.Render(m))
	}
	return lines
}

// wrapTo breaks text to w cells (words longer than w are cut).
func wrapTo(s string, w int) []string {
	return strings.Split(ansi.Wrap(s, max(w, 1), ""), "\n")
}

// padTo pads s with spaces to w cells, or cuts it.
func padTo(s string, w int) string {
	n := lipgloss.Width(s)
	if n > w {
		return ansi.Truncate(s, w, "…")
	}
	return s + strings.Repeat(" ", w-n)
}
