package ui

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/tesouro-treasury/tesouro/api"
)

func TestErrorTextHidesTheRequestLine(t *testing.T) {
	ae := &api.Error{Status: 403, Code: "FORBIDDEN", Message: "missing permission: payOut", Method: "POST", Path: "/v2/account/tickets"}
	got := ErrorText(fmt.Errorf("create ticket: %w", ae))
	if got != "missing permission: payOut (FORBIDDEN, HTTP 403)" {
		t.Fatalf("ErrorText = %q", got)
	}
	if strings.Contains(ErrorText(&api.Error{Status: 502, Method: "GET", Path: "/v2/x"}), "/v2/") {
		t.Fatal("a bare status error shows the path")
	}
	if got := ErrorText(errors.New("no answer")); got != "no answer" {
		t.Fatalf("a plain error reads %q", got)
	}
}

// A lost answer is told in words only: each panel says how to retry in its
// own place, so the key is not named twice ("(r retries) (r retries)").
func TestErrorTextOfNoAnswerNamesNoKey(t *testing.T) {
	got := ErrorText(fmt.Errorf("GET /v2/account/balances: %w", api.ErrNoAnswer))
	if got != "no answer from the service" {
		t.Errorf("ErrorText = %q", got)
	}
}
