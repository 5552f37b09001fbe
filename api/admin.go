package api

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
)

// Team administration (spec/service.md §8.8): API keys, accesses, the TOTP
// second factor, passwords, sign-up and logout. The writes that change who
// may act (API keys, accesses) carry the current TOTP code of the acting
// access (`otp`) and need the manageAccesses permission; the service refuses
// them otherwise. None of these writes is retried by the client (no write
// is), so a code is never sent twice by it.

// Paths of the administration endpoints.
const (
	pathAPIKeys         = "/v2/auth/api-keys"
	pathAccessItem      = "/v2/auth/accesses/"          // + id
	pathAccessValidate  = "/v2/auth/accesses/validate/" // + token
	pathTOTPCreate      = "/v2/auth/mfa/totp/create"
	pathTOTPValidate    = "/v2/auth/mfa/totp/validate"
	pathTOTPRemove      = "/v2/auth/mfa/totp/remove"
	pathTOTPRemoveOK    = "/v2/auth/mfa/totp/remove/confirm"
	pathLogout          = "/v2/auth/logout"
	pathChangePassword  = "/v2/auth/change-password"
	pathForgotPassword  = "/v2/auth/forgot-password"
	pathResetPassword   = "/v2/auth/reset-password/" // + token
	pathSignUp          = "/v2/auth/create"
	pathSignUpValidate  = "/v2/auth/validate"
	pathVerifyExistence = "/v2/auth/verify-existence"
	pathSandboxOutbox   = "/v2/sandbox/outbox" // sandbox only
	keyAPIKeys          = "apiKeys"
	keyAPIKey           = "apiKey"
	keyAccess           = "access" // [decided] GET /v2/auth/accesses/{id}
	keyExists           = "exists" // [decided] POST /v2/auth/verify-existence
	keyOutbox           = "messages"
	qOTP                = "otp"
	codeOTPRequired     = "OTP_REQUIRED"
	codeInvalidOTP      = "INVALID_OTP"
	codeIPNotAllowed    = "IP_NOT_ALLOWED"
)

// APIKeyInfo is one API key as the service lists it: never the whole key,
// only its public prefix.
type APIKeyInfo struct {
	APIKey         string   `json:"apiKey"` // the prefix the service shows
	Name           string   `json:"name"`
	WhitelistedIPs []string `json:"whitelistedIPs"` // empty: any IP
	CreatedAt      Time     `json:"createdAt"`
}

// CreateAPIKeyRequest registers a public key as a new API key of the caller.
// PublicKey is PEM (RSA, Ed25519 or ECDSA P-256); the private key never
// leaves the caller.
type CreateAPIKeyRequest struct {
	OTP            string   `json:"otp"`
	Name           string   `json:"name"`
	PublicKey      string   `json:"publicKey"`
	WhitelistedIPs []string `json:"whitelistedIPs"`
}

type apiKeyAllowBody struct {
	OTP            string   `json:"otp"`
	APIKey         string   `json:"apiKey"`
	WhitelistedIPs []string `json:"whitelistedIPs"`
}

// InviteAccessRequest invites a person to the account with the given
// permission flags. The service sends them a validation token.
type InviteAccessRequest struct {
	OTP         string      `json:"otp"`
	Email       string      `json:"email"`
	Permissions Permissions `json:"permissions"`
}

type accessPatchBody struct {
	ID          string      `json:"id"`
	OTP         string      `json:"otp"`
	Permissions Permissions `json:"permissions"`
}

type passwordPairBody struct {
	Password        string `json:"password"`
	ConfirmPassword string `json:"confirmPassword"`
}

type changePasswordBody struct {
	CurrentPassword    string `json:"currentPassword"`
	NewPassword        string `json:"newPassword"`
	NewConfirmPassword string `json:"newConfirmPassword"`
}

type emailBody struct {
	Email string `json:"email"`
}

type emailTokenBody struct {
	EmailToken string `json:"emailToken"`
}

type totpValidateBody struct {
	OTP        string `json:"otp"`
	EmailToken string `json:"emailToken"`
}

type validateLoginOTPBody struct {
	Email      string `json:"email"`
	EmailToken string `json:"emailToken"`
	OTP        string `json:"otp"`
}

