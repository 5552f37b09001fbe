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

// apiMethods are the methods tesouro api sends.
var apiMethods = []string{"GET", "POST", "PUT", "PATCH", "DELETE"}

func newCmdAPI(f *Factory) *cobra.Command {
	var fields apiFields
	var method, input, jq string
	var paginate, include bool
	cmd := &cobra.Command{
		Use:   "api PATH",
		Short: "Send a signed request to any endpoint and print the answer",
		Long: `Sends a request signed with the chosen profile (or --sandbox, --credentials),
like "gh api". The method is GET unless -X names another: a write is always
asked for by name, never inferred from the fields.

-f key=value adds a string field; -F key=value a typed one: true, false,
null and numbers become JSON values (numbers keep every digit), @FILE the
file's content (@- reads stdin). key[]=value appends to an array,
key[name]=value sets a member of an object. The fields are the query of a
GET and the JSON body of any other method; with --input FILE (- for stdin)
the body is the file, sent as is, and the fields go to the query.

--paginate follows the cursor and prints every page's items in one answer;
--jq filters it; -i prints the status line and headers first. A body that
is not JSON is printed as it came into a file or a pipe, and with its
control characters escaped at a terminal. A status other than 2xx prints
the answer and exits 1. A write crosses the same gate as every other
(--readonly, read-only and production profiles) and is journaled.

The older form "tesouro api METHOD PATH" still works.`,
		Example: `  tesouro api /v2/account/balances
  tesouro api /v2/account/tickets -f status=PAID --paginate --jq '.tickets | length'
  tesouro api -X POST /v2/notifications/webhooks -f webhookUrl=http://localhost:4242/hooks -f 'subscriptions[]=*'`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 || len(args) > 2 {
				return Usagef("%s takes the endpoint's PATH (and -X METHOD), got %d argument(s)", cmd.CommandPath(), len(args))
			}
			return nil
		},
	}
	fs := cmd.Flags()
	fs.StringVarP(&method, "method", "X", "GET", "the HTTP METHOD: GET, POST, PUT, PATCH or DELETE")
	fs.StringArrayVarP(&fields.raw, "raw-field", "f", nil, "add a string field key=value (query of a GET, JSON body otherwise)")
	fs.StringArrayVarP(&fields.typed, "field", "F", nil, "add a typed field key=value: true, false, null, a number, @FILE; key[]=value for arrays")
	fs.StringVar(&input, "input", "", "send the body read from FILE as is (- for stdin); fields go to the query")
	fs.BoolVar(&paginate, "paginate", false, "follow the cursor and merge every page's items")
	fs.BoolVarP(&include, "include", "i", false, "print the status line and headers first")
	fs.StringVar(&jq, "jq", "", "filter the answer with a jq EXPRESSION")
	_ = cmd.RegisterFlagCompletionFunc("method", cobra.FixedCompletions(apiMethods, cobra.ShellCompDirectiveNoFileComp))
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		path := args[len(args)-1]
		method = strings.ToUpper(method)
		if len(args) == 2 {
			// The older form: METHOD PATH.
			if flagChanged(cmd.Flags(), "method") && !strings.EqualFold(args[0], method) {
				return Usagef("the method is given twice (-X %s and %s): give it once, with -X", method, args[0])
			}
			method = strings.ToUpper(args[0])
		}
		if !slices.Contains(apiMethods, method) {
			return Usagef("-X %s: use GET, POST, PUT, PATCH or DELETE", method)
		}
		if !strings.HasPrefix(path, "/") {
			path = "/" + path
		}
		query := url.Values{}
		if p, q, ok := strings.Cut(path, "?"); ok {
			path = p
			v, err := url.ParseQuery(q)
			if err != nil {
				return Usagef("PATH query: %v", err)
			}
			query = v
		}
		parsed, err := fields.parse(f.Stdin)
		if err != nil {
			return err
		}
		var payload []byte
		switch {
		case input != "":
			if input == "-" {
				payload, err = io.ReadAll(f.Stdin)
			} else {
				payload, err = os.ReadFile(input)
			}
			if err != nil {
				return fmt.Errorf("--input: %w", err)
			}
			if err := queryFields(query, parsed); err != nil {
				return err
			}
		case method == http.MethodGet:
			if err := queryFields(query, parsed); err != nil {
				return err
			}
		case len(parsed) > 0:
			obj, err := body(parsed)
			if err != nil {
				return err
			}
			payload, _ = json.Marshal(obj)
		}
		if paginate && method != http.MethodGet {
			return Usagef("--paginate is for GET")
		}
		out := &Output{Format: "json", JQ: jq}
		if err := out.check(); err != nil {
			return err
		}
		do := func(ctx context.Context, s *session) error {
			return f.rawRequest(ctx, s, method, path, query, payload, paginate, include, out)
		}
		if method == http.MethodGet {
			return f.run(cmd, do)
		}
		// No person confirms a raw request: it is a scripted write.
		return f.runWrite(cmd, write{what: "tesouro api " + method}, do)
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
