package cli

import (
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestAPIFieldsAsGhTakesThem(t *testing.T) {
	file := filepath.Join(t.TempDir(), "memo.txt")
	if err := os.WriteFile(file, []byte("line one\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	a := apiFields{
		raw:   []string{"alias=007", "note=true"},
		typed: []string{"amount=1000.000001", "count=3", "active=true", "gone=null", "memo=@" + file, "subscriptions[]=TICKET", "subscriptions[]=*", "address[city]=São Paulo", "items[][id]=a", "items[][id]=b"},
	}
	fields, err := a.parse(strings.NewReader(""))
	if err != nil {
		t.Fatal(err)
	}
	obj, err := body(fields)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(obj)
	want := `{"active":true,"address":{"city":"São Paulo"},"alias":"007","amount":1000.000001,"count":3,"gone":null,"items":[{"id":"a"},{"id":"b"}],"memo":"line one\n","note":"true","subscriptions":["TICKET","*"]}`
	if string(got) != want {
		t.Errorf("body\n got %s\nwant %s", got, want)
	}
	q := url.Values{}
	if err := queryFields(q, fields[:2]); err != nil || q.Encode() != "alias=007&note=true" {
		t.Errorf("query %q, %v", q.Encode(), err)
	}
	for _, bad := range []string{"novalue", "=x", "a[b=c"} {
		if _, err := (apiFields{typed: []string{bad}}).parse(nil); !IsUsage(err) {
			t.Errorf("-F %s: %v, want a usage error", bad, err)
		}
	}
	if _, err := (apiFields{typed: []string{"k=@/nonexistent/file"}}).parse(nil); !IsUsage(err) {
		t.Errorf("-F k=@missing: %v", err)
	}
}

// The case: an array field, typed, registers a webhook; the older
// METHOD PATH form still reads.
func TestAPIRegistersAWebhookWithAnArrayField(t *testing.T) {
	e := newProfileEnv(t)
	sb := startTestSandbox(t)
	creds := filepath.Join(t.TempDir(), "creds.json")
	if err := sb.Creds.WriteFile(creds); err != nil {
		t.Fatal(err)
	}
	out := e.mustRun("", "--credentials", creds, "api", "-X", "POST", "/v2/notifications/webhooks",
		"-f", "webhookUrl=https://hooks.example.com/in", "-F", "subscriptions[]=TICKET", "--jq", ".webhookId")
	id := strings.TrimSpace(out)
	if id == "" {
		t.Fatal("no webhook id")
	}
	list := e.mustRun("", "--credentials", creds, "api", "GET", "/v2/notifications/webhooks", "--jq", `.webhooks[] | select(.id == "`+id+`") | .subscriptions | join(",")`)
	if strings.TrimSpace(list) != "TICKET" {
		t.Errorf("the webhook's subscriptions: %q", list)
	}
	if code, _, errOut := e.run("", "--credentials", creds, "api", "-X", "GET", "POST", "/v2/x"); code != exitUsage || !strings.Contains(errOut, "given twice") {
		t.Errorf("two methods: exit %d %s", code, errOut)
	}
	if code, _, errOut := e.run("", "--credentials", creds, "api", "-X", "TRACE", "/v2/x"); code != exitUsage || !strings.Contains(errOut, "use GET, POST") {
		t.Errorf("-X TRACE: exit %d %s", code, errOut)
	}
}
