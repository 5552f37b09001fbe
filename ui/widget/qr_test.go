package widget

import (
	"errors"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"rsc.io/qr"
)

// brCode is a typical PIX BR Code, the text the dashboard shows as a QR.
const brCode = "00020126580014BR.GOV.BCB.PIX0136123e4567-e12b-12d1-a456-4266554400005204000053039865406100.005802BR5913FULANO DE TAL6008BRASILIA62070503***6304D4BC"

// modules reads a rendered QR back into a module matrix, from the glyphs
// alone: each cell is two modules, top and bottom.
func modules(t *testing.T, rendered string) [][]bool {
	t.Helper()
	var grid [][]bool
	for i, line := range strings.Split(ansi.Strip(rendered), "\n") {
		var top, bottom []bool
		for _, r := range line {
			switch r {
			case ' ':
				top, bottom = append(top, false), append(bottom, false)
			case '▀':
				top, bottom = append(top, true), append(bottom, false)
			case '▄':
				top, bottom = append(top, false), append(bottom, true)
			case '█':
				top, bottom = append(top, true), append(bottom, true)
			default:
				t.Fatalf("line %d holds %q, not a half-block glyph", i, r)
			}
		}
		grid = append(grid, top, bottom)
	}
	return grid
}

func TestQRMatchesEncoder(t *testing.T) {
	for _, text := range []string{"hi", brCode, strings.Repeat("pix.example.com/qr/v2/", 20)} {
		out, err := QR(text)
		if err != nil {
			t.Fatal(err)
		}
		code, err := qr.Encode(text, qr.M)
		if err != nil {
			t.Fatal(err)
		}
		w, h, err := QRSize(text)
		if err != nil {
			t.Fatal(err)
		}
		side := code.Size + 2*QRQuiet
		if w != side || h != (side+1)/2 {
			t.Fatalf("QRSize = %d×%d, want %d×%d for %d modules", w, h, side, (side+1)/2, code.Size)
		}
		if gw, gh := lipglossSize(out); gw != w || gh != h {
			t.Fatalf("rendered %d×%d, QRSize says %d×%d", gw, gh, w, h)
		}
		grid := modules(t, out)
		for y := 0; y < len(grid); y++ {
			if len(grid[y]) != side {
				t.Fatalf("module row %d is %d wide, want %d", y, len(grid[y]), side)
			}
			for x := 0; x < side; x++ {
				cx, cy := x-QRQuiet, y-QRQuiet
				inCode := cx >= 0 && cx < code.Size && cy >= 0 && cy < code.Size
				if !inCode && grid[y][x] {
					t.Fatalf("quiet zone module (%d,%d) is dark", x, y)
				}
				if inCode && grid[y][x] != code.Black(cx, cy) {
					t.Fatalf("module (%d,%d) = %v, encoder says %v", cx, cy, grid[y][x], code.Black(cx, cy))
				}
			}
		}
		// The quiet zone is at least 2 modules on every side.
		if QRQuiet < 2 {
			t.Fatalf("quiet zone of %d modules", QRQuiet)
		}
	}
}

func TestQRExplicitColours(t *testing.T) {
	out, err := QR(brCode)
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(out, "\n") {
		// Black ink on a white background, whatever the terminal theme.
		if !strings.Contains(line, "38;2;0;0;0") || !strings.Contains(line, "48;2;255;255;255") {
			t.Fatalf("line %d lacks the explicit black-on-white colours: %q", i, line)
		}
	}
}

func TestQRFit(t *testing.T) {
	w, h, err := QRSize(brCode)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := QR(brCode)
	if got, err := QRFit(brCode, w, h); err != nil || got != m {
		t.Fatalf("QRFit with room for level M: err %v, same as QR: %v", err, got == m)
	}
	// One cell short of M: the smaller level-L code is drawn instead.
	got, err := QRFit(brCode, w-1, h)
	if err != nil {
		t.Fatalf("QRFit one column short: %v", err)
	}
	low, _ := qr.Encode(brCode, qr.L)
	if gw, gh := lipglossSize(got); gw != low.Size+2*QRQuiet || gw >= w || gh > h {
		t.Fatalf("QRFit one column short drew %d×%d", gw, gh)
	}
	if _, err := QRFit(brCode, 30, 12); !errors.Is(err, ErrQRTooSmall) || !strings.Contains(err.Error(), "needs") {
		t.Fatalf("QRFit in 30×12 = %v, want ErrQRTooSmall with the size needed", err)
	}
}

