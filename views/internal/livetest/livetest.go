// Package livetest gives the screens' tests what they need to drive a
// screen against the sandbox over real HTTP, as the dashboard reaches the
// service: the sandbox served for the length of a test, the signed client
// of one of its demo accesses, and records it accepts (USDAccount).
package livetest

import (
	"net/http/httptest"
	"testing"
	"time"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/sandbox"
)

// Serve serves sb over HTTP until the test ends and returns its demo
// credentials, their base URL the server's.
func Serve(t testing.TB, sb *sandbox.Server) sandbox.Credentials {
	t.Helper()
	srv := httptest.NewServer(sb.Handler())
	t.Cleanup(srv.Close)
	return sb.Credentials(srv.URL)
}

// Client is the client of the demo access named name (the "operator"),
// signing with its key, each call bounded by timeout.
func Client(t testing.TB, creds sandbox.Credentials, name string, timeout time.Duration) *api.Client {
	t.Helper()
	acc, ok := creds.Access(name)
	if !ok {
		t.Fatalf("no access %q in the sandbox", name)
	}
	auth, err := api.NewAPIKeyAuth(acc.APIKey, []byte(acc.PrivateKeyPEM))
	if err != nil {
		t.Fatal(err)
	}
	c, err := api.New(creds.BaseURL, auth, api.WithTimeout(timeout))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// USDAccount is a USD bank account the service accepts: a valid ABA routing
// number, the bank and the holder's US addresses, registered as alias in
// the name of holder.
func USDAccount(alias, holder string) api.CreateUSDAccountRequest {
	return api.CreateUSDAccountRequest{Alias: alias, BankAccountNumber: "000123456789", BankRoutingNumber: "021000021", BankBeneficiaryName: holder, BankName: "Chase",
		BeneficiaryAddress: &api.Address{StreetLine1: "1 Main St", City: "New York", State: "NY", PostalCode: "10001", Country: "USA"},
		BankAddress:        &api.Address{StreetLine1: "383 Madison Ave", City: "New York", State: "NY", PostalCode: "10017", Country: "USA"}}
}
