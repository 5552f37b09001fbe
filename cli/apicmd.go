package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"

	"github.com/google/uuid"
	"github.com/spf13/cobra"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/journal"
	"github.com/tesouro-treasury/tesouro/termsafe"
)

func newCmdAPI(f *Factory) *cobra.Command {
	var fields []string
	var input, jq string
	var paginate, include bool
	cmd := &cobra.Command{
		Use:   "api METHOD PATH",
		Short: "Send a signed request to any endpoint and print the answer",
		Long: `Sends a request signed with the chosen profile (or --sandbox, --credentials),
like "gh api". -f key=value fields become the query of a GET and the JSON
body of any other method; --input FILE sends a body as is. --paginate follows
the cursor and prints every item in one answer. -i prints the status line
and headers first. A status other than 2xx prints the answer and exits 1.`,
		Example: `  tesouro api GET /v2/account/balances
  tesouro api GET /v2/account/tickets -f status=PAID --paginate --jq '.tickets | length'
  tesouro api POST /v2/notifications/webhooks --input hook.json`,
		Args: exactArgs("METHOD", "PATH"),
	}
	cmd.Flags().StringArrayVarP(&fields, "field", "f", nil, "add a key=value field (query for GET, JSON body otherwise)")
	cmd.Flags().StringVar(&input, "input", "", "send the body read from FILE (- for stdin)")
	cmd.Flags().BoolVar(&paginate, "paginate", false, "follow the cursor and merge every page's items")
	cmd.Flags().BoolVarP(&include, "include", "i", false, "print the status line and headers")
	cmd.Flags().StringVar(&jq, "jq", "", "filter the answer with a jq expression")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		method, path := strings.ToUpper(args[0]), args[1]
		if !slices.Contains([]string{"GET", "POST", "PUT", "PATCH", "DELETE"}, method) {
			return Usagef("METHOD %q: use GET, POST, PUT, PATCH or DELETE", args[0])
		}
		if !strings.HasPrefix(path, "/") {
			path = "/" + path
		}
		var query url.Values
		if p, q, ok := strings.Cut(path, "?"); ok {
			path = p
			v, err := url.ParseQuery(q)
			if err != nil {
				return Usagef("PATH query: %v", err)
			}
			query = v
		}
		obj := map[string]string{}
		for _, kv := range fields {
			k, v, ok := strings.Cut(kv, "=")
			if !ok || k == "" {
				return Usagef("-f %q: give key=value", kv)
			}
			obj[k] = v
		}
		var body []byte
		switch {
		case input != "" && len(fields) > 0 && method != "GET":
			return Usagef("--input and -f exclude each other for %s", method)
		case input != "":
			var err error
			if input == "-" {
				body, err = io.ReadAll(f.Stdin)
			} else {
				body, err = os.ReadFile(input)
			}
			if err != nil {
				return err
			}
		case method == "GET" && len(fields) > 0:
			if query == nil {
				query = url.Values{}
			}
			for k, v := range obj {
				query.Set(k, v)
			}
		case len(fields) > 0:
			body, _ = json.Marshal(obj)
		}
		if paginate && method != "GET" {
			return Usagef("--paginate is for GET")
		}
		out := &Output{Format: "json", JQ: jq}
		if err := out.check(); err != nil {
			return err
		}
		return f.run(cmd, func(ctx context.Context, s *session) error {
			return f.rawRequest(ctx, s, method, path, query, body, paginate, include, out)
		})
	}
	return cmd
}

