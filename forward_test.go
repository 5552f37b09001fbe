package main

import (
	"context"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tesouro-treasury/tesouro/api"
)

// relayHooks are the webhooks of the sandbox whose credentials are at
// creds that point at a --forward-to relay.
func relayHooks(t *testing.T, creds string) []api.Webhook {
	t.Helper()
	hooks, err := demoClient(t, creds, "operator").ListWebhooks(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var out []api.Webhook
	for _, h := range hooks {
		if u, err := url.Parse(h.URL); err == nil && u.Path == "/tesouro-forward-relay" {
			out = append(out, h)
		}
	}
	return out
}

// A sandbox with --state keeps its webhooks: --forward-to removes its relay
// webhook when it stops, and takes over the ones a killed run left instead
// of adding one more each restart.
func TestForwardToLeavesNoRelayWebhookBehind(t *testing.T) {
	dir := t.TempDir()
	state, creds := filepath.Join(dir, "state.db"), filepath.Join(dir, "creds.json")
	start := func(forward bool) (stop func()) {
		ctx, cancel := context.WithCancel(context.Background())
		out := &syncBuffer{}
		f := testFactory(strings.NewReader(""), out, out, func(k string) string {
			return map[string]string{"XDG_STATE_HOME": dir, "TESOURO_CONFIG_DIR": dir}[k]
		})
		args := []string{"sandbox", "--addr", "127.0.0.1:0", "--state", state, "--credentials-out", creds}
		if forward {
			args = append(args, "--forward-to", "http://127.0.0.1:1/hooks")
		}
		done := make(chan error, 1)
		go func() { done <- execute(ctx, f, args) }()
		waitFor(t, sandboxStartWait, "the sandbox to listen", func() bool { return strings.Contains(out.String(), "press Ctrl-C") })
		return func() {
			cancel()
			if err := <-done; err != nil {
				t.Fatalf("sandbox: %v\n%s", err, out.String())
			}
			if strings.Contains(out.String(), "warning") {
				t.Errorf("sandbox: %s", out.String())
			}
		}
	}
	stop := start(true)
	if hooks := relayHooks(t, creds); len(hooks) != 1 {
		t.Fatalf("running: %d relay webhooks, want 1", len(hooks))
	}
	stop()

	stop = start(false)
	if hooks := relayHooks(t, creds); len(hooks) != 0 {
		t.Fatalf("after --forward-to stopped: %d relay webhooks are left", len(hooks))
	}
	// What a killed run leaves: a relay webhook nobody removed.
	left, err := demoClient(t, creds, "operator").RegisterWebhook(context.Background(),
		api.RegisterWebhookRequest{WebhookURL: "http://127.0.0.1:9/tesouro-forward-relay", Subscriptions: []string{"*"}})
	if err != nil {
		t.Fatal(err)
	}
	stop()

	stop = start(true)
	if hooks := relayHooks(t, creds); len(hooks) != 1 || hooks[0].ID != left || strings.Contains(hooks[0].URL, ":9/") {
		t.Errorf("over a leftover: %+v, want the leftover %s reused, pointing at the new relay", hooks, left)
	}
	stop()
	stop = start(false)
	if hooks := relayHooks(t, creds); len(hooks) != 0 {
		t.Errorf("after the second run: %d relay webhooks are left", len(hooks))
	}
	stop()
}