// TOTPSecret is a new, not yet active, TOTP second factor: the base32
// secret and the same secret as an otpauth:// URI (RFC 6238, SHA-1, 6
// digits, 30 s) for an authenticator app. It becomes active once
// ValidateTOTP proves a code from it.
type TOTPSecret struct {
	Secret string `json:"secret"`
	QRCode string `json:"qrCode"`
}

// SignUpRequest opens a new account; the service e-mails a token that
// ValidateSignUp proves.
type SignUpRequest struct {
	Email           string `json:"email"`
	Password        string `json:"password"`
	ConfirmPassword string `json:"confirmPassword"`
	AccountType     string `json:"accountType"` // INDIVIDUAL or COMPANY
}

// OutboxMessage is one e-mail the sandbox would have sent (sandbox only):
// an invitation, a login token, a password reset, a sign-up or TOTP token.
type OutboxMessage struct {
	To        string `json:"to"`
	Kind      string `json:"kind"`
	Token     string `json:"token"`
	CreatedAt Time   `json:"createdAt"`
}

// IsOTPRequired reports whether err is the service asking for the TOTP code
// of an access that has one (a login, or an administration write sent
// without it).
func IsOTPRequired(err error) bool { return hasCode(err, codeOTPRequired) }

// IsInvalidOTP reports whether err is the service refusing a TOTP code.
func IsInvalidOTP(err error) bool { return hasCode(err, codeInvalidOTP) }

// IsIPNotAllowed reports whether err is an API key used from an IP its
// allow-list does not name.
func IsIPNotAllowed(err error) bool { return hasCode(err, codeIPNotAllowed) }

func hasCode(err error, code string) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == code
}

func needOTP(what, otp string) error {
	if strings.TrimSpace(otp) == "" {
		return errors.New(what + ": the current TOTP code is required")
	}
	return nil
}

// ListAPIKeys lists the caller's API keys (prefixes only).
func (c *Client) ListAPIKeys(ctx context.Context) ([]APIKeyInfo, error) {
	return list[APIKeyInfo](ctx, c, call{method: http.MethodGet, path: pathAPIKeys}, keyAPIKeys)
}

// CreateAPIKey registers req.PublicKey as a new API key and returns the key
// id to send in X-API-Key. An empty allow-list allows any IP.
func (c *Client) CreateAPIKey(ctx context.Context, req CreateAPIKeyRequest) (string, error) {
	if err := needOTP("create API key", req.OTP); err != nil {
		return "", err
	}
	if req.Name == "" || req.PublicKey == "" {
		return "", errors.New("create API key: give a name and a public key")
	}
	if req.WhitelistedIPs == nil {
		req.WhitelistedIPs = []string{}
	}
	var key string
	if err := c.envelope(ctx, call{method: http.MethodPost, path: pathAPIKeys, body: req}, keyAPIKey, &key); err != nil {
		return "", err
	}
	if key == "" {
		return "", errors.New("create API key: the answer carried no key")
	}
	return key, nil
}

// SetAPIKeyAllowedIPs replaces the IP allow-list of one of the caller's API
// keys (the key or its listed prefix). An empty list allows any IP.
func (c *Client) SetAPIKeyAllowedIPs(ctx context.Context, otp, apiKey string, ips []string) error {
	if err := needOTP("change API key allow-list", otp); err != nil {
		return err
	}
	if apiKey == "" {
		return errors.New("change API key allow-list: empty key")
	}
	if ips == nil {
		ips = []string{}
	}
	return c.noContent(ctx, call{method: http.MethodPatch, path: pathAPIKeys, body: apiKeyAllowBody{OTP: otp, APIKey: apiKey, WhitelistedIPs: ips}})
}

// DeleteAPIKey revokes one of the caller's API keys (the key or its listed
// prefix); it stops working at once.
func (c *Client) DeleteAPIKey(ctx context.Context, apiKey, otp string) error {
	if err := needOTP("revoke API key", otp); err != nil {
		return err
	}
	if apiKey == "" {
		return errors.New("revoke API key: empty key")
	}
	return c.noContent(ctx, call{method: http.MethodDelete, path: item(pathAPIKeys+"/", apiKey), query: url.Values{qOTP: {otp}}})
}

