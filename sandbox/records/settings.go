package records

import "encoding/json"

// An account's own settings and details of the rest of the official
// catalogue (spec/service.md §8.8).

// PaymentOption is one way a payment session's payer may pay (§8.8,
// superseding §7.4's strings): the payer's currency and method in, the
// owner's token and INTERNAL out.
type PaymentOption struct {
	InputCurrency       string `json:"inputCurrency"`
	InputPaymentMethod  string `json:"inputPaymentMethod"`
	OutputCurrency      string `json:"outputCurrency"`
	OutputPaymentMethod string `json:"outputPaymentMethod"`
}

// SessionPreferences are what an account's new payment sessions take
// when their creation leaves a field out (GET/POST
// /v2/account/payment-session/preferences).
type SessionPreferences struct {
	ExternalID          string          `json:"externalId"`
	PaymentOptions      []PaymentOption `json:"paymentOptions"`
	OutputCurrency      string          `json:"outputCurrency"`
	LinkExpirationValue int             `json:"linkExpirationValue"`
	LinkExpirationUnit  string          `json:"linkExpirationUnit"` // MINUTES, HOURS or DAYS
	Appearance          json.RawMessage `json:"appearance,omitempty"`
	UpdatedAt           Time            `json:"updatedAt"`
}

// The units of linkExpirationUnit, with their length in minutes.
var LinkExpirationUnits = map[string]int{"MINUTES": 1, "HOURS": 60, "DAYS": 24 * 60}

// Minutes is how long a session opened with these preferences lives.
func (p *SessionPreferences) Minutes() int {
	return p.LinkExpirationValue * LinkExpirationUnits[p.LinkExpirationUnit]
}

// EmailConfig is where the main account's notifications are e-mailed and
// which kinds of events are (GET/PUT /v2/notifications/email-config).
type EmailConfig struct {
	Email         string   `json:"email"`
	Subscriptions []string `json:"subscriptions"`
}

// OwnBRLAccount is an account's own Brazilian bank account: where a TED
// or PIX sent to the account lands (GET /v2/account/bank-accounts/brl).
type OwnBRLAccount struct {
	BankCode      string `json:"bankCode"`
	BankName      string `json:"bankName"`
	ISPB          string `json:"ispb"`
	BranchCode    string `json:"branchCode"`
	AccountNumber string `json:"accountNumber"`
	AccountType   string `json:"accountType"`
	HolderName    string `json:"holderName"`
	TaxID         string `json:"taxId"`
	PixKey        string `json:"pixKey"`
}
