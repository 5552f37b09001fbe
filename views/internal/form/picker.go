package form

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/ui/widget"
)

// Option is one thing a Picker offers (a beneficiary, a wallet).
type Option struct {
	ID    uuid.UUID
	Title string
	// Details are the lines a confirmation repeats (name, key, account).
	Details []string
	// Disabled says why the option cannot be chosen ("" when it can).
	Disabled string
	// search is what the filter matches, lower-cased.
	search string
}

// Picker chooses one Option from a list that filters as the user types.
// The list arrives after the picker is shown (it is loaded), and may be
// loaded again: the choice and the cursor follow their option's id.
type Picker struct {
	ID, Label string
	// All is the list loaded; Chosen points into it.
	All    []Option
	Chosen *Option
	// Loading is true until the first list arrives; LoadErr says why a
	// load failed or fell short.
	Loading bool
	LoadErr string
	// Err is the complaint about the choice ("nothing matches").
	Err string
	// Rows is how many options are listed while the picker has focus.
	Rows int

	filter  textinput.Model
	matches []int
	cursor  int
}

// NewPicker is an empty picker waiting for its list.
func NewPicker(id, label string) *Picker {
	in := widget.NewInput()
	in.Prompt = "filter: "
	in.Placeholder = "type to filter"
	in.CharLimit = 64
	return &Picker{ID: id, Label: label, filter: in, Loading: true, Rows: 5}
}

// SetOptions replaces the list; the chosen option stays chosen, and the
// cursor stays on its option, if it is still there.
func (p *Picker) SetOptions(opts []Option) {
	under := uuid.Nil
	hadCursor := p.cursor < len(p.matches)
	if hadCursor {
		under = p.All[p.matches[p.cursor]].ID
	}
	p.Loading = false
	p.All = opts
	for i := range p.All {
		o := &p.All[i]
		o.search = strings.ToLower(o.Title + " " + strings.Join(o.Details, " ") + " " + o.ID.String())
	}
	if p.Chosen != nil {
		id := p.Chosen.ID
		p.Chosen = nil
		for i := range p.All {
			if p.All[i].ID == id {
				p.Chosen = &p.All[i]
			}
		}
	}
	p.apply()
	if hadCursor {
		for i, j := range p.matches {
			if p.All[j].ID == under {
				p.cursor = i
			}
		}
	}
}

// Choose makes the option whose id is id (as a string) the chosen one;
// nothing is chosen when no option has it.
func (p *Picker) Choose(id string) {
	p.Chosen = nil
	for i := range p.All {
		if p.All[i].ID.String() == id {
			p.Chosen = &p.All[i]
		}
	}
}

// Current is the option under the cursor (nil when nothing matches).
func (p *Picker) Current() *Option {
	if p.cursor >= len(p.matches) {
		return nil
	}
	return &p.All[p.matches[p.cursor]]
}

// apply recomputes the matches of the filter: every word typed must appear.
func (p *Picker) apply() {
	words := strings.Fields(strings.ToLower(p.filter.Value()))
	p.matches = p.matches[:0]
	for i, o := range p.All {
		ok := true
		for _, w := range words {
			if !strings.Contains(o.search, w) {
				ok = false
				break
			}
		}
		if ok {
			p.matches = append(p.matches, i)
		}
	}
	p.cursor = max(min(p.cursor, len(p.matches)-1), 0)
}

// Focus gives the picker's filter the keyboard.
func (p *Picker) Focus() tea.Cmd { return p.filter.Focus() }

// Blur takes the keyboard away.
func (p *Picker) Blur() { p.filter.Blur() }

// Update handles a key; chose reports that enter picked an option.
func (p *Picker) Update(msg tea.KeyPressMsg) (chose bool, cmd tea.Cmd) {
	switch msg.String() {
	case "up", "ctrl+p":
		p.cursor = max(p.cursor-1, 0)
		return false, nil
	case "down", "ctrl+n":
		p.cursor = max(min(p.cursor+1, len(p.matches)-1), 0)
		return false, nil
	case "enter":
		o := p.Current()
		switch {
		case o == nil:
			p.Err = "nothing matches the filter: clear it with ctrl+u"
			return false, nil
		case o.Disabled != "":
			p.Err = o.Title + " cannot be chosen: " + o.Disabled
			return false, nil
		}
		p.Chosen, p.Err = o, ""
		return true, nil
	}
	return false, p.feed(msg)
}

// Paste gives the filter pasted text (or the clipboard's answer to ctrl+v).
func (p *Picker) Paste(msg tea.Msg) tea.Cmd { return p.feed(msg) }

func (p *Picker) feed(msg tea.Msg) tea.Cmd {
	before := p.filter.Value()
	var cmd tea.Cmd
	p.filter, cmd = p.filter.Update(msg)
	if p.filter.Value() != before {
		p.apply()
	}
	return cmd
}

// Render draws the picker: a summary line, and while focused the filter
// and the matching options. empty says what to do when the list is empty.
func (p *Picker) Render(st LineStyles, focused bool, labelW, width int, empty string) []string {
	return p.render(st, p.Label, focused, labelW, width, empty, "")
}

// render draws the picker under label; problem is the form's complaint
// about it (nothing chosen yet), said where its own would be.
func (p *Picker) render(st LineStyles, label string, focused bool, labelW, width int, empty, problem string) []string {
	head := st.Head(label, focused, labelW)
	switch {
	case p.Chosen != nil:
		head += st.Value.Render(p.Chosen.Title)
	case p.Loading:
		head += st.Dim.Render("loading…")
	default:
		head += st.Dim.Render("none chosen")
	}
	lines := []string{head}
	if p.LoadErr != "" {
		lines = append(lines, "    "+st.Error.Render("✗ "+p.LoadErr))
	}
	for _, e := range []string{p.Err, problem} {
		if e != "" {
			for _, l := range wrapTo("✗ "+e, max(width-4, 1)) {
				lines = append(lines, "    "+st.Error.Render(l))
			}
		}
	}
	if !focused {
		return lines
	}
	p.filter.SetWidth(max(width-14, 4))
	lines = append(lines, "    "+p.filter.View())
	if !p.Loading && len(p.matches) == 0 {
		if len(p.All) == 0 {
			lines = append(lines, "    "+st.Dim.Render(empty))
		} else {
			lines = append(lines, "    "+st.Dim.Render("nothing matches the filter"))
		}
		return lines
	}
	start := max(p.cursor-p.Rows+1, 0)
	for i := start; i < len(p.matches) && i < start+p.Rows; i++ {
		o := p.All[p.matches[i]]
		mark := "   "
		if p.Chosen != nil && p.Chosen.ID == o.ID {
			mark = " ✓ "
		}
		cur := "  "
		if i == p.cursor {
			cur = st.Marker.Render("▸ ")
		}
		text := o.Title
		if len(o.Details) > 0 {
			text += " · " + o.Details[0]
		}
		if o.Disabled != "" {
			text = st.Dim.Render(text + " (" + o.Disabled + ")")
		} else if i == p.cursor {
			text = st.Selected.Render(text)
		}
		// One line an option: the rest of it is read once chosen.
		lines = append(lines, ansi.Truncate("  "+cur+mark+text, max(width, 1), "…"))
	}
	hint := "↑/↓ move · enter choose"
	if n := len(p.matches); n > p.Rows {
		hint = strconv.Itoa(n) + " match · " + hint
	}
	return append(lines, "    "+st.Dim.Render(hint))
}
