package sandbox

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/brcode"
	"github.com/tesouro-treasury/tesouro/sandbox/store"
	"github.com/tesouro-treasury/tesouro/validate"
)

// The endpoints of spec/service.md §7.4 that live clients call and the
// seed left out: account-info, a sub-account's detail, the static BR Code,
// EUR and ARS beneficiaries, webhook events and edits, documents and KYC
// attempts.

func (s *Server) routeLive(r *router) {
	get, post, patch := http.MethodGet, http.MethodPost, http.MethodPatch
	r.handle(get, "/v2/account/account-info", authAccess, s.accountDetails)
	r.handle(get, "/v2/account/statement", authAccess, s.statement)
	r.handle(get, "/v2/account/sub-accounts/{id}", authAccess, s.getSubAccount)
	r.handle(get, "/v2/account/bank-accounts/brl/static-br-code", authAccess, s.staticBrCode)
	r.handle(get, "/v2/account/beneficiaries/bank-accounts/eur", authAccess, s.listEUR)
	r.handle(post, "/v2/account/beneficiaries/bank-accounts/eur", authAccess, s.createEUR)
	r.handle(get, "/v2/account/beneficiaries/bank-accounts/eur/{id}", authAccess, s.getEUR)
	r.handle(get, "/v2/account/beneficiaries/bank-accounts/ars", authAccess, s.listARS)
	r.handle(post, "/v2/account/beneficiaries/bank-accounts/ars", authAccess, s.createARS)
	r.handle(get, "/v2/account/beneficiaries/bank-accounts/ars/{id}", authAccess, s.getARS)
	r.handle(get, "/v2/notifications/webhooks/events", authAccess, s.listEvents)
	r.handle(get, "/v2/notifications/webhooks/events/{id}", authAccess, s.getEvent)
	r.handle(get, "/v2/notifications/webhooks/{id}", authAccess, s.getWebhook)
	r.handle(patch, "/v2/notifications/webhooks", authAccess, s.updateWebhook)
	r.handle(post, "/v2/documents", authAccess, s.createDocument)
	r.handle(get, "/v2/documents", authAccess, s.listDocuments)
	r.handle(get, "/v2/documents/{id}", authAccess, s.getDocument)
	r.handle(post, "/v2/kyc/new-level-1/api", authAccess, s.submitKYCLevel1)
	r.handle(get, "/v2/kyc/attempts", authAccess, s.listKYCAttempts)
	r.handle(get, "/v2/kyc/attempts/{id}", authAccess, s.getKYCAttempt)
	r.handle(get, "/v2/kyc/w8ben/{id}", authAccess, s.getW8BEN)
}

// identity is the full accountInfo of an account: demo accounts are
// verified; a new sub-account is until a KYC attempt is approved.
func identity(a *account) AccountInfo {
	info := AccountInfo{
		ID: a.ID, AccountType: a.Type, Name: a.Name, CountryTaxResidence: "BRA", CountrySubdivisionTaxResidence: "BR-SP",
		IdentityStatus: IdentityNotIdentified, FullName: a.Name, TaxID: a.TaxID,
	}
	if a.TaxID != "" {
		info.IdentityStatus = IdentityConfirmed
	}
	for _, k := range a.kyc.all() {
		if k.Result == "APPROVED" {
			info.IdentityStatus = IdentityConfirmed
			if name, ok := k.SubmissionData["fullName"].(string); ok {
				info.FullName = name
			}
			if b, ok := k.SubmissionData["dateOfBirth"].(string); ok {
				info.Birthdate = b
			}
			if t, ok := k.SubmissionData["taxIdNumber"].(string); ok && info.TaxID == "" {
				info.TaxID = t
			}
		}
	}
	return info
}

// staticCode is the BR Code paying the account's PIX key.
func staticCode(a *account, amount decimal.Decimal, label string) (string, error) {
	return brcode.Encode(brcode.Payload{Key: a.PixKey, Amount: amount, MerchantName: merchantName(a.Name), MerchantCity: "SAO PAULO", TxID: label})
}

// GET /v2/account/account-info
func (s *Server) accountDetails(c *call) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	a, err := c.scope()
	if err != nil {
		return err
	}
	code, err := staticCode(a, decimal.Zero, "")
	if err != nil {
		return fmt.Errorf("static BR Code of %s: %w", a.ID, err)
	}
	return c.reply(http.StatusOK, AccountDetails{
		ID: a.ID, AccountInfo: identity(a), PixKey: a.PixKey, BrCode: code, CreatedAt: NewTime(a.CreatedAt),
		// One service wallet serves every EVM chain.
		Wallets: []AccountWallet{{ID: uuid.NewSHA1(a.ID, []byte("wallet")).String(), WalletAddress: a.Wallet, Chain: "EVM"}},
	})
}