func TestQRTooLong(t *testing.T) {
	long := strings.Repeat("x", 4000)
	if _, err := QR(long); err == nil {
		t.Fatal("QR accepted text beyond the QR capacity")
	}
	if _, _, err := QRSize(long); err == nil {
		t.Fatal("QRSize accepted text beyond the QR capacity")
	}
	if _, err := QRFit(long, 500, 500); err == nil || errors.Is(err, ErrQRTooSmall) {
		t.Fatalf("QRFit(too long) = %v, want an encoding error", err)
	}
}

func lipglossSize(s string) (w, h int) {
	lines := strings.Split(s, "\n")
	for _, l := range lines {
		w = max(w, ansi.StringWidth(l))
	}
	return w, len(lines)
}

// BenchmarkQR is the cost in a View: the render is remembered.
func BenchmarkQR(b *testing.B) {
	for b.Loop() {
		if _, err := QR(brCode); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkQRFit is the cost in the ticket result's View, drawn on every
// countdown tick: the drawing is remembered too.
func BenchmarkQRFit(b *testing.B) {
	for b.Loop() {
		if _, err := QRFit(brCode, 120, 60); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkQRUncached is the cost of a new code: encode and draw.
func BenchmarkQRUncached(b *testing.B) {
	for b.Loop() {
		code, err := qr.Encode(brCode, qr.M)
		if err != nil {
			b.Fatal(err)
		}
		_ = renderQR(code)
	}
}

// TestQRFormatInformation reads the format information a scanner reads
// first, from the rendered modules: both copies must agree, carry a valid
// BCH code and say level M. A mirrored or transposed drawing fails here.
func TestQRFormatInformation(t *testing.T) {
	out, err := QR(brCode)
	if err != nil {
		t.Fatal(err)
	}
	grid := modules(t, out)
	at := func(row, col int) uint32 {
		if grid[row+QRQuiet][col+QRQuiet] {
			return 1
		}
		return 0
	}
	size := len(grid[0]) - 2*QRQuiet
	var first, second uint32
	for i := range 15 {
		var r1, c1, r2, c2 int
		switch {
		case i < 6:
			r1, c1 = i, 8
		case i < 8:
			r1, c1 = i+1, 8
		case i == 8:
			r1, c1 = 8, 7
		default:
			r1, c1 = 8, 14-i
		}
		if i < 8 {
			r2, c2 = 8, size-1-i
		} else {
			r2, c2 = size-1-(14-i), 8
		}
		first |= at(r1, c1) << i
		second |= at(r2, c2) << i
	}
	if first != second {
		t.Fatalf("format copies differ: %015b vs %015b", first, second)
	}
	word := first ^ 0x5412
	rem := word &^ 0x3FF
	for i := 14; i >= 10; i-- {
		if rem&(1<<i) != 0 {
			rem ^= 0x537 << (i - 10)
		}
	}
	if rem != word&0x3FF {
		t.Fatalf("format information %015b fails its BCH check", word)
	}
	if level := word >> 13; level != 0 { // 00 is level M
		t.Fatalf("error-correction level bits %02b, want 00 (M)", level)
	}
	// The three finder patterns sit in the corners of the code.
	for _, c := range [][2]int{{0, 0}, {size - 7, 0}, {0, size - 7}} {
		for d := range 7 {
			if at(c[1], c[0]+d) != 1 || at(c[1]+6, c[0]+d) != 1 || at(c[1]+d, c[0]) != 1 || at(c[1]+3, c[0]+3) != 1 {
				t.Fatalf("no finder pattern at column %d row %d", c[0], c[1])
			}
		}
	}
}
