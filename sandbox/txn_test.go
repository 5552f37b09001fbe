package sandbox

import (
	"net/http"
	"strings"
	"testing"
)

// A creation's quote token is read before the store lock, yet a request
// wrong in both its sub-account and its token is still answered about the
// sub-account first, as before.
func TestCreationNamesTheSubAccountBeforeTheQuote(t *testing.T) {
	r, err := Start(Config{Seed: 1}, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	c := r.client(t, "operator")
	body := map[string]string{"quoteToken": "not-a-token"}
	code, out := c.do("POST", "/v2/account/tickets/?subAccountId=00000000-0000-4000-8000-000000000001", body)
	if code != http.StatusNotFound || !strings.Contains(string(out), "sub-account") {
		t.Errorf("unknown sub-account and bad token: %d %s, want 404 naming the sub-account", code, out)
	}
	code, out = c.do("POST", "/v2/account/tickets/", body)
	if code != http.StatusBadRequest || !strings.Contains(string(out), codeQuoteInvalid) {
		t.Errorf("bad token: %d %s, want 400 %s", code, out, codeQuoteInvalid)
	}
}