// InviteAccess invites req.Email with req.Permissions and returns the new
// access's id. The access can act once the invited person sets a password
// with the e-mailed token (ValidateInvitation).
func (c *Client) InviteAccess(ctx context.Context, req InviteAccessRequest) (string, error) {
	if err := needOTP("invite access", req.OTP); err != nil {
		return "", err
	}
	if req.Email == "" {
		return "", errors.New("invite access: empty e-mail")
	}
	req.Permissions.ID, req.Permissions.UpdatedAt = "", ""
	var id string
	if err := c.envelope(ctx, call{method: http.MethodPost, path: pathAccesses, body: req}, keyID, &id); err != nil {
		return "", err
	}
	if id == "" {
		return "", errors.New("invite access: the answer carried no id")
	}
	return id, nil
}

// GetAccess reads one access of the account.
func (c *Client) GetAccess(ctx context.Context, id string) (*Access, error) {
	if id == "" {
		return nil, errors.New("access: empty id")
	}
	return object[Access](ctx, c, call{method: http.MethodGet, path: item(pathAccessItem, id)}, keyAccess)
}

// UpdateAccessPermissions replaces the permission flags of an access. The
// service refuses an access raising its own.
func (c *Client) UpdateAccessPermissions(ctx context.Context, id, otp string, p Permissions) error {
	if err := needOTP("update access", otp); err != nil {
		return err
	}
	if id == "" {
		return errors.New("update access: empty id")
	}
	p.ID, p.UpdatedAt = "", ""
	return c.noContent(ctx, call{method: http.MethodPatch, path: pathAccesses, body: accessPatchBody{ID: id, OTP: otp, Permissions: p}})
}

// RevokeAccess removes an access: its sessions and API keys stop at once.
func (c *Client) RevokeAccess(ctx context.Context, id, otp string) error {
	if err := needOTP("revoke access", otp); err != nil {
		return err
	}
	if id == "" {
		return errors.New("revoke access: empty id")
	}
	return c.noContent(ctx, call{method: http.MethodDelete, path: item(pathAccessItem, id), query: url.Values{qOTP: {otp}}})
}

// ValidateInvitation sets the invited person's password with the token of
// the invitation e-mail (no credentials: the person has none yet).
func (c *Client) ValidateInvitation(ctx context.Context, token, password, confirmPassword string) error {
	if token == "" || password == "" {
		return errors.New("validate invitation: give the token and a password")
	}
	return c.noContent(ctx, call{method: http.MethodPost, path: item(pathAccessValidate, token), body: passwordPairBody{Password: password, ConfirmPassword: confirmPassword}, public: true})
}

// CreateTOTP starts enrolling a TOTP second factor for the caller and e-mails
// a token that ValidateTOTP needs with a first code.
func (c *Client) CreateTOTP(ctx context.Context) (*TOTPSecret, error) {
	var s TOTPSecret
	if err := c.json(ctx, call{method: http.MethodPost, path: pathTOTPCreate}, &s); err != nil {
		return nil, err
	}
	if s.Secret == "" && s.QRCode == "" {
		return nil, errors.New("create TOTP: the answer carried no secret")
	}
	return &s, nil
}

// ValidateTOTP activates the enrolled secret with a current code and the
// e-mailed token.
func (c *Client) ValidateTOTP(ctx context.Context, otp, emailToken string) error {
	if err := needOTP("activate TOTP", otp); err != nil {
		return err
	}
	return c.noContent(ctx, call{method: http.MethodPost, path: pathTOTPValidate, body: totpValidateBody{OTP: otp, EmailToken: emailToken}})
}

// RemoveTOTP asks to remove the caller's second factor; the service e-mails
// a token that ConfirmRemoveTOTP needs.
func (c *Client) RemoveTOTP(ctx context.Context) error {
	return c.noContent(ctx, call{method: http.MethodPost, path: pathTOTPRemove})
}

// ConfirmRemoveTOTP removes the caller's second factor.
func (c *Client) ConfirmRemoveTOTP(ctx context.Context, emailToken string) error {
	if emailToken == "" {
		return errors.New("remove TOTP: empty e-mail token")
	}
	return c.noContent(ctx, call{method: http.MethodPost, path: pathTOTPRemoveOK, body: emailTokenBody{EmailToken: emailToken}})
}

