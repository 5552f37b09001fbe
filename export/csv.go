package export

import (
	"encoding/csv"
	"fmt"
	"io"
	"strings"
)

// Writer writes CSV rows under a fixed header.
type Writer struct {
	w     *csv.Writer
	width int
	rows  int
}

// NewWriter writes the header at once, so that even an export with no row
// says what its columns are.
func NewWriter(w io.Writer, columns []string) (*Writer, error) {
	cw := csv.NewWriter(w)
	if err := cw.Write(guardAll(columns)); err != nil {
		return nil, err
	}
	return &Writer{w: cw, width: len(columns)}, nil
}

// Continue is a Writer appending rows to w under the columns' header that
// an earlier writer already wrote there.
func Continue(w io.Writer, columns []string) *Writer {
	return &Writer{w: csv.NewWriter(w), width: len(columns)}
}

// Row writes one row. A row of the wrong width is a programming error
// that would shift columns under their headers, so it is refused.
func (w *Writer) Row(cells []string) error {
	if len(cells) != w.width {
		return fmt.Errorf("export: a row of %d cells under %d columns", len(cells), w.width)
	}
	w.rows++
	return w.w.Write(guardAll(cells))
}

// Rows is the number of rows written.
func (w *Writer) Rows() int { return w.rows }

// Flush writes what is buffered and reports any write error.
func (w *Writer) Flush() error {
	w.w.Flush()
	return w.w.Error()
}

func guardAll(cells []string) []string {
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = Guard(c)
	}
	return out
}

// Guard neutralises a cell a spreadsheet would evaluate: one that starts
// with =, +, -, @, a tab or a carriage return gets a leading apostrophe
// (OWASP's advice for CSV injection). A plain negative number stays a
// number: amounts like -12.50 are data, not formulas.
func Guard(cell string) string {
	if cell == "" {
		return cell
	}
	switch cell[0] {
	case '=', '+', '@', '\t', '\r':
		return "'" + cell
	case '-':
		if isNumber(cell[1:]) {
			return cell
		}
		return "'" + cell
	}
	return cell
}

func isNumber(s string) bool {
	if s == "" {
		return false
	}
	dot := false
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
		case r == '.' && !dot:
			dot = true
		default:
			return false
		}
	}
	return !strings.HasSuffix(s, ".")
}
