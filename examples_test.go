package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/itchyny/gojq"
	"github.com/spf13/cobra"
	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/cli"
	"github.com/tesouro-treasury/tesouro/keystore"
	"github.com/tesouro-treasury/tesouro/sandbox"
)

// An example is the command lines of one README code block, or of one
// command's --help, run in order in one world.
type example struct {
	where string
	lines []string
}

// readmeExamples are the tesouro command lines of README.md's sh blocks.
func readmeExamples(t *testing.T) []example {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	var out []example
	var cur *example
	for i, line := range strings.Split(string(b), "\n") {
		switch {
		case cur == nil && strings.HasPrefix(line, "```sh"):
			cur = &example{where: fmt.Sprintf("README.md:%d", i+1)}
		case cur != nil && strings.HasPrefix(line, "```"):
			if len(cur.lines) > 0 {
				out = append(out, *cur)
			}
			cur = nil
		case cur != nil:
			cur.lines = append(cur.lines, line)
		}
	}
	for i := range out {
		out[i].lines = tesouroLines(out[i].lines)
	}
	return out
}

// helpExamples are the examples of every command's --help.
func helpExamples(root *cobra.Command) []example {
	var out []example
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Hidden {
			return
		}
		if lines := tesouroLines(strings.Split(c.Example, "\n")); len(lines) > 0 {
			out = append(out, example{where: c.CommandPath() + " --help", lines: lines})
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	return out
}

// tesouroLines joins continued lines and keeps those that run tesouro
// (after any VAR=value), without their trailing comments.
func tesouroLines(lines []string) []string {
	var out []string
	for i := 0; i < len(lines); i++ {
		line := strings.TrimSpace(lines[i])
		for strings.HasSuffix(line, `\`) && i+1 < len(lines) {
			i++
			line = strings.TrimSuffix(line, `\`) + " " + strings.TrimSpace(lines[i])
		}
		words := strings.Fields(line)
		for len(words) > 0 && strings.Contains(words[0], "=") {
			words = words[1:]
		}
		if len(words) > 0 && words[0] == "tesouro" {
			out = append(out, line)
		}
	}
	return out
}

// world is where an example runs: a running sandbox (seed 1), its
// credentials in the working directory and in the state directory, the
// profiles acme (active: the operator), approver (approver1) and old on it, the files the examples name, and
// the ids the placeholders stand for.
type world struct {
	t       *testing.T
	dir     string
	env     map[string]string
	secrets keystore.Secrets
	sb      *sandbox.Running
	ids     map[string]string
}

func newWorld(t *testing.T, needs string) *world {
	t.Helper()
	dir := t.TempDir()
	// The commands run in process: their relative paths are the process's.
	t.Chdir(dir)
	home := filepath.Join(dir, "home")
	w := &world{t: t, dir: dir, secrets: keystore.NewMemory(), ids: map[string]string{}, env: map[string]string{
		"HOME": home, "TESOURO_CONFIG_DIR": filepath.Join(home, ".config", "tesouro"), "XDG_STATE_HOME": filepath.Join(home, ".local", "state"),
		"PATH": os.Getenv("PATH"), "LANG": "C.UTF-8",
	}}
	sb, err := sandbox.Start(sandbox.Config{Seed: 1}, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	w.sb = sb
	state := filepath.Join(home, ".local", "state", "tesouro")
	if err := os.MkdirAll(state, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(dir, "creds.json"), filepath.Join(dir, "sandbox-credentials.json"), filepath.Join(state, "sandbox-credentials.json")} {
		if err := sb.Creds.WriteFile(p); err != nil {
			t.Fatal(err)
		}
	}
	op, _ := sb.Creds.Access("operator")
	w.file("api-key.txt", op.APIKey+"\n")
	w.file("key.pem", op.PrivateKeyPEM)
	for _, name := range []string{"old", "acme"} {
		w.mustRun("tesouro profile add " + name + " --base-url " + sb.BaseURL + " --api-key-file api-key.txt --private-key-file key.pem --replace")
	}
	ap, _ := sb.Creds.Access("approver1")
	w.file("approver-key.txt", ap.APIKey+"\n")
	w.file("approver.pem", ap.PrivateKeyPEM)
	w.mustRun("tesouro profile add approver --base-url " + sb.BaseURL + " --api-key-file approver-key.txt --private-key-file approver.pem")
	w.mustRun("tesouro profile use acme")
	c := demoClient(t, filepath.Join(dir, "creds.json"), "operator")
	ctx := context.Background()
	if strings.Contains(needs, "TICKET_ID") {
		w.ids["UNPAID"] = w.firstTicket(c, api.TicketUnpaid)
		w.ids["PAID"] = w.firstTicket(c, api.TicketPaid)
	}
	if strings.Contains(needs, "OPERATION_ID") {
		ops, err := demoClient(t, filepath.Join(dir, "creds.json"), "approver1").ListApproverOperations(ctx, "")
		if err != nil || len(ops.Items) == 0 {
			t.Fatalf("no operation waits for approval: %v", err)
		}
		w.ids["OPERATION_ID"] = ops.Items[0].ID.String()
	}
	if strings.Contains(needs, "ATTEMPT_ID") {
		as, err := c.ListWebhookAttempts(ctx, api.AttemptFilter{UnackedOnly: true})
		if err != nil || len(as.Items) == 0 {
			t.Fatalf("no unacknowledged attempt: %v", err)
		}
		w.ids["ATTEMPT_ID"] = as.Items[0].ID
	}
	for _, b := range []struct{ placeholder, alias string }{{"BRL_ACCOUNT_ID", "Maria Silva"}, {"EUR_ACCOUNT_ID", "Sophie Martin"}} {
		if strings.Contains(needs, b.placeholder) {
			out := w.mustRun("tesouro beneficiaries list --alias '" + b.alias + "' --jq '.[0].id'")
			w.ids[b.placeholder] = strings.TrimSpace(out)
		}
	}
	if strings.Contains(needs, "delivery.http") || strings.Contains(needs, "$SIG") {
		w.captureDelivery(c)
	}
	return w
}

func (w *world) file(name, content string) {
	w.t.Helper()
	if err := os.WriteFile(filepath.Join(w.dir, name), []byte(content), 0o600); err != nil {
		w.t.Fatal(err)
	}
}

func (w *world) firstTicket(c *api.Client, st api.TicketStatus) string {
	w.t.Helper()
	page, err := c.ListTickets(context.Background(), api.TicketFilter{Status: string(st)})
	if err != nil || len(page.Items) == 0 {
		w.t.Fatalf("no %s ticket in the demo data: %v", st, err)
	}
	return page.Items[0].ID.String()
}

// captureDelivery has the sandbox deliver one signed webhook to a local
// server, and keeps it as the examples read it: the whole request
// (delivery.http), its body (body.json), its signature ($SIG) and the
// service's key (service.pem). The webhook is removed afterwards.
func (w *world) captureDelivery(c *api.Client) {
	w.t.Helper()
	got := make(chan *http.Request, 1)
	var once sync.Once
	var raw, body []byte
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		once.Do(func() {
			raw, _ = httputil.DumpRequest(r, true)
			body, _ = io.ReadAll(bytes.NewReader(raw[bytes.Index(raw, []byte("\r\n\r\n"))+4:]))
			got <- r
		})
	}))
	defer srv.Close()
	ctx := context.Background()
	id, err := c.RegisterWebhook(ctx, api.RegisterWebhookRequest{WebhookURL: srv.URL + "/hooks", Subscriptions: []string{"*"}})
	if err != nil {
		w.t.Fatal(err)
	}
	defer c.DeleteWebhook(ctx, id)
	page, err := c.ListTickets(ctx, api.TicketFilter{Status: string(api.TicketUnpaid)})
	if err != nil || len(page.Items) < 2 {
		w.t.Fatalf("two UNPAID tickets are needed: %v", err)
	}
	if _, err := c.SandboxFundTicket(ctx, uuid.Nil, page.Items[len(page.Items)-1].ID); err != nil {
		w.t.Fatal(err)
	}
	var r *http.Request
	select {
	case r = <-got:
	case <-time.After(30 * time.Second):
		w.t.Fatal("no webhook delivery within 30 s")
	}
	key, err := c.PublicKey(ctx)
	if err != nil {
		w.t.Fatal(err)
	}
	w.file("delivery.http", string(raw))
	w.file("body.json", string(body))
	w.file("service.pem", key)
	w.env["SIG"] = r.Header.Get("Signature")
}

// placeholders replaces what an example says to put in (TICKET_ID...) by
// an id of the world's that fits.
func (w *world) placeholders(line string) string {
	ticket := w.ids["UNPAID"]
	if strings.Contains(line, " receipt ") {
		ticket = w.ids["PAID"]
	}
	line = strings.ReplaceAll(line, "TICKET_ID", ticket)
	for k, v := range w.ids {
		line = strings.ReplaceAll(line, k, v)
	}
	return line
}

// outcome is how a line ended.
type outcome struct {
	code        int
	stdout, err string
}

// run runs one command line through a shell interpreter whose tesouro,
// xargs and jq are this process's: tesouro in process, on a factory with
// the world's environment and in-memory keyring.
func (w *world) run(line string) outcome {
	w.t.Helper()
	file, err := syntax.NewParser().Parse(strings.NewReader(line), "example")
	if err != nil {
		w.t.Fatalf("%s: %v", line, err)
	}
	var env []string
	for k, v := range w.env {
		env = append(env, k+"="+v)
	}
	var stdout, stderr bytes.Buffer
	handler := func(next interp.ExecHandlerFunc) interp.ExecHandlerFunc {
		var self interp.ExecHandlerFunc
		self = func(ctx context.Context, args []string) error {
			hc := interp.HandlerCtx(ctx)
			switch args[0] {
			case "tesouro":
				return w.tesouro(ctx, hc, args[1:])
			case "xargs":
				in, _ := io.ReadAll(hc.Stdin)
				return self(ctx, append(args[1:], strings.Fields(string(in))...))
			case "jq":
				return jq(hc, args[1:])
			}
			return next(ctx, args)
		}
		return self
	}
	r, err := interp.New(interp.StdIO(strings.NewReader(""), &stdout, &stderr), interp.Dir(w.dir),
		interp.Env(expand.ListEnviron(env...)), interp.ExecHandlers(handler))
	if err != nil {
		w.t.Fatal(err)
	}
	err = r.Run(context.Background(), file)
	code := 0
	var st interp.ExitStatus
	if errors.As(err, &st) {
		code = int(st)
	} else if err != nil {
		w.t.Fatalf("%s: %v", line, err)
	}
	return outcome{code, stdout.String(), stderr.String()}
}

func (w *world) mustRun(line string) string {
	w.t.Helper()
	o := w.run(line)
	if o.code != 0 {
		w.t.Fatalf("%s: exit %d\n%s\n%s", line, o.code, o.stdout, o.err)
	}
	return o.stdout
}

// tesouro runs the command line in process. A watch (quote --watch) is
// stopped as Ctrl-C stops it once it has printed a quote. A server
// (tesouro sandbox) goes on serving the block's next lines, as it would
// in another terminal, and is stopped at the end of the block.
func (w *world) tesouro(ctx context.Context, hc interp.HandlerContext, args []string) error {
	server := len(args) > 0 && args[0] == "sandbox" && !contains(args, "fund") && !contains(args, "totp")
	if server {
		return w.serve(hc, args)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	out := &watchWriter{w: hc.Stdout}
	f := testFactory(hc.Stdin, out, hc.Stderr, func(k string) string { return hc.Env.Get(k).String() })
	f.Secrets = func() keystore.Secrets { return w.secrets }
	longRunning := ""
	if contains(args, "--watch") {
		longRunning = "input_amount"
	}
	if longRunning != "" {
		go func() {
			for ctx.Err() == nil && !strings.Contains(out.String(), longRunning) {
				time.Sleep(20 * time.Millisecond)
			}
			cancel()
		}()
	}
	err := execute(ctx, f, args)
	if code := cli.ExitCode(err); code != 0 && !(longRunning != "" && ctx.Err() != nil && err == nil) {
		return interp.ExitStatus(uint8(code))
	}
	return nil
}

// serve starts tesouro sandbox in the background and returns once it
// listens; the world stops it when its test ends.
func (w *world) serve(hc interp.HandlerContext, args []string) error {
	ctx, cancel := context.WithCancel(context.Background())
	out := &watchWriter{w: io.Discard}
	errOut := &watchWriter{w: hc.Stderr}
	f := testFactory(strings.NewReader(""), out, errOut, func(k string) string { return hc.Env.Get(k).String() })
	f.Secrets = func() keystore.Secrets { return w.secrets }
	done := make(chan error, 1)
	go func() { done <- execute(ctx, f, args) }()
	w.t.Cleanup(func() {
		cancel()
		<-done
	})
	for {
		select {
		case err := <-done:
			fmt.Fprint(hc.Stdout, out.String())
			return interp.ExitStatus(uint8(cli.ExitCode(err)))
		case <-time.After(20 * time.Millisecond):
		}
		if strings.Contains(out.String(), "press Ctrl-C") {
			fmt.Fprint(hc.Stdout, out.String())
			return nil
		}
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// watchWriter passes output on and keeps a copy to watch.
type watchWriter struct {
	w  io.Writer
	mu sync.Mutex
	b  strings.Builder
}

func (ww *watchWriter) Write(p []byte) (int, error) {
	ww.mu.Lock()
	ww.b.Write(p)
	ww.mu.Unlock()
	return ww.w.Write(p)
}

func (ww *watchWriter) String() string {
	ww.mu.Lock()
	defer ww.mu.Unlock()
	return ww.b.String()
}

// jq is jq FILTER over stdin, through gojq.
func jq(hc interp.HandlerContext, args []string) error {
	q, err := gojq.Parse(args[len(args)-1])
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bufio.NewReader(hc.Stdin))
	for {
		var v any
		if err := dec.Decode(&v); err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
		iter := q.Run(v)
		for {
			r, ok := iter.Next()
			if !ok {
				break
			}
			b, _ := json.Marshal(r)
			fmt.Fprintf(hc.Stdout, "%s\n", b)
		}
	}
}

// needsTheNetwork are example lines that talk to a service of the
// reader's own (a production URL, a JWT login): they are run, and must
// fail only for the network or the credentials, never as a usage mistake.
var needsTheNetwork = regexp.MustCompile(`example\.com|log(in|out) --profile ops|profile add local`)

// Every command line of README.md and of every --help example runs as
// written against a sandbox, each code block (or command's examples) in a
// world of its own: exit 0, or for the dashboard exactly its refusal to
// start without a terminal.
//
// It checks what the examples do, not concurrency, and each block starts
// a sandbox: under the race detector that takes minutes, so it runs
// without it (.ci/run runs it on its own, after go test -race).
func TestEveryExampleRuns(t *testing.T) {
	if raceDetector {
		t.Skip("run without -race: go test -run TestEveryExampleRuns . (.ci/run does)")
	}
	root := cli.NewCmdRoot(testFactory(nil, io.Discard, io.Discard, func(string) string { return "" }))
	all := append(readmeExamples(t), helpExamples(root)...)
	if len(all) < 40 {
		t.Fatalf("found only %d examples", len(all))
	}
	lines := 0
	for _, ex := range all {
		t.Run(ex.where, func(t *testing.T) {
			w := newWorld(t, strings.Join(ex.lines, "\n"))
			for _, line := range ex.lines {
				lines++
				o := w.run(w.placeholders(line))
				switch {
				case strings.Contains(o.err, "address already in use"):
					t.Logf("%s: its address is taken on this machine; not run: %s", line, strings.TrimSpace(o.err))
				case o.code == 2 && strings.Contains(o.err, "the dashboard needs a terminal"):
					// The dashboard: every flag was taken; the e2e tests open it.
				case needsTheNetwork.MatchString(line):
					if o.code == 2 {
						t.Errorf("%s: %s: a usage mistake:\n%s", ex.where, line, o.err)
					}
				case o.code != 0:
					t.Errorf("%s: %s: exit %d\nstdout: %s\nstderr: %s", ex.where, line, o.code, o.stdout, o.err)
					return
				}
			}
		})
	}
	t.Logf("%d examples, %d command lines", len(all), lines)
}
