package cli

import (
	"bytes"
	"io"
	"sync"

	"github.com/charmbracelet/x/ansi"
)

// frameWriter is the dashboard's terminal output. It closes drawn at the
// first write that enters the alternate screen: Bubble Tea writes each
// frame in one write, and the first frame begins by entering the
// alternate screen (the dashboard always draws there). The root waits for
// it before it connects (ui.Options.FirstFrame).
type frameWriter struct {
	w     io.Writer
	drawn chan struct{}
	once  sync.Once
}

// newFrameWriter wraps w. The result is still a terminal file when w is
// one (Bubble Tea reads the window's size and colours through it).
func newFrameWriter(w io.Writer) (io.Writer, <-chan struct{}) {
	fw := &frameWriter{w: w, drawn: make(chan struct{})}
	if f, ok := w.(terminalFile); ok {
		return frameFile{frameWriter: fw, f: f}, fw.drawn
	}
	return fw, fw.drawn
}

// terminalFile is what Bubble Tea takes for a terminal (x/term's File).
type terminalFile interface {
	io.ReadWriteCloser
	Fd() uintptr
}

// frameFile is a frameWriter over a terminal file.
type frameFile struct {
	*frameWriter
	f terminalFile
}

func (ff frameFile) Read(p []byte) (int, error) { return ff.f.Read(p) }
func (ff frameFile) Close() error               { return ff.f.Close() }
func (ff frameFile) Fd() uintptr                { return ff.f.Fd() }

var enterAltScreen = []byte(ansi.SetModeAltScreenSaveCursor)

func (fw *frameWriter) Write(p []byte) (int, error) {
	n, err := fw.w.Write(p)
	if bytes.Contains(p, enterAltScreen) {
		fw.once.Do(func() { close(fw.drawn) })
	}
	return n, err
}
