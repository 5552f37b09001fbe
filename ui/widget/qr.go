package widget

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"charm.land/lipgloss/v2"
	"rsc.io/qr"
)

// QRQuiet is the light margin, in modules, drawn around a terminal QR code.
// The standard asks for 4; 2 is what phone scanners need in practice, and
// every module saved lets the code fit a smaller terminal.
const QRQuiet = 2

// ErrQRTooSmall is returned by QRFit when the code cannot fit the space
// given, even at the lowest error-correction level. Screens show "terminal
// too small for the QR" instead of a code that would not scan.
var ErrQRTooSmall = errors.New("terminal too small for the QR code: enlarge the window or copy the code as text")

// The code is drawn dark on light with explicit colours, never the
// terminal's own: on a dark theme the default colours would invert the code,
// and many scanners cannot read an inverted code. The glyphs alone still
// draw the code (dark modules as ink) when a terminal shows no colour.
var qrStyle = lipgloss.NewStyle().
	Foreground(lipgloss.Color("#000000")).
	Background(lipgloss.Color("#FFFFFF"))

// qrGlyphs[top][bottom] is the cell drawing two vertically stacked modules,
// 1 meaning dark.
var qrGlyphs = [2][2]string{{" ", "▄"}, {"▀", "█"}}

// QR renders text as a QR code for a terminal, at error-correction level M
// (readable with a smudge or glare on the screen). Each character cell holds
// two module rows (half blocks ▀ ▄ █), so the code is about square on a
// terminal whose cells are twice as tall as wide.
func QR(text string) (string, error) {
	r, err := drawQR(text, qr.M)
	return r.s, err
}

// QRSize reports the width and height, in terminal cells, of QR(text).
func QRSize(text string) (width, height int, err error) {
	r, err := drawQR(text, qr.M)
	return r.w, r.h, err
}

// QRFit renders text at the highest level of error correction that fits in
// maxWidth × maxHeight cells: M when it fits, else L (a smaller code that
// still scans on a clean screen). It returns ErrQRTooSmall when neither fits.
func QRFit(text string, maxWidth, maxHeight int) (string, error) {
	var last error
	for _, level := range []qr.Level{qr.M, qr.L} {
		r, err := drawQR(text, level)
		switch {
		case err != nil:
			last = err
		case r.w <= maxWidth && r.h <= maxHeight:
			return r.s, nil
		default:
			last = fmt.Errorf("%w (needs %d×%d, have %d×%d)", ErrQRTooSmall, r.w, r.h, maxWidth, maxHeight)
		}
	}
	return "", last
}

// qrDrawing is a drawn code and its size in cells.
type qrDrawing struct {
	s    string
	w, h int
}

type qrKey struct {
	text  string
	level qr.Level
}

// drawQR encodes and draws text at level. Screens draw from View on every
// frame (a countdown ticks several times a second), so the last few
// drawings are kept.
func drawQR(text string, level qr.Level) (qrDrawing, error) {
	key := qrKey{text, level}
	if d, ok := qrCache.get(key); ok {
		return d, nil
	}
	code, err := qr.Encode(text, level)
	if err != nil {
		return qrDrawing{}, qrErr(err)
	}
	w, h := qrDims(code.Size)
	d := qrDrawing{s: renderQR(code), w: w, h: h}
	qrCache.put(key, d)
	return d, nil
}

// qrMemo keeps the drawings of the few codes a dashboard shows at a time.
type qrMemo struct {
	mu sync.Mutex
	m  map[qrKey]qrDrawing
}

const qrMemoSize = 8

var qrCache = &qrMemo{m: map[qrKey]qrDrawing{}}

func (c *qrMemo) get(k qrKey) (qrDrawing, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	d, ok := c.m[k]
	return d, ok
}

func (c *qrMemo) put(k qrKey, d qrDrawing) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= qrMemoSize {
		clear(c.m)
	}
	c.m[k] = d
}

func qrErr(err error) error {
	return fmt.Errorf("cannot draw a QR code: %v", err)
}

// qrDims is the rendered size of a code of n modules a side: one column per
// module, one row per two modules, quiet zone included.
func qrDims(n int) (width, height int) {
	side := n + 2*QRQuiet
	return side, (side + 1) / 2
}

// renderQR draws the code with its quiet zone, one styled line per row of
// cells.
func renderQR(code *qr.Code) string {
	side := code.Size + 2*QRQuiet
	dark := func(x, y int) int {
		// Outside the code (quiet zone, and the padding row when side
		// is odd) Black is false: light.
		if code.Black(x-QRQuiet, y-QRQuiet) {
			return 1
		}
		return 0
	}
	lines := make([]string, 0, (side+1)/2)
	var line strings.Builder
	for y := 0; y < side; y += 2 {
		line.Reset()
		for x := 0; x < side; x++ {
			line.WriteString(qrGlyphs[dark(x, y)][dark(x, y+1)])
		}
		lines = append(lines, qrStyle.Render(line.String()))
	}
	return strings.Join(lines, "\n")
}
