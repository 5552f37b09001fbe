package api

import "testing"

func TestMaskedPathHidesSecretLookingValuesAndSessionIDs(t *testing.T) {
	for in, want := range map[string]string{
		"http://h/v2/account/tickets?externalId=e1&status=PAID": "/v2/account/tickets?externalId=e1&status=PAID",
		"http://h/v2/x?token=abc&refreshToken=r&apiKey=k":       "/v2/x?apiKey=REDACTED&refreshToken=REDACTED&token=REDACTED",
		"http://h/v2/payment-session/ps_secret_1/create-ticket": "/v2/payment-session/REDACTED/create-ticket",
		"http://h/v2/account/balances":                          "/v2/account/balances",
	} {
		if got := maskedPath(in); got != want {
			t.Errorf("maskedPath(%q) = %q, want %q", in, got, want)
		}
	}
}
