package cli

import (
	"bytes"
	"os"
	"testing"
)

// TestFrameWriterTellsTheFirstFrame: writes pass through unchanged; drawn
// closes at the write that enters the alternate screen, not before; over a
// terminal file the writer is still one (Bubble Tea reads the window's
// size through it).
func TestFrameWriterTellsTheFirstFrame(t *testing.T) {
	var buf bytes.Buffer
	w, drawn := newFrameWriter(&buf)
	w.Write([]byte("\x1b[?2026$p"))
	select {
	case <-drawn:
		t.Fatal("drawn closed by a query written before the first frame")
	default:
	}
	w.Write([]byte("\x1b[?1049hSANDBOX"))
	select {
	case <-drawn:
	default:
		t.Fatal("drawn still open after the first frame")
	}
	w.Write([]byte("\x1b[?1049hagain")) // a second frame does not close it twice
	if got := buf.String(); got != "\x1b[?2026$p\x1b[?1049hSANDBOX\x1b[?1049hagain" {
		t.Errorf("output altered: %q", got)
	}

	f, err := os.CreateTemp(t.TempDir(), "tty")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ft, _ := newFrameWriter(f)
	tf, ok := ft.(terminalFile)
	if !ok || tf.Fd() != f.Fd() {
		t.Fatalf("over a file the writer is %T, not a file with its descriptor", ft)
	}
}
