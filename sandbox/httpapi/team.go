package httpapi

import (
	"net/http"
	"strings"

	"github.com/tesouro-treasury/tesouro/sandbox/records"
)

// Team administration (spec/service.md §8.8): API keys, accesses, the TOTP
// second factor, passwords, sign-up, logout and the sandbox's outbox. The
// rules are the team room's; this is their wire.

// APIKeyView is one API key as listed: its prefix only.
type APIKeyView struct {
	APIKey         string   `json:"apiKey"`
	Name           string   `json:"name"`
	WhitelistedIPs []string `json:"whitelistedIPs"`
	CreatedAt      string   `json:"createdAt"`
}

// GET /v2/auth/api-keys: the caller's keys.
func (s *Server) listAPIKeys(c *call) error {
	out := []APIKeyView{}
	for _, k := range s.team.Keys(c.caller()) {
		out = append(out, APIKeyView{APIKey: k.APIKey, Name: k.Name, WhitelistedIPs: k.WhitelistedIPs, CreatedAt: fmtTime(k.CreatedAt)})
	}
	return c.reply(http.StatusOK, map[string]any{"apiKeys": out})
}

// POST /v2/auth/api-keys {otp, name, publicKey, whitelistedIPs} -> {apiKey}.
func (s *Server) createAPIKey(c *call) error {
	var req struct {
		OTP            string   `json:"otp"`
		Name           string   `json:"name"`
		PublicKey      string   `json:"publicKey"`
		WhitelistedIPs []string `json:"whitelistedIPs"`
	}
	if err := decodeBody(c, &req); err != nil {
		return err
	}
	key, err := s.team.CreateKey(c.caller(), req.OTP, req.Name, req.PublicKey, req.WhitelistedIPs)
	if err != nil {
		return err
	}
	return c.reply(http.StatusCreated, map[string]string{"apiKey": key})
}

// PATCH /v2/auth/api-keys {otp, apiKey, whitelistedIPs}.
func (s *Server) allowAPIKey(c *call) error {
	var req struct {
		OTP            string   `json:"otp"`
		APIKey         string   `json:"apiKey"`
		WhitelistedIPs []string `json:"whitelistedIPs"`
	}
	if err := decodeBody(c, &req); err != nil {
		return err
	}
	if err := s.team.AllowKey(c.caller(), req.OTP, req.APIKey, req.WhitelistedIPs); err != nil {
		return err
	}
	return c.reply(http.StatusOK, map[string]string{"message": "allow-list changed"})
}

// DELETE /v2/auth/api-keys/{key}?otp=.
func (s *Server) deleteAPIKey(c *call) error {
	if err := s.team.DeleteKey(c.caller(), c.query.Get("otp"), c.param("key")); err != nil {
		return err
	}
	return c.reply(http.StatusOK, map[string]string{"message": "API key revoked"})
}

// POST /v2/auth/accesses {otp, email, permissions} -> {id}.
func (s *Server) inviteAccess(c *call) error {
	var req struct {
		OTP         string               `json:"otp"`
		Email       string               `json:"email"`
		Permissions *records.Permissions `json:"permissions"`
	}
	if err := decodeBody(c, &req); err != nil {
		return err
	}
	if req.Permissions == nil {
		return badRequest(codeMissingField, "permissions: required (the flags the new access gets)")
	}
	id, err := s.team.Invite(c.caller(), req.OTP, req.Email, *req.Permissions)
	if err != nil {
		return err
	}
	return c.reply(http.StatusCreated, map[string]string{"id": id.String()})
}

// GET /v2/auth/accesses/{id} -> {access}.
func (s *Server) getAccess(c *call) error {
	a, err := s.team.Access(c.caller(), c.param("id"))
	if err != nil {
		return err
	}
	return c.reply(http.StatusOK, map[string]any{"access": accessView(a)})
}

// PATCH /v2/auth/accesses {id, otp, permissions}.
func (s *Server) updateAccess(c *call) error {
	var req struct {
		ID          string               `json:"id"`
		OTP         string               `json:"otp"`
		Permissions *records.Permissions `json:"permissions"`
	}
	if err := decodeBody(c, &req); err != nil {
		return err
	}
	if req.Permissions == nil {
		return badRequest(codeMissingField, "permissions: required (the access's new flags)")
	}
	if err := s.team.UpdatePermissions(c.caller(), req.OTP, req.ID, *req.Permissions); err != nil {
		return err
	}
	return c.reply(http.StatusOK, map[string]string{"message": "permissions changed"})
}

// DELETE /v2/auth/accesses/{id}?otp=.
func (s *Server) revokeAccess(c *call) error {
	if err := s.team.Revoke(c.caller(), c.query.Get("otp"), c.param("id")); err != nil {
		return err
	}
	return c.reply(http.StatusOK, map[string]string{"message": "access revoked"})
}

type passwordPair struct {
	Password        string `json:"password"`
	ConfirmPassword string `json:"confirmPassword"`
}

// POST /v2/auth/accesses/validate/{token} {password, confirmPassword}.
func (s *Server) validateInvitation(c *call) error {
	var req passwordPair
	if err := decodeBody(c, &req); err != nil {
		return err
	}
	if err := s.team.ValidateInvitation(c.param("token"), req.Password, req.ConfirmPassword, c.now); err != nil {
		return err
	}
	return c.reply(http.StatusOK, map[string]string{"message": "password set; log in with it"})
}

// POST /v2/auth/mfa/totp/create -> {secret, qrCode}.
func (s *Server) createTOTP(c *call) error {
	en, err := s.team.CreateTOTP(c.caller())
	if err != nil {
		return err
	}
	return c.reply(http.StatusOK, map[string]string{"secret": en.Secret, "qrCode": en.URI})
}

