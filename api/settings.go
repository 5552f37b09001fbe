package api

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/google/uuid"
)

// The rest of the official catalogue (service.md §8.8): the account's own
// BRL bank account, e-mail notifications, payment-session preferences, and
// level-1 KYC by import token or by the hosted web SDK.

const (
	pathOwnBRLAccount      = "/v2/account/bank-accounts/brl"
	pathEmailConfig        = "/v2/notifications/email-config"
	pathSessionPreferences = "/v2/account/payment-session/preferences"
	pathKYCImportToken     = "/v2/kyc/import-token"
	pathKYCWebSDK          = "/v2/kyc/new-level-1/web-sdk"
)

// OwnBRLAccount is the operated account's own Brazilian bank account:
// what a payer needs to send it a TED (or a PIX, to PixKey).
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

// OwnBRLAccount reads the operated account's own BRL bank details.
func (c *Client) OwnBRLAccount(ctx context.Context, subAccountID uuid.UUID) (*OwnBRLAccount, error) {
	var out OwnBRLAccount
	if err := c.json(ctx, call{method: http.MethodGet, path: pathOwnBRLAccount, query: newQuery().sub(subAccountID).values()}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Email notification kinds, as webhooks subscribe to them (§8.6).
var EmailSubscriptions = []string{"TICKET", "KYC", "LIMIT-UPDATE", "DEPOSIT", "WITHDRAW", "*"}

// EmailConfig is where the account's notifications are e-mailed, and which.
type EmailConfig struct {
	Email         string   `json:"email"`
	Subscriptions []string `json:"subscriptions"`
}

// GetEmailConfig reads the account's e-mail notification settings.
func (c *Client) GetEmailConfig(ctx context.Context) (*EmailConfig, error) {
	var out EmailConfig
	if err := c.json(ctx, call{method: http.MethodGet, path: pathEmailConfig}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// SetEmailConfig replaces the account's e-mail notification settings (an
// empty, non-nil Subscriptions e-mails nothing) and returns them as saved.
func (c *Client) SetEmailConfig(ctx context.Context, cfg EmailConfig) (*EmailConfig, error) {
	if cfg.Subscriptions == nil {
		cfg.Subscriptions = []string{}
	}
	var out EmailConfig
	if err := c.json(ctx, call{method: http.MethodPut, path: pathEmailConfig, body: cfg}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// PaymentOption is one way a payment session's payer may pay: PIX or a
// chain in, the owner's token INTERNAL out.
type PaymentOption struct {
	InputCurrency       string `json:"inputCurrency"`
	InputPaymentMethod  string `json:"inputPaymentMethod"`
	OutputCurrency      string `json:"outputCurrency"`
	OutputPaymentMethod string `json:"outputPaymentMethod"`
}

// UnmarshalJSON also reads the older form, a bare method name ("PIX",
// "POLYGON"), as an option with only its input method (and BRL for PIX).
func (o *PaymentOption) UnmarshalJSON(b []byte) error {
	var name string
	if json.Unmarshal(b, &name) == nil {
		*o = PaymentOption{InputPaymentMethod: name}
		if name == "PIX" {
			o.InputCurrency = "BRL"
		}
		return nil
	}
	type plain PaymentOption
	return json.Unmarshal(b, (*plain)(o))
}

// String is "BRL/PIX → BRLA/INTERNAL".
func (o PaymentOption) String() string {
	in := strings.Trim(o.InputCurrency+"/"+o.InputPaymentMethod, "/")
	out := strings.Trim(o.OutputCurrency+"/"+o.OutputPaymentMethod, "/")
	if out == "" {
		return in
	}
	return in + " → " + out
}

// PaymentSessionPreferences are what the account's new payment sessions
// take when their creation leaves a field out.
type PaymentSessionPreferences struct {
	ExternalID          string          `json:"externalId"`
	PaymentOptions      []PaymentOption `json:"paymentOptions"`
	OutputCurrency      string          `json:"outputCurrency"`
	LinkExpirationValue int             `json:"linkExpirationValue"`
	LinkExpirationUnit  string          `json:"linkExpirationUnit"` // MINUTES, HOURS or DAYS
	Appearance          json.RawMessage `json:"appearance,omitempty"`
}

// GetPaymentSessionPreferences reads the operated account's payment-session
// preferences (the service's defaults until some are saved).
func (c *Client) GetPaymentSessionPreferences(ctx context.Context, subAccountID uuid.UUID) (*PaymentSessionPreferences, error) {
	var out PaymentSessionPreferences
	if err := c.json(ctx, call{method: http.MethodGet, path: pathSessionPreferences, query: newQuery().sub(subAccountID).values()}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// SetPaymentSessionPreferences saves the operated account's payment-session
// preferences and returns them as saved.
func (c *Client) SetPaymentSessionPreferences(ctx context.Context, subAccountID uuid.UUID, p PaymentSessionPreferences) (*PaymentSessionPreferences, error) {
	var out PaymentSessionPreferences
	if err := c.json(ctx, call{method: http.MethodPost, path: pathSessionPreferences, query: newQuery().sub(subAccountID).values(), body: p}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// KYCImport is the answer to an imported KYC: the attempt it made.
type KYCImport struct {
	ID      string `json:"id"`
	Message string `json:"message"`
}

// ImportKYCToken makes a level-1 KYC attempt of the operated account from
// a token another verifying service issued (a credential: never logged).
func (c *Client) ImportKYCToken(ctx context.Context, subAccountID uuid.UUID, importToken string) (*KYCImport, error) {
	var out KYCImport
	body := map[string]string{"importToken": importToken}
	if err := c.json(ctx, call{method: http.MethodPost, path: pathKYCImportToken, query: newQuery().sub(subAccountID).values(), body: body}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// KYCWebSDK is a level-1 KYC attempt to be completed in the hosted flow at
// URL, which sends the person to the redirect URL once done.
type KYCWebSDK struct {
	AttemptID string `json:"attemptId"`
	URL       string `json:"url"`
}

// StartKYCWebSDK opens a level-1 KYC attempt of the operated account in
// the service's hosted flow.
func (c *Client) StartKYCWebSDK(ctx context.Context, subAccountID uuid.UUID, redirectURL string) (*KYCWebSDK, error) {
	var out KYCWebSDK
	body := map[string]string{"redirectUrl": redirectURL}
	if err := c.json(ctx, call{method: http.MethodPost, path: pathKYCWebSDK, query: newQuery().sub(subAccountID).values(), body: body}, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
