package sandbox_test

import (
	"io"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/tesouro-treasury/tesouro/sandbox"
)

// Logins with unique, huge e-mails cost the sandbox nothing it keeps: an
// e-mail longer than an address can be (254 characters, RFC 5321) is
// refused 400 naming the field before the lockout remembers it, and what
// the lockout remembers is bounded (sandbox/httpapi's throttle test holds
// its table at capacity). TESOURO_LOGIN_FLOOD sets how many 1 MiB logins
// are sent (default 40; the figure of record is 400: the heap in use went
// from 3.1 to 403 MB before the limit, and stays at 3.2 MB with it).
func TestLoginFloodIsBounded(t *testing.T) {
	// Not parallel: the heap it measures is the whole process's.
	n := 40
	if v := os.Getenv("TESOURO_LOGIN_FLOOD"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n < 1 {
			t.Fatalf("TESOURO_LOGIN_FLOOD=%q: want a positive number", v)
		}
	}
	e := newEnv(t, sandbox.Config{Seed: 9})
	post := func(body string) (int, []byte) {
		resp, err := http.Post(e.run.BaseURL+"/v2/auth/login", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		out, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, out
	}
	// At the limit: an unknown address of 254 characters is a wrong login.
	at := strings.Repeat("a", 64) + "@" + strings.Repeat("b", 254-64-1-4) + ".com"
	if st, out := post(`{"email":"` + at + `","password":"x"}`); st != 401 {
		t.Fatalf("a 254-character e-mail: %d %s", st, out)
	}

	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapInuse
	}
	before := heap()
	pad := strings.Repeat("x", 1<<20-200)
	for i := range n {
		st, out := post(`{"email":"` + strconv.Itoa(i) + pad + `@example.com","password":"x"}`)
		if i == 0 {
			checkError(t, st, out, 400, "INVALID_FIELD")
			if msg := string(out); !strings.Contains(msg, "email:") || !strings.Contains(msg, "254") {
				t.Fatalf("the refusal does not name the field and its limit: %s", out)
			}
		} else if st != 400 {
			t.Fatalf("login %d with a 1 MiB e-mail: %d %s", i+1, st, out)
		}
	}
	after := heap()
	grew := int64(after) - int64(before)
	t.Logf("%d logins with unique 1 MiB e-mails: heap in use %.1f MB → %.1f MB", n, float64(before)/(1<<20), float64(after)/(1<<20))
	if grew > 20<<20 {
		t.Fatalf("the heap kept %.1f MB after %d refused logins", float64(grew)/(1<<20), n)
	}
}