// POST /v2/auth/mfa/totp/validate {otp, emailToken}.
func (s *Server) validateTOTP(c *call) error {
	var req struct {
		OTP        string `json:"otp"`
		EmailToken string `json:"emailToken"`
	}
	if err := decodeBody(c, &req); err != nil {
		return err
	}
	if err := s.team.ValidateTOTP(c.caller(), req.OTP, req.EmailToken); err != nil {
		return err
	}
	return c.reply(http.StatusOK, map[string]string{"message": "TOTP second factor active"})
}

// POST /v2/auth/mfa/totp/remove.
func (s *Server) removeTOTP(c *call) error {
	if err := s.team.RemoveTOTP(c.caller()); err != nil {
		return err
	}
	return c.reply(http.StatusOK, map[string]string{"message": "a token was e-mailed to confirm the removal"})
}

// POST /v2/auth/mfa/totp/remove/confirm {emailToken}.
func (s *Server) confirmRemoveTOTP(c *call) error {
	var req struct {
		EmailToken string `json:"emailToken"`
	}
	if err := decodeBody(c, &req); err != nil {
		return err
	}
	if err := s.team.ConfirmRemoveTOTP(c.caller(), req.EmailToken); err != nil {
		return err
	}
	return c.reply(http.StatusOK, map[string]string{"message": "TOTP second factor removed"})
}

// PATCH /v2/auth/change-password {currentPassword, newPassword, newConfirmPassword}.
func (s *Server) changePassword(c *call) error {
	var req struct {
		CurrentPassword    string `json:"currentPassword"`
		NewPassword        string `json:"newPassword"`
		NewConfirmPassword string `json:"newConfirmPassword"`
	}
	if err := decodeBody(c, &req); err != nil {
		return err
	}
	if err := s.team.ChangePassword(c.caller(), req.CurrentPassword, req.NewPassword, req.NewConfirmPassword); err != nil {
		return err
	}
	return c.reply(http.StatusOK, map[string]string{"message": "password changed"})
}

// POST /v2/auth/forgot-password {email}.
func (s *Server) forgotPassword(c *call) error {
	var req struct {
		Email string `json:"email"`
	}
	if err := decodeBody(c, &req); err != nil {
		return err
	}
	if err := s.team.ForgotPassword(req.Email, c.now); err != nil {
		return err
	}
	return c.reply(http.StatusOK, map[string]string{"message": "if an access has this e-mail, a reset token was sent to it"})
}

// PATCH /v2/auth/reset-password/{token} {password, confirmPassword}.
func (s *Server) resetPassword(c *call) error {
	var req passwordPair
	if err := decodeBody(c, &req); err != nil {
		return err
	}
	if err := s.team.ResetPassword(c.param("token"), req.Password, req.ConfirmPassword, c.now); err != nil {
		return err
	}
	return c.reply(http.StatusOK, map[string]string{"message": "password reset; log in with it"})
}

// POST /v2/auth/create {email, password, confirmPassword, accountType}.
func (s *Server) signUp(c *call) error {
	var req struct {
		Email           string `json:"email"`
		Password        string `json:"password"`
		ConfirmPassword string `json:"confirmPassword"`
		AccountType     string `json:"accountType"`
	}
	if err := decodeBody(c, &req); err != nil {
		return err
	}
	if err := s.team.SignUp(req.Email, req.Password, req.ConfirmPassword, req.AccountType, c.now); err != nil {
		return err
	}
	return c.reply(http.StatusCreated, map[string]string{"message": "a token was e-mailed to validate the address"})
}

// PATCH /v2/auth/validate {email, emailToken}.
func (s *Server) validateSignUp(c *call) error {
	var req struct {
		Email      string `json:"email"`
		EmailToken string `json:"emailToken"`
	}
	if err := decodeBody(c, &req); err != nil {
		return err
	}
	if err := s.team.ValidateSignUp(req.Email, req.EmailToken); err != nil {
		return err
	}
	return c.reply(http.StatusOK, map[string]string{"message": "e-mail validated"})
}

// POST /v2/auth/verify-existence {email} -> {exists}.
func (s *Server) verifyExistence(c *call) error {
	var req struct {
		Email string `json:"email"`
	}
	if err := decodeBody(c, &req); err != nil {
		return err
	}
	ok, err := s.team.Exists(req.Email)
	if err != nil {
		return err
	}
	return c.reply(http.StatusOK, map[string]bool{"exists": ok})
}

// OutboxMail is one e-mail of the sandbox's outbox.
type OutboxMail struct {
	To        string `json:"to"`
	Kind      string `json:"kind"`
	Token     string `json:"token"`
	CreatedAt string `json:"createdAt"`
}

// GET /v2/sandbox/outbox: what the sandbox would have e-mailed, newest
// first (sandbox only; its mailbox, so no credentials).
func (s *Server) outbox(c *call) error {
	to := strings.ToLower(strings.TrimSpace(c.query.Get("to")))
	out := []OutboxMail{}
	for _, m := range s.team.Outbox() {
		if to == "" || strings.EqualFold(m.To, to) {
			out = append(out, OutboxMail{To: m.To, Kind: m.Kind, Token: m.Token, CreatedAt: fmtTime(m.CreatedAt)})
		}
	}
	return c.reply(http.StatusOK, map[string]any{"messages": out})
}

// POST /v2/auth/logout: ends the caller's JWT session; its refresh token
// and access token stop.
func (s *Server) logout(c *call) error {
	if c.sid == "" {
		return badRequest(codeInvalidRequest, "logout ends a JWT session; this request is signed with an API key (revoke a key with DELETE /v2/auth/api-keys/{key})")
	}
	s.logins.endSession(c.sid, c.now)
	return c.reply(http.StatusOK, map[string]string{"message": "logged out"})
}
