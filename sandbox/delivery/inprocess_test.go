package delivery

import (
	"net/http"
	"testing"
)

// ServeInProcess returns what the handler answered: its status (200 when
// it wrote a body without one, or nothing at all), its Content-Type and
// its body; a status set twice keeps the first, as on a connection.
func TestServeInProcessReturnsTheAnswer(t *testing.T) {
	req, _ := http.NewRequest(http.MethodPost, "http://localhost/x", nil)
	cases := []struct {
		name    string
		h       http.HandlerFunc
		status  int
		ct, out string
	}{
		{"body only", func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("ok")) }, 200, "", "ok"},
		{"nothing", func(http.ResponseWriter, *http.Request) {}, 200, "", ""},
		{"refusal", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			w.WriteHeader(http.StatusOK)
			w.Write([]byte(`{"error":"bad signature"}`))
		}, 400, "application/json", `{"error":"bad signature"}`},
	}
	for _, c := range cases {
		status, ct, body := ServeInProcess(c.h, req)
		if status != c.status || ct != c.ct || string(body) != c.out {
			t.Errorf("%s: got %d %q %q, want %d %q %q", c.name, status, ct, body, c.status, c.ct, c.out)
		}
	}
}
