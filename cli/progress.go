package cli

import (
	"fmt"
	"io"
	"time"

	"charm.land/bubbles/v2/progress"
	"github.com/charmbracelet/x/ansi"
)

// meter reports how far a long command is on stderr (batch run, tickets
// export): at a terminal a bubbles/progress bar and the counts, redrawn in
// place at most ten times a second; otherwise plain lines, one per tenth
// of the work (or per thousand items when the total is not known), which
// a log keeps readably.
type meter struct {
	w     io.Writer
	tty   bool
	total int // 0: not known in advance
	bar   progress.Model
	last  time.Time
	next  int // the count at which the next plain line is printed
	drawn bool
	// noColor: NO_COLOR is set; the bar is drawn in the terminal's colour.
	noColor bool
}

func (f *Factory) newMeter(total int) *meter {
	m := &meter{w: f.Stderr, tty: f.StderrTTY(), total: total, noColor: f.Getenv("NO_COLOR") != "",
		bar: progress.New(progress.WithWidth(30), progress.WithDefaultBlend())}
	m.next = m.step()
	return m
}

func (m *meter) step() int {
	if m.total > 0 {
		return max(1, m.total/10)
	}
	return 1000
}

// update reports done items of the total, described by what.
func (m *meter) update(done int, what string) {
	if !m.tty {
		if done >= m.next || (m.total > 0 && done == m.total) {
			fmt.Fprintln(m.w, m.line(done, what))
			m.next = done + m.step()
		}
		return
	}
	if time.Since(m.last) < 100*time.Millisecond && (m.total == 0 || done < m.total) {
		return
	}
	m.last = time.Now()
	bar := ""
	if m.total > 0 {
		bar = m.bar.ViewAs(float64(done)/float64(m.total)) + "  "
		if m.noColor {
			bar = ansi.Strip(bar)
		}
	}
	fmt.Fprint(m.w, "\r"+ansi.EraseEntireLine+bar+m.line(done, what))
	m.drawn = true
}

func (m *meter) line(done int, what string) string {
	if m.total > 0 {
		return fmt.Sprintf("%d/%d  %s", done, m.total, what)
	}
	return fmt.Sprintf("%d %s", done, what)
}

// finish ends the bar's line at a terminal; clear removes it instead.
func (m *meter) finish(clear bool) {
	if !m.tty || !m.drawn {
		return
	}
	if clear {
		fmt.Fprint(m.w, "\r"+ansi.EraseEntireLine)
		return
	}
	fmt.Fprintln(m.w)
}
