package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/big"
	"slices"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/sandbox/records"
)

// The rest of the official catalogue (spec/service.md §8.8): an account's
// own BRL bank account, its e-mail notifications, its payment-session
// preferences, and the two other ways into a level-1 KYC (an import token,
// the hosted web SDK).

// accountSettings are an account's settings, stored as its "settings"
// records; nil until first set.
type accountSettings struct {
	Email       *records.EmailConfig        `json:"email,omitempty"`
	Preferences *records.SessionPreferences `json:"preferences,omitempty"`
	// ImportTokens are the SHA-256 of the KYC import tokens used: one
	// token imports once (the token itself is a credential, never kept).
	ImportTokens []string `json:"importTokens,omitempty"`
}

// The sandbox's settlement bank: every account's own BRL account is held
// there [decided: demo data].
const (
	ownBankCode = "341"
	ownBankName = "Itaú Unibanco S.A."
	ownBankISPB = "60701190"
)

// CodeIdentityRequired refuses what needs the account's identity confirmed.
const CodeIdentityRequired = "IDENTITY_NOT_CONFIRMED"

// CodeImportTokenUsed refuses a KYC import token imported before.
const CodeImportTokenUsed = "IMPORT_TOKEN_USED"

// ownBRLAccount is where a TED or PIX to acct lands: branch and account
// number derived from the account's id (the same for the same account,
// whatever the seed's other data), held in the name and tax id of the
// account's confirmed identity. The caller holds e.mu.
func ownBRLAccount(acct *Account) (records.OwnBRLAccount, error) {
	id := identity(acct)
	if id.Status != IdentityConfirmed || id.TaxID == "" {
		return records.OwnBRLAccount{}, conflict(CodeIdentityRequired,
			"account %s has no confirmed identity with a tax id; its bank account opens once a level-1 KYC is approved (POST /v2/kyc/new-level-1/api)", acct.ID)
	}
	sum := sha256.Sum256(acct.ID[:])
	n := new(big.Int).SetBytes(sum[:8])
	digits := fmt.Sprintf("%020d", n)
	branch := "0" + digits[0:3]
	number := digits[3:8]
	return records.OwnBRLAccount{
		BankCode: ownBankCode, BankName: ownBankName, ISPB: ownBankISPB,
		BranchCode: branch, AccountNumber: number + "-" + mod10(branch+number), AccountType: "checking",
		HolderName: id.FullName, TaxID: id.TaxID, PixKey: acct.PixKey,
	}, nil
}

// mod10 is the check digit of a branch and account number: digits
// weighted 2,1,2,1… from the left, the digits of each product summed.
func mod10(s string) string {
	sum := 0
	for i, r := range s {
		p := int(r-'0') * (2 - i%2)
		sum += p/10 + p%10
	}
	return fmt.Sprint((10 - sum%10) % 10)
}

// OwnBRLAccount is the operated account's own BRL bank account.
func (e *Engine) OwnBRLAccount(c Caller) (records.OwnBRLAccount, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	acct, err := e.scope(c)
	if err != nil {
		return records.OwnBRLAccount{}, err
	}
	return ownBRLAccount(acct)
}

// EmailSubscriptions are the kinds of events that may be e-mailed (§8.6).
var EmailSubscriptions = []string{"TICKET", "KYC", "LIMIT-UPDATE", "DEPOSIT", "WITHDRAW", "*"}

// EmailConfig is the main account's e-mail notification settings: none
// e-mailed until set.
func (e *Engine) EmailConfig(c Caller) (records.EmailConfig, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	if err := c.Access.Reaches(e.st.main); err != nil {
		return records.EmailConfig{}, err
	}
	if cfg := e.st.main.settings.Email; cfg != nil {
		return records.EmailConfig{Email: cfg.Email, Subscriptions: slices.Clone(cfg.Subscriptions)}, nil
	}
	return records.EmailConfig{Subscriptions: []string{}}, nil
}