// ValidateLoginOTP is ValidateLogin for an access with a TOTP second factor:
// the current code goes with the e-mailed token [decided body].
func (c *Client) ValidateLoginOTP(ctx context.Context, email, emailToken, otp string) (*Tokens, error) {
	if err := needOTP("login", otp); err != nil {
		return nil, err
	}
	var t Tokens
	cl := call{method: http.MethodPost, path: pathValidateLogin, body: validateLoginOTPBody{Email: email, EmailToken: emailToken, OTP: otp}, public: true}
	if err := c.json(ctx, cl, &t); err != nil {
		return nil, err
	}
	if t.AccessToken == "" {
		return nil, errors.New("POST " + pathValidateLogin + ": the answer carried no access token")
	}
	return &t, nil
}

// Logout ends the caller's JWT session: its refresh token (and the access
// token sent) stop working.
func (c *Client) Logout(ctx context.Context) error {
	return c.noContent(ctx, call{method: http.MethodPost, path: pathLogout})
}

// ChangePassword changes the caller's password.
func (c *Client) ChangePassword(ctx context.Context, current, newPassword, confirm string) error {
	if current == "" || newPassword == "" {
		return errors.New("change password: give the current and the new password")
	}
	return c.noContent(ctx, call{method: http.MethodPatch, path: pathChangePassword, body: changePasswordBody{CurrentPassword: current, NewPassword: newPassword, NewConfirmPassword: confirm}})
}

// ForgotPassword asks the service to e-mail a password reset token.
func (c *Client) ForgotPassword(ctx context.Context, email string) error {
	if email == "" {
		return errors.New("forgot password: empty e-mail")
	}
	return c.noContent(ctx, call{method: http.MethodPost, path: pathForgotPassword, body: emailBody{Email: email}, public: true})
}

// ResetPassword sets a new password with the e-mailed reset token.
func (c *Client) ResetPassword(ctx context.Context, token, password, confirm string) error {
	if token == "" || password == "" {
		return errors.New("reset password: give the token and a password")
	}
	return c.noContent(ctx, call{method: http.MethodPatch, path: item(pathResetPassword, token), body: passwordPairBody{Password: password, ConfirmPassword: confirm}, public: true})
}

// SignUp opens a new account; the service e-mails a token for ValidateSignUp.
func (c *Client) SignUp(ctx context.Context, req SignUpRequest) error {
	if req.Email == "" || req.Password == "" {
		return errors.New("sign up: give an e-mail and a password")
	}
	return c.noContent(ctx, call{method: http.MethodPost, path: pathSignUp, body: req, public: true})
}

// ValidateSignUp proves the sign-up e-mail with its token.
func (c *Client) ValidateSignUp(ctx context.Context, email, emailToken string) error {
	if email == "" || emailToken == "" {
		return errors.New("validate sign-up: give the e-mail and its token")
	}
	return c.noContent(ctx, call{method: http.MethodPatch, path: pathSignUpValidate, body: validateLoginBody{Email: email, EmailToken: emailToken}, public: true})
}

// VerifyExistence reports whether an account is registered under email.
func (c *Client) VerifyExistence(ctx context.Context, email string) (bool, error) {
	if email == "" {
		return false, errors.New("verify existence: empty e-mail")
	}
	var exists bool
	if err := c.envelope(ctx, call{method: http.MethodPost, path: pathVerifyExistence, body: emailBody{Email: email}, public: true}, keyExists, &exists); err != nil {
		return false, err
	}
	return exists, nil
}

// SandboxOutbox lists the e-mails the sandbox would have sent, newest first
// (sandbox only: invitation, login, reset, sign-up and TOTP tokens). It is
// the sandbox's mailbox, so it takes no credentials: the invited person has
// none yet.
func (c *Client) SandboxOutbox(ctx context.Context) ([]OutboxMessage, error) {
	return list[OutboxMessage](ctx, c, call{method: http.MethodGet, path: pathSandboxOutbox, public: true}, keyOutbox)
}
