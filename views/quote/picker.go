package quote

import (
	"github.com/tesouro-treasury/tesouro/ui/widget"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/google/uuid"
)

// option is one beneficiary a picker offers.
type option struct {
	ID    uuid.UUID
	Title string
	// Details are the lines the confirmation repeats (name, key, account).
	Details []string
	// search is what the filter matches, lower-cased.
	search string
	// Disabled says why the option cannot be chosen ("" when it can).
	Disabled string
}

// picker chooses one beneficiary from a list that filters as you type.
type picker struct {
	id, label string
	filter    textinput.Model
	all       []option
	matches   []int
	cursor    int
	chosen    *option
	loading   bool
	loadErr   string
	err       string
	// rows is how many options are listed while the picker has focus.
	rows int
}

func newPicker(id, label string) *picker {
	in := widget.NewInput()
	in.Prompt = "filter: "
	in.Placeholder = "type to filter"
	in.CharLimit = 64
	p := &picker{id: id, label: label, filter: in, loading: true, rows: 5}
	return p
}

// setOptions replaces the list; the chosen option stays chosen if it is
// still there.
func (p *picker) setOptions(opts []option) {
	under, hadCursor := uuid.Nil, p.cursor < len(p.matches)
	if hadCursor {
		under = p.all[p.matches[p.cursor]].ID
	}
	p.loading = false
	p.all = opts
	for i := range p.all {
		o := &p.all[i]
		o.search = strings.ToLower(o.Title + " " + strings.Join(o.Details, " ") + " " + o.ID.String())
	}
	if p.chosen != nil {
		id := p.chosen.ID
		p.chosen = nil
		for i := range p.all {
			if p.all[i].ID == id {
				p.chosen = &p.all[i]
			}
		}
	}
	p.apply()
	if hadCursor {
		// A reloaded list keeps the cursor on the option it was on.
		for i, j := range p.matches {
			if p.all[j].ID == under {
				p.cursor = i
			}
		}
	}
}

// apply recomputes the matches of the filter: every word typed must appear.
func (p *picker) apply() {
	words := strings.Fields(strings.ToLower(p.filter.Value()))
	p.matches = p.matches[:0]
	for i, o := range p.all {
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
	if p.cursor >= len(p.matches) {
		p.cursor = len(p.matches) - 1
	}
	if p.cursor < 0 {
		p.cursor = 0
	}
}

func (p *picker) focus() { p.filter.Focus() }
func (p *picker) blur()  { p.filter.Blur() }

// update handles a key; chose reports that enter picked an option.
func (p *picker) update(msg tea.KeyPressMsg) (chose bool, cmd tea.Cmd) {
	switch msg.String() {
	case "up", "ctrl+p":
		if p.cursor > 0 {
			p.cursor--
		}
		return false, nil
	case "down", "ctrl+n":
		if p.cursor < len(p.matches)-1 {
			p.cursor++
		}
		return false, nil
	case "enter":
		if len(p.matches) == 0 {
			p.err = "nothing matches the filter: clear it with ctrl+u"
			return false, nil
		}
		o := &p.all[p.matches[p.cursor]]
		if o.Disabled != "" {
			p.err = o.Title + " cannot be chosen: " + o.Disabled
			return false, nil
		}
		p.chosen = o
		p.err = ""
		return true, nil
	}
	before := p.filter.Value()
	p.filter, cmd = p.filter.Update(msg)
	if p.filter.Value() != before {
		p.apply()
	}
	return false, cmd
}

// render draws the picker: a summary line, and while focused the filter and
// the matching options.
func (p *picker) render(th theme, focused bool, labelW, width int) []string {
	head := th.labelHead(p.label, focused, labelW)
	switch {
	case p.chosen != nil:
		head += th.value.Render(p.chosen.Title)
	case p.loading:
		head += th.dim.Render("loading…")
	default:
		head += th.dim.Render("none chosen")
	}
	lines := []string{head}
	if p.loadErr != "" {
		lines = append(lines, "    "+th.err.Render("✗ "+p.loadErr))
	}
	if p.err != "" {
		lines = append(lines, "    "+th.err.Render("✗ "+p.err))
	}
	if !focused {
		return lines
	}
	p.filter.SetWidth(max(width-14, 4))
	lines = append(lines, "    "+p.filter.View())
	if !p.loading && len(p.matches) == 0 {
		if len(p.all) == 0 {
			lines = append(lines, "    "+th.dim.Render("no beneficiary of this kind in the operated account: register one in Beneficiaries"))
		} else {
			lines = append(lines, "    "+th.dim.Render("nothing matches the filter"))
		}
		return lines
	}
	start := 0
	if p.cursor >= p.rows {
		start = p.cursor - p.rows + 1
	}
	for i := start; i < len(p.matches) && i < start+p.rows; i++ {
		o := p.all[p.matches[i]]
		mark := "   "
		if p.chosen != nil && p.chosen.ID == o.ID {
			mark = " ✓ "
		}
		cur := "  "
		if i == p.cursor {
			cur = th.focus.Render("▸ ")
		}
		text := o.Title
		if len(o.Details) > 0 {
			text += " · " + o.Details[0]
		}
		if o.Disabled != "" {
			text = th.dim.Render(text + " (" + o.Disabled + ")")
		} else if i == p.cursor {
			text = th.selected.Render(text)
		}
		lines = append(lines, "  "+cur+mark+text)
	}
	if n := len(p.matches); n > p.rows {
		lines = append(lines, "    "+th.dim.Render(strconv.Itoa(n)+" match · ↑/↓ move · enter choose"))
	} else {
		lines = append(lines, "    "+th.dim.Render("↑/↓ move · enter choose"))
	}
	return lines
}
