package sandbox_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/tesouro-treasury/tesouro/api"
)

// raw sends hand-made requests signed by the api package's signer, for the
// wire-level rules the typed client never breaks on purpose.
type raw struct {
	e    *env
	key  *api.APIKeyAuth
	name string
}

func (e *env) rawAs(t testing.TB, name string) *raw {
	t.Helper()
	cred := e.cred(name)
	key, err := api.NewAPIKeyAuth(cred.APIKey, []byte(cred.PrivateKeyPEM))
	if err != nil {
		t.Fatal(err)
	}
	return &raw{e: e, key: key, name: name}
}

// send signs at ts (the sandbox clock, e.stamp, when zero) and returns
// status and body.
func (r *raw) send(t testing.TB, method, uri, body string, ts time.Time, mutate func(*http.Request)) (int, []byte) {
	t.Helper()
	if ts.IsZero() {
		ts = r.e.stamp()
	}
	var rd io.Reader
	if body != "" {
		rd = bytes.NewReader([]byte(body))
	}
	req, err := http.NewRequest(method, r.e.run.BaseURL+uri, rd)
	if err != nil {
		t.Fatal(err)
	}
	stamp := strconv.FormatInt(ts.UnixMilli(), 10)
	sig, err := r.key.Sign([]byte(stamp), method, uri, []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-API-Key", r.key.APIKey())
	req.Header.Set("X-API-Timestamp", stamp)
	req.Header.Set("X-API-Signature", sig)
	if mutate != nil {
		mutate(req)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, out
}

func (r *raw) wantError(t testing.TB, method, uri, body string, status int, code string) string {
	t.Helper()
	got, out := r.send(t, method, uri, body, time.Time{}, nil)
	return checkError(t, got, out, status, code)
}

func checkError(t testing.TB, got int, out []byte, status int, code string) string {
	t.Helper()
	var e struct {
		Error struct{ Code, Message string } `json:"error"`
	}
	if err := json.Unmarshal(out, &e); err != nil {
		t.Fatalf("error body is not the §4 JSON: %q", out)
	}
	if got != status || e.Error.Code != code {
		t.Fatalf("got %d %s (%s), want %d %s", got, e.Error.Code, e.Error.Message, status, code)
	}
	if e.Error.Message == "" {
		t.Fatal("error without a message")
	}
	return e.Error.Message
}
