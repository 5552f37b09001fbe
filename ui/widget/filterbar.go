package widget

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// FilterField is one field of a FilterBar.
type FilterField struct {
	Key         string // what the screen asks Value for; names it in Summary
	Label       string // shown before the input and in the summary
	Placeholder string
	// Suggestions are offered while typing; tab accepts the suggestion.
	Suggestions []string
	// Normalize checks a non-empty value and returns it as it is sent; its
	// error says what is wrong and how to fix it. Nil keeps the trimmed text.
	Normalize func(string) (string, error)
}

// FilterBarStyles are the styles of a FilterBar.
type FilterBarStyles struct {
	Label, Focused, Hint, Error lipgloss.Style
}

// FilterBar is a small form of server-side filters: the screen opens it, the
// user edits the fields (tab/shift+tab or ↑/↓ move between them, enter
// applies, esc cancels) and the screen reads the applied values. Values are
// only replaced when every field is valid, so a half-typed filter never
// reaches a query.
type FilterBar struct {
	fields []FilterField
	inputs []textinput.Model
	values []string
	focus  int
	open   bool
	err    string
	width  int
	styles FilterBarStyles
	keys   filterKeys
	check  func(value func(key string) string) error
}

type filterKeys struct {
	Next, Prev, Apply, Cancel, Clear key.Binding
}

// NewFilterBar returns a closed filter bar with empty values.
func NewFilterBar(fields ...FilterField) *FilterBar {
	f := &FilterBar{
		fields: fields,
		values: make([]string, len(fields)),
		styles: FilterBarStyles{
			Label:   lipgloss.NewStyle(),
			Focused: lipgloss.NewStyle().Bold(true),
			Hint:    lipgloss.NewStyle().Faint(true),
			Error:   lipgloss.NewStyle().Bold(true),
		},
		keys: filterKeys{
			Next:   key.NewBinding(key.WithKeys("tab", "down"), key.WithHelp("tab/↓", "next field")),
			Prev:   key.NewBinding(key.WithKeys("shift+tab", "up"), key.WithHelp("shift+tab/↑", "previous field")),
			Apply:  key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "apply filters")),
			Cancel: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
			Clear:  key.NewBinding(key.WithKeys("ctrl+x"), key.WithHelp("ctrl+x", "clear all fields")),
		},
	}
	km := textinput.DefaultKeyMap()
	km.NextSuggestion.SetEnabled(false)
	km.PrevSuggestion.SetEnabled(false)
	km.AcceptSuggestion.SetEnabled(false) // tab is handled here
	for _, fd := range fields {
		in := NewInput()
		in.Prompt = ""
		in.Placeholder = fd.Placeholder
		in.KeyMap = km
		in.CharLimit = 120
		if len(fd.Suggestions) > 0 {
			in.ShowSuggestions = true
			in.SetSuggestions(fd.Suggestions)
		}
		f.inputs = append(f.inputs, in)
	}
	return f
}

// SetCheck sets a check across fields (a date range that must not be
// empty, say) run when every field is valid; its error keeps the form open.
func (f *FilterBar) SetCheck(check func(value func(key string) string) error) { f.check = check }

// SetStyles sets the styles.
func (f *FilterBar) SetStyles(s FilterBarStyles) { f.styles = s }

// SetWidth sets the width the form is drawn in.
func (f *FilterBar) SetWidth(w int) {
	f.width = max(w, 0)
	for i := range f.inputs {
		f.inputs[i].SetWidth(max(f.width-f.labelWidth()-5, 1))
	}
}

func (f *FilterBar) labelWidth() int {
	w := 0
	for _, fd := range f.fields {
		w = max(w, lipgloss.Width(fd.Label))
	}
	return w
}

// Open shows the form with the applied values, focused on the first field.
func (f *FilterBar) Open() tea.Cmd {
	f.open, f.err = true, ""
	for i := range f.inputs {
		f.inputs[i].SetValue(f.values[i])
		f.inputs[i].CursorEnd()
		f.inputs[i].Blur()
	}
	f.focus = 0
	return f.inputs[0].Focus()
}

// Close hides the form and drops unapplied edits.
func (f *FilterBar) Close() {
	f.open = false
	for i := range f.inputs {
		f.inputs[i].Blur()
	}
}

// Active reports whether the form is shown (and takes every key).
func (f *FilterBar) Active() bool { return f.open }

// Value returns the applied value of a field.
func (f *FilterBar) Value(key string) string {
	for i, fd := range f.fields {
		if fd.Key == key {
			return f.values[i]
		}
	}
	return ""
}

// Set sets the applied value of a field (as if typed and applied).
func (f *FilterBar) Set(key, value string) {
	for i, fd := range f.fields {
		if fd.Key == key {
			f.values[i] = value
		}
	}
}

// Clear empties every applied value.
func (f *FilterBar) Clear() {
	for i := range f.values {
		f.values[i] = ""
	}
}