// GET /v2/account/sub-accounts/{id}
func (s *Server) getSubAccount(c *call) error {
	id, err := c.pathUUID("id")
	if err != nil {
		return err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	a, ok := s.st.accounts[id]
	if !ok || a.Main || c.who.Blacklisted[a.ID] {
		return notFound("sub-account", id)
	}
	v := subAccountView(a)
	v.AccountInfo = identity(a)
	return c.reply(http.StatusOK, v)
}

// GET /v2/account/bank-accounts/brl/static-br-code?amount&referenceLabel&additionalData
func (s *Server) staticBrCode(c *call) error {
	amount := decimal.Zero
	if raw := c.query.Get("amount"); raw != "" {
		d, err := parseWireAmount("amount", raw, "BRL")
		if err != nil {
			return err
		}
		amount = d
	}
	label := c.query.Get("referenceLabel")
	if len(label) > 25 || strings.ContainsFunc(label, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) {
		return badRequest(codeInvalidField, "referenceLabel: at most 25 letters and digits")
	}
	if len(c.query.Get("additionalData")) > 72 {
		return badRequest(codeInvalidField, "additionalData: at most 72 characters")
	}
	s.mu.RLock()
	a, err := c.scope()
	s.mu.RUnlock()
	if err != nil {
		return err
	}
	code, err := staticCode(a, amount, label)
	if err != nil {
		return badRequest(codeInvalidField, "referenceLabel: %v", err)
	}
	return c.reply(http.StatusOK, map[string]string{"brCode": code})
}

var (
	eurKind = &beneficiaryKind[EURAccount]{
		of:    func(a *account) *series[EURAccount] { return a.eur },
		alias: func(v *EURAccount) string { return v.Alias },
		what:  "EUR beneficiary", one: "beneficiaryEurBankAccount", many: "beneficiaryEurBankAccount",
	}
	arsKind = &beneficiaryKind[ARSAccount]{
		of:    func(a *account) *series[ARSAccount] { return a.ars },
		alias: func(v *ARSAccount) string { return v.Alias },
		what:  "ARS beneficiary", one: "beneficiaryArsBankAccount", many: "beneficiaryArsBankAccount",
	}
)

// POST /v2/account/beneficiaries/bank-accounts/eur/
func (s *Server) createEUR(c *call) error {
	var req CreateEURAccountRequest
	if err := decodeBeneficiary(c, &req, &req.Alias, &req.Description); err != nil {
		return err
	}
	iban, err := validate.IBAN(req.IBAN)
	if err != nil {
		return fieldErr("iban", err)
	}
	bic := ""
	if req.BIC != "" {
		if bic, err = validate.BIC(req.BIC); err != nil {
			return fieldErr("bic", err)
		}
	}
	country, err := validate.CountryAlpha3(req.Country)
	if err != nil {
		return fieldErr("country", err)
	}
	if err := validate.Required(req.BankBeneficiaryName); err != nil {
		return fieldErr("bankBeneficiaryName", err)
	}
	return eurKind.add(s, c, req.Alias, func(_ *account, id uuid.UUID) *EURAccount {
		return &EURAccount{ID: id, Alias: req.Alias, Description: req.Description, IBAN: iban, BIC: bic, Country: country,
			BankBeneficiaryName: strings.TrimSpace(req.BankBeneficiaryName), IsBusiness: req.IsBusiness, CreatedAt: NewTime(c.now)}
	})
}

func (s *Server) listEUR(c *call) error { return eurKind.listByAlias(s, c) }
func (s *Server) getEUR(c *call) error  { return eurKind.get(s, c) }

// POST /v2/account/beneficiaries/bank-accounts/ars/
func (s *Server) createARS(c *call) error {
	var req CreateARSAccountRequest
	if err := decodeBeneficiary(c, &req, &req.Alias, &req.Description); err != nil {
		return err
	}
	cvu, err := validate.CVU(req.CVU)
	if err != nil {
		return fieldErr("cvu", err)
	}
	return arsKind.add(s, c, req.Alias, func(_ *account, id uuid.UUID) *ARSAccount {
		return &ARSAccount{ID: id, Alias: req.Alias, Description: req.Description, CVU: cvu, CreatedAt: NewTime(c.now)}
	})
}

func (s *Server) listARS(c *call) error { return arsKind.listByAlias(s, c) }
func (s *Server) getARS(c *call) error  { return arsKind.get(s, c) }

// eventView is the wire form of a stored event.
func eventView(acct *account, e store.EventRow) WebhookEvent {
	data := map[string]any{"status": e.Status}
	switch e.Subscription {
	case "TICKET":
		data["ticketId"] = e.DataID
	case "KYC":
		data["attemptId"] = e.DataID
	default:
		data["id"] = e.DataID
	}
	return WebhookEvent{ID: e.ID.String(), Subscription: e.Subscription, SubAccountID: acct.subAccountID(), Data: data, CreatedAt: NewTime(e.CreatedAt)}
}

// GET /v2/notifications/webhooks/events: every recorded event of the
// operated account, newest first, from the events table.
func (s *Server) listEvents(c *call) error {
	w, err := c.createdWindow(c.queryTimeEither)
	if err != nil {
		return err
	}
	f := store.EventFilter{Subscription: c.query.Get("subscription"), DataID: c.query.Get("dataId"), From: w.from, To: w.to}
	s.mu.RLock()
	defer s.mu.RUnlock()
	acct, err := c.scope()
	if err != nil {
		return err
	}
	var after *store.Key
	if cur := c.query.Get("cursor"); cur != "" {
		at, id, err := decodeCursor(cur)
		if err != nil {
			return err
		}
		after = &store.Key{At: at, ID: id}
	}
	rows, more, err := s.db.Events(acct.ID, f, after, pageSize)
	if err != nil {
		return err
	}
	out, next := []WebhookEvent{}, ""
	for _, e := range rows {
		out = append(out, eventView(acct, e))
	}
	if more != nil {
		next = encodeCursor(more.At, more.ID)
	}
	return c.reply(http.StatusOK, map[string]any{"events": out, "cursor": next})
}

// GET /v2/notifications/webhooks/events/{id}
func (s *Server) getEvent(c *call) error {
	id, err := c.pathUUID("id")
	if err != nil {
		return err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	acct, err := c.scope()
	if err != nil {
		return err
	}
	e, err := s.db.Event(acct.ID, id)
	if err != nil {
		return notFound("webhook event", id)
	}
	return c.reply(http.StatusOK, map[string]any{"event": eventView(acct, e)})
}

// GET /v2/notifications/webhooks/{id}
func (s *Server) getWebhook(c *call) error {
	id, err := c.pathUUID("id")
	if err != nil {
		return err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	acct, err := c.scope()
	if err != nil {
		return err
	}
	for _, w := range acct.webhooks {
		if w.ID == id {
			return c.reply(http.StatusOK, map[string]any{"webhook": w.view()})
		}
	}
	return notFound("webhook", id)
}

// PATCH /v2/notifications/webhooks {webhookId, webhookUrl, subscriptions}
func (s *Server) updateWebhook(c *call) error {
	var req UpdateWebhookRequest
	if err := decodeBody(c, &req); err != nil {
		return err
	}
	if err := c.writable(); err != nil {
		return err
	}
	id, err := bodyUUID("webhookId", req.WebhookID)
	if err != nil {
		return err
	}
	u, err := checkWebhook(req.WebhookURL, req.Subscriptions)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	acct, err := c.scope()
	if err != nil {
		return err
	}
	for _, w := range acct.webhooks {
		if w.ID == id {
			w.URL, w.Subscriptions = u.String(), slices.Clone(req.Subscriptions)
			s.changed(acct)
			return c.reply(http.StatusOK, map[string]any{"webhook": w.view()})
		}
	}
	return notFound("webhook", id)
}

var documentTypes = []string{"ID", "DRIVERS-LICENSE", "PASSPORT", "SELFIE", "SELFIE-FROM-LIVENESS", "RESIDENCE-PERMIT", "CERTIFICATE-OF-INCORPORATION", "COMPANY-TAX-IDENTIFICATION-DOCUMENT"}

// POST /v2/documents/ {documentType, isDoubleSided}: a record and its
// upload URLs. The sandbox takes the upload as done at once (ready).
func (s *Server) createDocument(c *call) error {
	var req CreateDocumentRequest
	if err := decodeBody(c, &req); err != nil {
		return err
	}
	if err := c.writable(); err != nil {
		return err
	}
	if !slices.Contains(documentTypes, req.DocumentType) {
		return badRequest(codeInvalidField, "documentType: must be one of %s, got %q", strings.Join(documentTypes, ", "), truncate(req.DocumentType, 30))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	acct, err := c.scope()
	if err != nil {
		return err
	}
	id := s.newID()
	base := "https://uploads.sandbox.invalid/documents/" + id.String()
	d := &Document{ID: id, DocumentType: req.DocumentType, UploadStatusFront: "UPLOADED", UploadURLFront: base + "/front",
		Ready: true, CreatedAt: NewTime(c.now), UpdatedAt: NewTime(c.now)}
	out := DocumentUpload{ID: id.String(), UploadURLFront: d.UploadURLFront}
	if req.IsDoubleSided {
		d.UploadStatusBack, d.UploadURLBack, out.UploadURLBack = "UPLOADED", base+"/back", base+"/back"
	}
	acct.documents.add(c.now, id, d)
	s.changed(acct)
	return c.reply(http.StatusCreated, out)
}

// GET /v2/documents/?documentType
func (s *Server) listDocuments(c *call) error {
	w, err := c.createdWindow(c.queryTimeEither)
	if err != nil {
		return err
	}
	kind := c.query.Get("documentType")
	return listPage(s, c, "documents", w, func(a *account) *series[Document] { return a.documents },
		func(d *Document) bool { return kind == "" || d.DocumentType == kind }, deref[Document])
}

// GET /v2/documents/{id}
func (s *Server) getDocument(c *call) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	_, _, d, err := recordByID(c, func(a *account) *series[Document] { return a.documents }, "document")
	if err != nil {
		return err
	}
	return c.reply(http.StatusOK, map[string]any{"document": d})
}

// POST /v2/kyc/new-level-1/api: a level-1 attempt for the account named by
// subAccountId (body or query). It completes at once: APPROVED when the
// documents it names exist and the tax id is valid, REJECTED otherwise
// (sandboxReject forces a rejection).
func (s *Server) submitKYCLevel1(c *call) error {
	var req map[string]any
	if err := decodeBody(c, &req); err != nil {
		return err
	}
	if err := c.writable(); err != nil {
		return err
	}
	str := func(k string) string { v, _ := req[k].(string); return strings.TrimSpace(v) }
	for _, k := range []string{"fullName", "dateOfBirth", "countryOfTaxId", "taxIdNumber", "uploadedDocumentId"} {
		if str(k) == "" {
			return badRequest(codeMissingField, "%s: required", k)
		}
	}
	if _, err := time.Parse("2006-01-02", str("dateOfBirth")); err != nil {
		return badRequest(codeInvalidField, "dateOfBirth: %q is not YYYY-MM-DD", truncate(str("dateOfBirth"), 20))
	}
	if sub := str("subAccountId"); sub != "" && c.query.Get("subAccountId") == "" {
		c.query.Set("subAccountId", sub)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	acct, err := c.scope()
	if err != nil {
		return err
	}
	result, msg := "APPROVED", ""
	for _, k := range []string{"uploadedDocumentId", "uploadedSelfieId"} {
		if id := str(k); id != "" {
			did, err := uuid.Parse(id)
			if _, ok := acct.documents.get(did); err != nil || !ok {
				result, msg = "REJECTED", k+" names no document of this account"
			}
		}
	}
	if str("countryOfTaxId") == "BRA" {
		if _, _, err := validate.TaxID(str("taxIdNumber")); err != nil {
			result, msg = "REJECTED", "taxIdNumber: "+err.Error()
		}
	}
	if b, _ := req["sandboxReject"].(bool); b {
		result, msg = "REJECTED", "rejected on request (sandboxReject)"
	}
	id := s.newID()
	delete(req, "subAccountId")
	k := &KYCAttempt{ID: id, LevelName: "level-1", SubmissionData: req, Status: "COMPLETED", Result: result, ResultMessage: msg,
		Retryable: result == "REJECTED", CreatedAt: NewTime(c.now), UpdatedAt: NewTime(c.now)}
	acct.kyc.add(c.now, id, k)
	s.changed(acct)
	ev := &event{ID: s.newID(), Subscription: "KYC", Status: "KYC-COMPLETED", DataID: id, CreatedAt: c.now}
	s.insertEvent(acct, ev)
	return c.reply(http.StatusOK, map[string]string{"id": id.String()})
}

// GET /v2/kyc/attempts/?levelName&status&result
func (s *Server) listKYCAttempts(c *call) error {
	w, err := c.createdWindow(c.queryTimeEither)
	if err != nil {
		return err
	}
	level, status, result := c.query.Get("levelName"), c.query.Get("status"), c.query.Get("result")
	return listPage(s, c, "attempts", w, func(a *account) *series[KYCAttempt] { return a.kyc }, func(k *KYCAttempt) bool {
		return (level == "" || k.LevelName == level) && (status == "" || k.Status == status) && (result == "" || k.Result == result)
	}, deref[KYCAttempt])
}

// GET /v2/kyc/attempts/{id}
func (s *Server) getKYCAttempt(c *call) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	_, _, k, err := recordByID(c, func(a *account) *series[KYCAttempt] { return a.kyc }, "KYC attempt")
	if err != nil {
		return err
	}
	return c.reply(http.StatusOK, map[string]any{"attempt": k})
}

// bothSpellings fills an address's two spellings from whichever was sent
// ({streetLine1, streetLine2, postalCode} and the older {streetAddress,
// zipCode}), so that nothing sent is dropped and both kinds of client
// read it back. Both sent and different is a 400.
func bothSpellings(field string, a *Address) error {
	if a == nil {
		return nil
	}
	lines := strings.TrimSpace(strings.Join([]string{a.StreetLine1, a.StreetLine2}, " "))
	switch {
	case a.StreetAddress == "":
		a.StreetAddress = lines
	case a.StreetLine1 == "" && a.StreetLine2 == "":
		a.StreetLine1 = a.StreetAddress
	case a.StreetAddress != lines && a.StreetAddress != a.StreetLine1:
		return badRequest(codeInvalidField, "%s.streetAddress: %q differs from streetLine1/streetLine2; send one spelling", field, truncate(a.StreetAddress, 40))
	}
	switch {
	case a.ZipCode == "":
		a.ZipCode = a.PostalCode
	case a.PostalCode == "":
		a.PostalCode = a.ZipCode
	case a.ZipCode != a.PostalCode:
		return badRequest(codeInvalidField, "%s.zipCode: %q differs from postalCode %q; send one spelling", field, truncate(a.ZipCode, 20), truncate(a.PostalCode, 20))
	}
	if len(a.StreetAddress) > 200 {
		return badRequest(codeInvalidField, "%s.streetAddress: at most 200 characters", field)
	}
	return nil
}

// GET /v2/kyc/w8ben/{id}
func (s *Server) getW8BEN(c *call) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	_, _, w, err := recordByID(c, func(a *account) *series[W8BEN] { return a.w8bens }, "W-8BEN")
	if err != nil {
		return err
	}
	v := *w
	v.W8BenURL = c.absoluteURL(v.W8BenURL)
	return c.reply(http.StatusOK, map[string]any{"w8ben": v})
}

// GET /v2/account/statement?createdAfter&createdBefore&cursor: the ledger
// of the operated account, newest first: every balance change with the
// balance it left (spec/service.md §7.4). The cursor is the last id shown.
func (s *Server) statement(c *call) error {
	w, err := c.createdWindow(c.queryTimeEither)
	if err != nil {
		return err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	acct, err := c.scope()
	if err != nil {
		return err
	}
	var before int64
	if cur := c.query.Get("cursor"); cur != "" {
		n, err := strconvAtoi64(cur)
		if err != nil || n <= 0 {
			return badRequest(codeInvalidCursor, "cursor %q is not one this service returned; start again without a cursor", truncate(cur, 40))
		}
		before = n
	}
	lines, more, err := s.db.Statement(acct.ID, w.from, w.to, before, pageSize)
	if err != nil {
		return err
	}
	type logLine struct {
		ID            string `json:"id"`
		Token         string `json:"token"`
		BalanceChange string `json:"balanceChange"`
		FinalBalance  string `json:"finalBalance"`
		Description   string `json:"description"`
		TicketID      string `json:"ticketId,omitempty"`
		CreatedAt     string `json:"createdAt"`
	}
	out, next := []logLine{}, ""
	for _, l := range lines {
		side := "[CREDIT]"
		if strings.HasPrefix(l.Amount, "-") {
			side = "[DEBIT]"
		}
		out = append(out, logLine{ID: fmt.Sprint(l.ID), Token: l.Currency, BalanceChange: l.Amount, FinalBalance: l.BalanceAfter,
			Description: side + " " + l.Reason, TicketID: l.TicketID, CreatedAt: fmtTime(l.At)})
	}
	if more {
		next = out[len(out)-1].ID
	}
	return c.reply(http.StatusOK, map[string]any{"logs": out, "cursor": next})
}

func strconvAtoi64(s string) (int64, error) {
	var n int64
	_, err := fmt.Sscan(s, &n)
	if err != nil || fmt.Sprint(n) != s {
		return 0, fmt.Errorf("not an integer")
	}
	return n, nil
}
