package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/itchyny/gojq"
	"github.com/spf13/cobra"

	"github.com/tesouro-treasury/tesouro/export"
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
// with the data (CSV readers rely on them).
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
			if err := cw.Row(r); err != nil {
				return err
			}
		}
		return cw.Flush()
	}
	return writeTable(w, table())
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

// writeTable aligns columns with spaces; headers in capitals as ls and gh.
func writeTable(w io.Writer, t Table) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		head[i] = strings.ToUpper(strings.ReplaceAll(c, "_", " "))
	}
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	for _, r := range t.Rows {
		cells := make([]string, len(r))
		for i, c := range r {
			// A tab or newline inside a cell would break the alignment.
			cells[i] = strings.NewReplacer("\t", " ", "\n", " ", "\r", " ").Replace(c)
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	return tw.Flush()
}