func (f *Factory) rawRequest(ctx context.Context, s *session, method, path string, query url.Values, body []byte, paginate, include bool, out *Output) error {
	// --sub-account scopes the request like every other command's.
	if s.sub != uuid.Nil && query.Get("subAccountId") == "" {
		if query == nil {
			query = url.Values{}
		}
		query.Set("subAccountId", s.sub.String())
	}
	var merged map[string]json.RawMessage
	for page := 0; ; page++ {
		var resp *api.RawResponse
		var err error
		if method == http.MethodGet {
			resp, err = s.client().Raw(ctx, method, path, query, body)
		} else {
			resp, err = s.rawWrite(ctx, method, path, query, body)
		}
		if err != nil {
			return err
		}
		if include && page == 0 {
			fmt.Fprintf(f.Stdout, "HTTP %d %s\n", resp.Status, http.StatusText(resp.Status))
			for _, k := range slices.Sorted(maps.Keys(resp.Header)) {
				fmt.Fprintf(f.Stdout, "%s: %s\n", termsafe.Line(k), termsafe.Line(strings.Join(resp.Header[k], ", ")))
			}
			fmt.Fprintln(f.Stdout)
		}
		if resp.Status < 200 || resp.Status > 299 {
			if err := f.printBody(resp.Body, &Output{Format: "json"}); err != nil {
				return err
			}
			return fmt.Errorf("%s %s: HTTP %d", method, path, resp.Status)
		}
		if !paginate {
			return f.printBody(resp.Body, out)
		}
		var pg map[string]json.RawMessage
		if err := json.Unmarshal(resp.Body, &pg); err != nil {
			return fmt.Errorf("--paginate: the answer is not a JSON object: %w", err)
		}
		var cursor string
		if raw, ok := pg["cursor"]; ok {
			_ = json.Unmarshal(raw, &cursor)
		}
		if merged == nil {
			merged = pg
		} else {
			for k, v := range pg {
				var items []json.RawMessage
				if json.Unmarshal(v, &items) != nil {
					continue
				}
				var have []json.RawMessage
				_ = json.Unmarshal(merged[k], &have)
				merged[k], _ = json.Marshal(append(have, items...))
			}
		}
		if cursor == "" {
			delete(merged, "cursor")
			b, _ := json.Marshal(merged)
			return f.printBody(b, out)
		}
		if query == nil {
			query = url.Values{}
		}
		query.Set("cursor", cursor)
	}
}

// rawWrite sends a write (any method but GET) and journals it as
// api-request: the endpoint with its secret-looking parts masked, the ids
// the answer names, and the status. The body is not journaled: it may
// hold anything, a secret included.
func (s *session) rawWrite(ctx context.Context, method, path string, query url.Values, body []byte) (*api.RawResponse, error) {
	var resp *api.RawResponse
	err := s.write("api-request", method+" "+api.RedactURL(path), func(je *journal.Entry) error {
		var err error
		if resp, err = s.client().Raw(ctx, method, path, query, body); err != nil {
			return err
		}
		je.IDs = answerIDs(resp.Body)
		je.Outcome = fmt.Sprintf("HTTP %d", resp.Status)
		if resp.Status < 200 || resp.Status > 299 {
			je.Outcome = "error: " + je.Outcome
		}
		return nil
	})
	return resp, err
}

// answerIDs are the ids an answer names: its own string fields called id
// or ...Id ({"webhookId": ...}), else the id of the one object it wraps
// ({"ticket": {"id": ...}}); nil when there are none.
func answerIDs(body []byte) map[string]string {
	var top map[string]json.RawMessage
	if json.Unmarshal(body, &top) != nil {
		return nil
	}
	ids := map[string]string{}
	for k, raw := range top {
		var v string
		if (k == "id" || strings.HasSuffix(k, "Id")) && json.Unmarshal(raw, &v) == nil && v != "" {
			ids[k] = v
		}
	}
	if len(ids) == 0 && len(top) == 1 {
		for _, raw := range top {
			var obj struct {
				ID string `json:"id"`
			}
			if json.Unmarshal(raw, &obj) == nil && obj.ID != "" {
				ids["id"] = obj.ID
			}
		}
	}
	if len(ids) == 0 {
		return nil
	}
	return ids
}

// printBody prints an answer: JSON indented (exact: its encoder escapes
// control characters), or through --jq; anything else as it came when
// stdout is a file or a pipe (a PDF receipt), and made safe to read when
// it is a terminal (termsafe.Text): a body is text from outside.
func (f *Factory) printBody(b []byte, out *Output) error {
	if len(bytes.TrimSpace(b)) == 0 {
		return nil
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil || dec.More() {
		if !isTerminal(f.Stdout) {
			_, err := f.Stdout.Write(b)
			return err
		}
		text := termsafe.Text(string(b))
		if !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		_, err := io.WriteString(f.Stdout, text)
		return err
	}
	return out.Write(f.Stdout, v, nil)
}
