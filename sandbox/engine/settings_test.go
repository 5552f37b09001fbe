package engine

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/tesouro-treasury/tesouro/sandbox/records"
)

// A session stored before options were objects loads with the options it
// meant: PIX pays BRL in, a chain any token it carries.
func TestLegacySessionOptions(t *testing.T) {
	got := legacyOptions([]string{"PIX", "TRON"}, "USDC")
	want := []records.PaymentOption{
		{InputCurrency: "BRL", InputPaymentMethod: "PIX", OutputCurrency: "USDC", OutputPaymentMethod: "INTERNAL"},
		{InputCurrency: "USDT", InputPaymentMethod: "TRON", OutputCurrency: "USDC", OutputPaymentMethod: "INTERNAL"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("legacy options = %+v, want %+v", got, want)
	}
	if n := len(legacyOptions([]string{"POLYGON"}, "BRLA")); n < 4 {
		t.Errorf("POLYGON carries BRLA, USDC, USDT, EURC and more; got %d options", n)
	}
	var d SessionDetail
	if err := json.Unmarshal([]byte(`{"paymentOptions":["PIX"],"outputCurrency":"BRLA"}`), &d); err == nil {
		t.Fatal("a stored name decodes as an object: the load's fallback would never run")
	}
}

func TestBankAccountCheckDigit(t *testing.T) {
	// 123456789 weighted 2,1,2,1… from the left: 2+2+6+4+(1+0)+6+(1+4)+8+(1+8)
	// = 43, so 7 brings it to a multiple of ten.
	for in, want := range map[string]string{"000000000": "0", "000000001": "8", "123456789": "7"} {
		if got := mod10(in); got != want {
			t.Errorf("mod10(%s) = %s, want %s", in, got, want)
		}
	}
}