// Empty reports whether no filter is applied.
func (f *FilterBar) Empty() bool {
	for _, v := range f.values {
		if v != "" {
			return false
		}
	}
	return true
}

// Summary lists the applied filters by key ("status=PAID out=USDC"), or ""
// when none.
func (f *FilterBar) Summary() string {
	var parts []string
	for i, fd := range f.fields {
		if f.values[i] != "" {
			parts = append(parts, fd.Key+"="+f.values[i])
		}
	}
	return strings.Join(parts, " ")
}

// Update handles a key while the form is open. applied is true when enter
// accepted every field: the screen then runs its query again.
func (f *FilterBar) Update(msg tea.Msg) (applied bool, cmd tea.Cmd) {
	if !f.open {
		return false, nil
	}
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		var cmd tea.Cmd
		f.inputs[f.focus], cmd = f.inputs[f.focus].Update(msg)
		return false, cmd
	}
	in := &f.inputs[f.focus]
	switch {
	case key.Matches(k, f.keys.Cancel):
		f.Close()
		return false, nil
	case key.Matches(k, f.keys.Apply):
		return f.apply(), nil
	case key.Matches(k, f.keys.Clear):
		for i := range f.inputs {
			f.inputs[i].SetValue("")
		}
		f.err = ""
		return false, nil
	case k.String() == "tab" && f.pendingSuggestion():
		in.SetValue(in.CurrentSuggestion())
		in.CursorEnd()
		return false, nil
	case key.Matches(k, f.keys.Next):
		return false, f.move(1)
	case key.Matches(k, f.keys.Prev):
		return false, f.move(-1)
	}
	var c tea.Cmd
	*in, c = in.Update(msg)
	return false, c
}

// pendingSuggestion reports whether the focused field offers a completion
// different from what is typed.
func (f *FilterBar) pendingSuggestion() bool {
	in := &f.inputs[f.focus]
	s := in.CurrentSuggestion()
	return s != "" && in.Value() != "" && !strings.EqualFold(s, in.Value())
}

func (f *FilterBar) move(d int) tea.Cmd {
	f.inputs[f.focus].Blur()
	f.focus = (f.focus + d + len(f.inputs)) % len(f.inputs)
	return f.inputs[f.focus].Focus()
}

// apply validates every field and, when all are valid, makes them the
// applied values and closes the form.
func (f *FilterBar) apply() bool {
	vals := make([]string, len(f.fields))
	for i, fd := range f.fields {
		v := strings.TrimSpace(f.inputs[i].Value())
		if v != "" && fd.Normalize != nil {
			n, err := fd.Normalize(v)
			if err != nil {
				f.err = fd.Label + ": " + err.Error()
				f.inputs[f.focus].Blur()
				f.focus = i
				f.inputs[i].Focus()
				return false
			}
			v = n
		}
		vals[i] = v
	}
	if f.check != nil {
		get := func(key string) string {
			for i, fd := range f.fields {
				if fd.Key == key {
					return vals[i]
				}
			}
			return ""
		}
		if err := f.check(get); err != nil {
			f.err = err.Error()
			return false
		}
	}
	copy(f.values, vals)
	f.Close()
	return true
}

// Err is the validation error shown in the form, if any.
func (f *FilterBar) Err() string { return f.err }

// KeyMap returns the form's bindings.
func (f *FilterBar) KeyMap() []key.Binding {
	return []key.Binding{f.keys.Apply, f.keys.Cancel, f.keys.Next, f.keys.Prev, f.keys.Clear}
}

// View draws the form in at most height lines: the fields around the
// focused one, then the error or the focused field's hint.
func (f *FilterBar) View(height int) string {
	if height <= 0 {
		return ""
	}
	lw := f.labelWidth()
	lines := make([]string, 0, len(f.fields))
	for i, fd := range f.fields {
		label := fd.Label + strings.Repeat(" ", lw-lipgloss.Width(fd.Label))
		mark := "  "
		st := f.styles.Label
		if i == f.focus {
			mark, st = "▶ ", f.styles.Focused
		}
		lines = append(lines, mark+st.Render(label)+" "+f.inputs[i].View())
	}
	hint := ""
	switch {
	case f.err != "":
		hint = f.styles.Error.Render("✗ " + f.err)
	case len(f.fields[f.focus].Suggestions) > 0:
		hint = f.styles.Hint.Render("one of: " + strings.Join(f.fields[f.focus].Suggestions, " ") + " (tab completes)")
	default:
		hint = f.styles.Hint.Render("enter applies · esc cancels · empty fields are not filtered on")
	}
	// Keep the focused field in view when the fields do not all fit.
	room := height - 1
	if room <= 0 {
		return hint
	}
	start := 0
	if len(lines) > room {
		start = min(max(f.focus-room/2, 0), len(lines)-room)
		lines = lines[start : start+room]
	}
	return strings.Join(append(lines, hint), "\n")
}