// SetEmailConfig replaces the main account's e-mail notification settings
// (checked by the caller). Like webhooks, they say where the account's
// events go: the manageWebhooks permission [decided].
func (e *Engine) SetEmailConfig(c Caller, cfg records.EmailConfig) error {
	if err := c.Access.MayManageWebhooks(c.Now); err != nil {
		return err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := c.Access.Reaches(e.st.main); err != nil {
		return err
	}
	cfg.Subscriptions = slices.Clone(cfg.Subscriptions)
	e.st.main.settings.Email = &cfg
	e.changed(e.st.main)
	return nil
}

// SessionPreferences are the operated account's payment-session
// preferences; ok is false until some are saved.
func (e *Engine) SessionPreferences(c Caller) (p records.SessionPreferences, ok bool, err error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	acct, err := e.scope(c)
	if err != nil {
		return p, false, err
	}
	if acct.settings.Preferences == nil {
		return p, false, nil
	}
	p = *acct.settings.Preferences
	p.PaymentOptions = slices.Clone(p.PaymentOptions)
	return p, true, nil
}

// SetSessionPreferences saves the operated account's payment-session
// preferences (checked by the caller). They shape the sessions the account
// opens, which only an access that may take money in may open: payIn.
func (e *Engine) SetSessionPreferences(c Caller, p records.SessionPreferences) error {
	if err := c.writable(); err != nil {
		return err
	}
	if err := c.Access.MayTakeMoneyIn(); err != nil {
		return err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	acct, err := e.scope(c)
	if err != nil {
		return err
	}
	p.PaymentOptions = slices.Clone(p.PaymentOptions)
	p.UpdatedAt = records.NewTime(c.Now)
	acct.settings.Preferences = &p
	e.changed(acct)
	return nil
}

// ImportKYC records a level-1 KYC attempt of the operated account from an
// import token (a verification made at another service, shared with this
// one). The sandbox takes any token once: the attempt completes approved;
// a token imported before is 409.
func (e *Engine) ImportKYC(c Caller, token string) (uuid.UUID, error) {
	if err := c.writable(); err != nil {
		return uuid.Nil, err
	}
	sum := sha256.Sum256([]byte(token))
	h := hex.EncodeToString(sum[:])
	e.mu.Lock()
	defer e.mu.Unlock()
	acct, err := e.scope(c)
	if err != nil {
		return uuid.Nil, err
	}
	for _, a := range e.st.accounts {
		if slices.Contains(a.settings.ImportTokens, h) {
			return uuid.Nil, conflict(CodeImportTokenUsed, "importToken: this token was imported before; ask the service that issued it for a new one")
		}
	}
	id := e.newID()
	k := &records.KYCAttempt{ID: id, LevelName: "level-1", SubmissionData: map[string]any{"source": "import-token"},
		Status: "COMPLETED", Result: "APPROVED", CreatedAt: records.NewTime(c.Now), UpdatedAt: records.NewTime(c.Now)}
	acct.kyc.add(c.Now, id, k)
	acct.settings.ImportTokens = append(acct.settings.ImportTokens, h)
	e.changed(acct)
	e.insertEvent(acct, &Event{ID: e.newID(), Subscription: "KYC", Status: "KYC-COMPLETED", DataID: id.String(), CreatedAt: c.Now})
	return id, nil
}

// StartWebSDK opens a level-1 KYC attempt of the operated account to be
// completed in the hosted web SDK: PENDING until its page is visited
// (CompleteWebSDK), which then sends the person to redirectURL.
func (e *Engine) StartWebSDK(c Caller, redirectURL string) (uuid.UUID, error) {
	if err := c.writable(); err != nil {
		return uuid.Nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	acct, err := e.scope(c)
	if err != nil {
		return uuid.Nil, err
	}
	id := e.newID()
	k := &records.KYCAttempt{ID: id, LevelName: "level-1", SubmissionData: map[string]any{"source": "web-sdk", "redirectUrl": redirectURL},
		Status: "PENDING", CreatedAt: records.NewTime(c.Now), UpdatedAt: records.NewTime(c.Now)}
	acct.kyc.add(c.Now, id, k)
	e.changed(acct)
	return id, nil
}

// CompleteWebSDK completes the web-SDK attempt id, as the person finishing
// the hosted flow does (approved), and answers where to send them. An
// attempt already completed is answered again without change.
func (e *Engine) CompleteWebSDK(c Caller, id uuid.UUID) (string, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, acct := range e.st.accounts {
		k, ok := acct.kyc.get(id)
		if !ok || k.SubmissionData["source"] != "web-sdk" {
			continue
		}
		redirect, _ := k.SubmissionData["redirectUrl"].(string)
		if k.Status == "PENDING" {
			k.Status, k.Result, k.UpdatedAt = "COMPLETED", "APPROVED", records.NewTime(c.Now)
			e.changed(acct)
			e.insertEvent(acct, &Event{ID: e.newID(), Subscription: "KYC", Status: "KYC-COMPLETED", DataID: id.String(), CreatedAt: c.Now})
		}
		return redirect, nil
	}
	return "", notFound("web-SDK attempt", id)
}

// legacyOptions reads a payment session's options as they were stored
// before options were objects: "PIX" pays BRL in, a chain any token of
// it, each into the session's output token.
func legacyOptions(methods []string, out string) []records.PaymentOption {
	var opts []records.PaymentOption
	for _, m := range methods {
		if m == "PIX" {
			opts = append(opts, records.PaymentOption{InputCurrency: "BRL", InputPaymentMethod: "PIX", OutputCurrency: out, OutputPaymentMethod: "INTERNAL"})
			continue
		}
		for _, cur := range money.Currencies() {
			if money.IsToken(cur) && money.SupportsMethod(cur, m) {
				opts = append(opts, records.PaymentOption{InputCurrency: cur, InputPaymentMethod: m, OutputCurrency: out, OutputPaymentMethod: "INTERNAL"})
			}
		}
	}
	return opts
}
