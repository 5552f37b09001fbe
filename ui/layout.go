package ui

// Layout is the one place where the window is divided: every component gets
// its size from here, and the content height is what is left of the window
// after the header, tabs, notice, input line and footer.
type Layout struct {
	Width, Height int
	Header        int // environment, profile, access, account, badges
	Tabs          int
	Notice        int // why actions are disabled (0 when nothing is)
	Content       int // the active screen, or help / overlays over it
	Input         int // the command, filter or prompt line (0 when none)
	Footer        int // hints, in-flight requests, last refresh, toasts
}

// MinWidth and MinHeight are the smallest terminal the dashboard lays out
// fully; below them the content is clipped but nothing panics.
const (
	MinWidth  = 40
	MinHeight = 12
)

// NewLayout divides a window of w×h.
func NewLayout(w, h int, notice, input bool) Layout {
	l := Layout{Width: max(w, 0), Height: max(h, 0), Header: 1, Tabs: 1, Footer: 1}
	if notice {
		l.Notice = 1
	}
	if input {
		l.Input = 1
	}
	// On a tiny window keep the header and footer, drop the rest first.
	rest := l.Height - l.Header - l.Footer
	if rest < 0 {
		l.Header, l.Footer, rest = min(l.Height, 1), 0, 0
	}
	if rest < l.Tabs+l.Notice+l.Input+1 {
		l.Notice = 0
	}
	if rest < l.Tabs+l.Input+1 {
		l.Tabs = 0
	}
	l.Content = max(rest-l.Tabs-l.Notice-l.Input, 0)
	if l.Content == 0 && l.Input > 0 && rest < 1 {
		l.Input = 0
	}
	return l
}
