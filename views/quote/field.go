package quote

import (
	"github.com/tesouro-treasury/tesouro/ui/widget"
	"slices"
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
)

// fieldKind is how a form field takes its value.
type fieldKind int

const (
	// kindText is free text.
	kindText fieldKind = iota
	// kindChoice is free text with a list of suggested values that ←/→
	// cycle through: the catalogue is offered, yet any value is accepted
	// and the service has the last word.
	kindChoice
	// kindToggle is one of a fixed list of values, changed with ←/→/space.
	kindToggle
)

// field is one line of a form.
type field struct {
	id      string
	label   string
	kind    fieldKind
	input   textinput.Model
	options []string
	// idx is the toggle's current option.
	idx int
	// note is shown under the field while it has focus (or always, when
	// it reports what was understood of the value).
	note string
	err  string
	// disabled holds why the field cannot be changed ("" when it can).
	disabled string
}

func newText(id, label, placeholder string, limit int) *field {
	in := widget.NewInput()
	in.Prompt = ""
	in.Placeholder = placeholder
	in.CharLimit = limit
	return &field{id: id, label: label, kind: kindText, input: in}
}

func newChoice(id, label string, options []string, value string) *field {
	f := newText(id, label, "", 24)
	f.kind = kindChoice
	f.options = options
	f.input.SetValue(value)
	return f
}

func newToggle(id, label string, options ...string) *field {
	return &field{id: id, label: label, kind: kindToggle, options: options}
}

// Value is the field's value, trimmed; choices are upper-cased because
// currency and method codes are.
func (f *field) Value() string {
	switch f.kind {
	case kindToggle:
		if len(f.options) == 0 {
			return ""
		}
		return f.options[f.idx]
	case kindChoice:
		return strings.ToUpper(strings.TrimSpace(f.input.Value()))
	}
	return strings.TrimSpace(f.input.Value())
}

// Set changes the value (a toggle picks the matching option).
func (f *field) Set(v string) {
	if f.kind == kindToggle {
		if i := slices.Index(f.options, v); i >= 0 {
			f.idx = i
		}
		return
	}
	f.input.SetValue(v)
	f.input.CursorEnd()
}

func (f *field) focus() {
	if f.kind != kindToggle {
		f.input.Focus()
		f.input.CursorEnd()
	}
}

func (f *field) blur() {
	if f.kind != kindToggle {
		f.input.Blur()
	}
}

// cycle moves a choice or toggle to the next (step 1) or previous option.
func (f *field) cycle(step int) bool {
	if len(f.options) == 0 {
		return false
	}
	switch f.kind {
	case kindToggle:
		f.idx = (f.idx + step + len(f.options)) % len(f.options)
		return true
	case kindChoice:
		i := slices.Index(f.options, f.Value())
		if i < 0 {
			if step > 0 {
				i = 0
			} else {
				i = len(f.options) - 1
			}
		} else {
			i = (i + step + len(f.options)) % len(f.options)
		}
		f.Set(f.options[i])
		return true
	}
	return false
}

// update feeds a key to the field; it reports whether the value may have
// changed.
func (f *field) update(msg tea.KeyPressMsg) (bool, tea.Cmd) {
	if f.disabled != "" {
		return false, nil
	}
	switch f.kind {
	case kindToggle:
		switch msg.String() {
		case "left", "h":
			return f.cycle(-1), nil
		case "right", "l", "space", " ":
			return f.cycle(1), nil
		}
		return false, nil
	case kindChoice:
		switch msg.String() {
		case "left":
			return f.cycle(-1), nil
		case "right":
			return f.cycle(1), nil
		}
	}
	before := f.input.Value()
	var cmd tea.Cmd
	f.input, cmd = f.input.Update(msg)
	return f.input.Value() != before, cmd
}

// render draws the field as one line "› Label    value" plus, below it, the
// note or the error. width is the whole line.
func (f *field) render(th theme, focused bool, labelW, width int) []string {
	return append(f.valueLines(th, focused, labelW, width), f.messageLines(th, width)...)
}

// valueLines are "› Label    value", the value continuing under itself when
// it is too long for its room.
func (f *field) valueLines(th theme, focused bool, labelW, width int) []string {
	l := th.labelHead(f.label, focused, labelW)
	valueW := width - labelW - 3
	if valueW < 4 {
		valueW = 4
	}
	var value string
	switch {
	case f.disabled != "":
		value = th.dim.Render(f.Value() + " (" + f.disabled + ")")
		if f.kind == kindText && f.Value() == "" {
			value = th.dim.Render("unavailable: " + f.disabled)
		}
	case f.kind == kindToggle:
		parts := make([]string, len(f.options))
		for i, o := range f.options {
			if i == f.idx {
				parts[i] = th.selected.Render("[" + o + "]")
			} else {
				parts[i] = th.dim.Render(" " + o + " ")
			}
		}
		value = strings.Join(parts, " ")
	default:
		arrows := f.kind == kindChoice && focused
		inputW := valueW - 1
		if arrows {
			// "◂ " and " ▸" share the line with the input.
			inputW = max(inputW-4, 1)
		}
		f.input.SetWidth(inputW)
		value = f.input.View()
		if arrows {
			value = th.dim.Render("◂ ") + value + th.dim.Render(" ▸")
		}
	}
	vs := wrap(value, valueW)
	lines := []string{l + vs[0]}
	indent := strings.Repeat(" ", widthOf(l))
	for _, v := range vs[1:] {
		lines = append(lines, indent+v)
	}
	return lines
}

// messageLines are the error, else the note, indented under the field and
// wrapped to width.
func (f *field) messageLines(th theme, width int) []string {
	msg, style := f.note, th.dim
	if f.err != "" {
		msg, style = "✗ "+f.err, th.err
	}
	if msg == "" {
		return nil
	}
	var lines []string
	for _, m := range wrap(msg, max(width-4, 1)) {
		lines = append(lines, "    "+style.Render(m))
	}
	return lines
}
