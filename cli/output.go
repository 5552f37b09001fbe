package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"charm.land/lipgloss/v2"
	"charm.land/lipgloss/v2/table"
	"github.com/itchyny/gojq"
	"github.com/spf13/cobra"

	"github.com/tesouro-treasury/tesouro/export"
	"github.com/tesouro-treasury/tesouro/termsafe"
)

// Output is the one output layer of the scripting commands: every command
// hands it its data (marshalled as is for JSON and jq) and a table (for the
// table and CSV formats), and never prints results another way.
type Output struct {
	Format string
	JSON   bool
	JQ     string

	query *gojq.Code
}

// Table is a command's result in rows, under columns that never change
// with the data (CSV readers rely on them). Each cell holds one value: an
// amount, its currency and its method are three columns, and nothing is
// printed as raw JSON.
type Table struct {
	Columns []string
	Rows    [][]string
}

// addOutputFlags gives cmd --format, --json and --jq, checked before the
// command runs (a bad value is a usage error, before any request).
func addOutputFlags(cmd *cobra.Command) *Output {
	o := &Output{}
	cmd.Flags().StringVar(&o.Format, "format", "table", "output format: table, csv or json")
	cmd.Flags().BoolVar(&o.JSON, "json", false, "output JSON (same as --format json)")
	cmd.Flags().StringVar(&o.JQ, "jq", "", "filter the JSON output with a jq expression (gojq)")
	prev := cmd.PreRunE
	cmd.PreRunE = func(cmd *cobra.Command, args []string) error {
		if err := o.check(); err != nil {
			return err
		}
		if prev != nil {
			return prev(cmd, args)
		}
		return nil
	}
	return o
}

func (o *Output) check() error {
	switch o.Format {
	case "table", "csv", "json":
	default:
		return Usagef("--format %q: use table, csv or json", o.Format)
	}
	if o.JSON {
		if o.Format == "csv" {
			return Usagef("--json and --format csv exclude each other")
		}
		o.Format = "json"
	}
	if o.JQ != "" {
		if o.Format == "csv" {
			return Usagef("--jq filters JSON: it cannot be combined with --format csv")
		}
		q, err := gojq.Parse(o.JQ)
		if err != nil {
			return Usagef("--jq %q: %v", o.JQ, err)
		}
		code, err := gojq.Compile(q)
		if err != nil {
			return Usagef("--jq %q: %v", o.JQ, err)
		}
		o.query = code
		o.Format = "json"
	}
	return nil
}

// Write prints data in the chosen format. table builds the rows only when
// a table or CSV is asked for.
func (o *Output) Write(w io.Writer, data any, table func() Table) error {
	switch {
	case o.query != nil:
		return o.jq(w, data)
	case o.Format == "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(data)
	case o.Format == "csv":
		t := table()
		cw, err := export.NewWriter(w, t.Columns)
		if err != nil {
			return err
		}
		for _, r := range t.Rows {
			if err := cw.Row(safeCells(r)); err != nil {
				return err
			}
		}
		return cw.Flush()
	}
	return writeTable(w, table())
}

// safeCells is a CSV row as it may reach a terminal: CSV goes to stdout,
// and a cell from outside must not act on the terminal there. Newlines and
// tabs stay (the CSV quotes them); escape sequences and bidirectional
// controls are shown escaped.
func safeCells(r []string) []string {
	out := make([]string, len(r))
	for i, c := range r {
		out[i] = termsafe.Text(c)
	}
	return out
}

// jq runs the expression over the JSON form of data. Strings print raw
// (as jq -r), anything else as compact JSON, one result per line.
func (o *Output) jq(w io.Writer, data any) error {
	b, err := json.Marshal(data)
	if err != nil {
		return err
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return err
	}
	iter := o.query.Run(v)
	for {
		r, ok := iter.Next()
		if !ok {
			return nil
		}
		if err, ok := r.(error); ok {
			if h, ok := err.(*gojq.HaltError); ok && h.Value() == nil {
				return nil
			}
			return fmt.Errorf("--jq: %w", err)
		}
		if s, ok := r.(string); ok {
			// Raw, as jq -r, for scripts; shown safe at a terminal.
			if isTerminal(w) {
				s = termsafe.Text(s)
			}
			fmt.Fprintln(w, s)
			continue
		}
		out, err := gojq.Marshal(r)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%s\n", out)
	}
}

// writeTable prints t as gh prints a list: columns aligned with two
// spaces, headers in capitals (bold at a terminal), no borders and no
// trailing blanks. Every cell is one line made safe for the terminal
// (termsafe.Line): a tab or newline inside a cell would break the row, an
// escape sequence would act on the terminal.
func writeTable(w io.Writer, t Table) error {
	head := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		head[i] = strings.ToUpper(strings.ReplaceAll(c, "_", " "))
	}
	rows := make([][]string, len(t.Rows))
	for i, r := range t.Rows {
		rows[i] = make([]string, len(r))
		for j, c := range r {
			rows[i][j] = termsafe.Line(c)
		}
	}
	return render(w, head, rows)
}

// writePairs prints name/value pairs aligned, as profile show does. The
// values are made safe as table cells are.
func writePairs(w io.Writer, pairs [][2]string) error {
	rows := make([][]string, len(pairs))
	for i, p := range pairs {
		rows[i] = []string{p[0], termsafe.Line(p[1])}
	}
	return render(w, nil, rows)
}

// render lays rows out with lipgloss/table under head (none when nil).
func render(w io.Writer, head []string, rows [][]string) error {
	bold := isTerminal(w)
	cols := len(head)
	for _, r := range rows {
		cols = max(cols, len(r))
	}
	tb := table.New().Rows(rows...).Wrap(false).
		Border(lipgloss.Border{}).BorderTop(false).BorderBottom(false).BorderLeft(false).BorderRight(false).
		BorderHeader(false).BorderColumn(false).BorderRow(false).
		StyleFunc(func(row, col int) lipgloss.Style {
			st := lipgloss.NewStyle()
			if col < cols-1 {
				st = st.PaddingRight(2)
			}
			if row == table.HeaderRow && bold {
				st = st.Bold(true)
			}
			return st
		})
	if head != nil {
		tb = tb.Headers(head...)
	}
	var b strings.Builder
	for _, line := range strings.Split(tb.Render(), "\n") {
		b.WriteString(strings.TrimRight(line, " "))
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}
