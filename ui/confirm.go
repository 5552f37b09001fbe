package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/tesouro-treasury/tesouro/ui/widget"
)

// confirmState is an open confirmation: what it asks, how far its body is
// scrolled, and which of its lines have been on screen. y confirms only
// once every line has been shown (by fitting, or by scrolling with ↓,
// PgDn or space, which never close the box): what y approves is then all
// known, at any window size.
type confirmState struct {
	ConfirmMsg
	offset int
	read   widget.Reading
}

// openConfirm opens a confirmation and records what of it is on screen.
func (r *Root) openConfirm(msg ConfirmMsg) {
	r.confirm = &confirmState{ConfirmMsg: msg}
	r.relayout()
}

// confirmFrame is how the confirmation is laid out in w×h: framed when
// the whole box fits, else without frame, its body lines scrolled in a
// window of room lines between the title and the hint.
type confirmFrame struct {
	framed bool
	lines  []string
	room   int
}

func (r *Root) confirmFrame(w, h int) confirmFrame {
	c := r.confirm
	inner := max(min(w-4, 72), 10)
	lines := strings.Split(lipgloss.NewStyle().Width(inner).Render(c.Body), "\n")
	// Frame (2), title and a blank line, a blank line and the hint.
	if len(lines)+6 <= h && inner+4 <= w {
		return confirmFrame{framed: true, lines: lines, room: len(lines)}
	}
	lines = strings.Split(lipgloss.NewStyle().Width(max(w-1, 1)).Render(c.Body), "\n")
	return confirmFrame{lines: lines, room: max(h-2, 0)}
}

// confirmShown scrolls the confirmation within its bounds and records the
// lines on screen now: on opening, after a resize and after each scroll.
func (r *Root) confirmShown() {
	c := r.confirm
	if c == nil {
		return
	}
	f := r.confirmFrame(r.layout.Width, r.layout.Content)
	c.offset = max(min(c.offset, len(f.lines)-f.room), 0)
	c.read.Show(f.lines[c.offset:min(c.offset+f.room, len(f.lines))])
}

// confirmUnread is how many lines of the open confirmation have not been
// on screen yet at the current size.
func (r *Root) confirmUnread() int {
	return r.confirm.read.Unread(r.confirmFrame(r.layout.Width, r.layout.Content).lines)
}

// confirmKey: y confirms once every line has been read; ↓/j, PgDn and
// space scroll down, ↑/k and PgUp up; any other key cancels (default no).
func (r *Root) confirmKey(k string) tea.Cmd {
	c := r.confirm
	page := max(r.confirmFrame(r.layout.Width, r.layout.Content).room, 1)
	switch k {
	case "down", "j":
		c.offset++
	case "pgdown", "space", " ":
		c.offset += page
	case "up", "k":
		c.offset--
	case "pgup":
		c.offset -= page
	case "y":
		if r.confirmUnread() > 0 {
			// y is never "no": it waits until what it confirms was read,
			// and the hint says how much is left.
			return nil
		}
		r.confirm = nil
		r.relayout()
		return r.withPulse(c.OnYes)
	default:
		r.confirm = nil
		r.relayout()
		return tea.Batch(c.OnNo, Toast(ToastInfo, "Cancelled: "+strings.TrimSuffix(c.Title, "?")))
	}
	r.confirmShown()
	return nil
}

// confirmView is the confirmation box over the content. The body repeats
// what is being confirmed; the default is no. A body taller than the
// window scrolls between the title and the hint, which say where it is
// and how many lines are still to be read before y confirms.
func (r *Root) confirmView(w, h int) string {
	c := r.confirm
	t := r.theme
	f := r.confirmFrame(w, h)
	unread := c.read.Unread(f.lines)
	hint := t.HintKey.Render("y") + t.HintDesc.Render(" confirm · any other key cancels (default: no)")
	if f.framed {
		box := t.Box.Width(max(min(w-4, 72), 10) + 4).Render(t.BoxTitle.Render(c.Title) + "\n\n" + strings.Join(f.lines, "\n") + "\n\n" + hint)
		return lipgloss.Place(w, h, lipgloss.Center, lipgloss.Center, box)
	}
	switch {
	case unread > 0:
		hint = t.Warn.Render(fmt.Sprintf("↓ %s to read before y", plural(unread, "line")))
		if more := t.HintDesc.Render(" · esc/n cancel"); lipgloss.Width(hint+more) <= w {
			hint += more
		}
	case len(f.lines) > f.room:
		hint = t.HintKey.Render("y") + t.HintDesc.Render(" confirm · ↑ scroll · esc/n cancel")
	default:
		hint = t.HintKey.Render("y") + t.HintDesc.Render(" confirm · esc/n cancel")
	}
	title := t.BoxTitle.Render(c.Title)
	if len(f.lines) > f.room && f.room > 0 {
		title += t.Muted.Render(fmt.Sprintf(" %d–%d/%d", c.offset+1, min(c.offset+f.room, len(f.lines)), len(f.lines)))
	}
	shown := f.lines[min(c.offset, len(f.lines)):min(c.offset+f.room, len(f.lines))]
	return strings.Join(append(append([]string{Truncate(title, w)}, shown...), Truncate(hint, w)), "\n")
}

// plural says "1 line" or "n lines".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
