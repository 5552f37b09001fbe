package api

import (
	"context"
	"testing"
)

// adminEndpointCases are the team-administration endpoints of
// spec/service.md §8.8, appended to endpointCases.
func adminEndpointCases() []endpointCase {
	checkNil := func(t *testing.T, got any) {}
	checkString := func(want string) func(t *testing.T, got any) {
		return func(t *testing.T, got any) {
			if got != want {
				t.Errorf("got %v, want %s", got, want)
			}
		}
	}
	perms := Permissions{PayIn: true, ID: "dropped", UpdatedAt: "dropped"}
	permsJSON := `{"admin":false,"payIn":true,"payOut":false,"convert":false,"onChain":false,"viewOnly":false,"markup":false,"beneficiary":false,"enforceAllowedBeneficiaries":false,"operationRequester":false,"operationApprover":false,"manageWebhooks":false,"manageAccesses":false}`
	return []endpointCase{
		{
			name:   "ListAPIKeys",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.ListAPIKeys(ctx) },
			method: "GET", path: "/v2/auth/api-keys",
			status: 200, resp: `{"apiKeys":[{"apiKey":"tk_3f9a","name":"ci","whitelistedIPs":["10.0.0.0/8"],"createdAt":"2026-11-20T10:00:00Z"}]}`,
			check: func(t *testing.T, got any) {
				k := got.([]APIKeyInfo)
				if len(k) != 1 || k[0].APIKey != "tk_3f9a" || k[0].Name != "ci" || len(k[0].WhitelistedIPs) != 1 || k[0].CreatedAt.IsZero() {
					t.Errorf("keys = %+v", k)
				}
			},
		},
		{
			name: "CreateAPIKey",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.CreateAPIKey(ctx, CreateAPIKeyRequest{OTP: "123456", Name: "ci", PublicKey: "PEM"})
			},
			method: "POST", path: "/v2/auth/api-keys", body: `{"otp":"123456","name":"ci","publicKey":"PEM","whitelistedIPs":[]}`,
			status: 201, resp: `{"apiKey":"tk_full"}`, check: checkString("tk_full"),
		},
		{
			name: "SetAPIKeyAllowedIPs",
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.SetAPIKeyAllowedIPs(ctx, "123456", "tk_3f9a", []string{"203.0.113.7"})
			},
			method: "PATCH", path: "/v2/auth/api-keys", body: `{"otp":"123456","apiKey":"tk_3f9a","whitelistedIPs":["203.0.113.7"]}`,
			status: 200, resp: `{}`, check: checkNil,
		},
		{
			name: "DeleteAPIKey",
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.DeleteAPIKey(ctx, "tk_3f9a", "123456")
			},
			method: "DELETE", path: "/v2/auth/api-keys/tk_3f9a", query: "otp=123456",
			status: 204, check: checkNil,
		},
		{
			name: "InviteAccess",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.InviteAccess(ctx, InviteAccessRequest{OTP: "123456", Email: "new@example.com", Permissions: perms})
			},
			method: "POST", path: "/v2/auth/accesses", body: `{"otp":"123456","email":"new@example.com","permissions":` + permsJSON + `}`,
			status: 201, resp: `{"id":"acc-1"}`, check: checkString("acc-1"),
		},
		{
			name:   "GetAccess",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.GetAccess(ctx, "acc-1") },
			method: "GET", path: "/v2/auth/accesses/acc-1",
			status: 200, resp: `{"access":{"id":"acc-1","email":"new@example.com","accessPermission":{"payIn":true,"manageAccesses":true}}}`,
			check: func(t *testing.T, got any) {
				a := got.(*Access)
				if a.ID != "acc-1" || !a.AccessPermission.PayIn || !a.AccessPermission.ManageAccesses {
					t.Errorf("access = %+v", a)
				}
			},
		},
		{
			name: "UpdateAccessPermissions",
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.UpdateAccessPermissions(ctx, "acc-1", "123456", perms)
			},
			method: "PATCH", path: "/v2/auth/accesses", body: `{"id":"acc-1","otp":"123456","permissions":` + permsJSON + `}`,
			status: 200, resp: `{}`, check: checkNil,
		},
		{
			name:   "RevokeAccess",
			call:   func(ctx context.Context, c *Client) (any, error) { return nil, c.RevokeAccess(ctx, "acc-1", "123456") },
			method: "DELETE", path: "/v2/auth/accesses/acc-1", query: "otp=123456",
			status: 204, check: checkNil,
		},
		{
			name: "ValidateInvitation",
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.ValidateInvitation(ctx, "tok-1", "pw", "pw")
			},
			method: "POST", path: "/v2/auth/accesses/validate/tok-1", body: `{"password":"pw","confirmPassword":"pw"}`, public: true,
			status: 200, resp: `{}`, check: checkNil,
		},
		{
			name:   "CreateTOTP",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.CreateTOTP(ctx) },
			method: "POST", path: "/v2/auth/mfa/totp/create",
			status: 200, resp: `{"secret":"JBSWY3DPEHPK3PXP","qrCode":"otpauth://totp/Tesouro:a?secret=JBSWY3DPEHPK3PXP"}`,
			check: func(t *testing.T, got any) {
				if s := got.(*TOTPSecret); s.Secret != "JBSWY3DPEHPK3PXP" || s.QRCode == "" {
					t.Errorf("secret = %+v", s)
				}
			},
		},
		{
			name:   "ValidateTOTP",
			call:   func(ctx context.Context, c *Client) (any, error) { return nil, c.ValidateTOTP(ctx, "123456", "874484") },
			method: "POST", path: "/v2/auth/mfa/totp/validate", body: `{"otp":"123456","emailToken":"874484"}`,
			status: 200, resp: `{}`, check: checkNil,
		},
		{
			name:   "RemoveTOTP",
			call:   func(ctx context.Context, c *Client) (any, error) { return nil, c.RemoveTOTP(ctx) },
			method: "POST", path: "/v2/auth/mfa/totp/remove",
			status: 200, resp: `{}`, check: checkNil,
		},
		{
			name:   "ConfirmRemoveTOTP",
			call:   func(ctx context.Context, c *Client) (any, error) { return nil, c.ConfirmRemoveTOTP(ctx, "874484") },
			method: "POST", path: "/v2/auth/mfa/totp/remove/confirm", body: `{"emailToken":"874484"}`,
			status: 200, resp: `{}`, check: checkNil,
		},
		{
			name: "ValidateLoginOTP",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.ValidateLoginOTP(ctx, "op@example.com", "874484", "123456")
			},
			method: "POST", path: "/v2/auth/validate-login", body: `{"email":"op@example.com","emailToken":"874484","otp":"123456"}`, public: true,
			status: 200, resp: `{"accessToken":"at","refreshToken":"rt"}`,
			check: func(t *testing.T, got any) {
				if tk := got.(*Tokens); *tk != (Tokens{AccessToken: "at", RefreshToken: "rt"}) {
					t.Errorf("tokens = %+v", tk)
				}
			},
		},
		{
			name:   "Logout",
			call:   func(ctx context.Context, c *Client) (any, error) { return nil, c.Logout(ctx) },
			method: "POST", path: "/v2/auth/logout",
			status: 204, check: checkNil,
		},
		{
			name: "ChangePassword",
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.ChangePassword(ctx, "old", "new", "new")
			},
			method: "PATCH", path: "/v2/auth/change-password", body: `{"currentPassword":"old","newPassword":"new","newConfirmPassword":"new"}`,
			status: 200, resp: `{}`, check: checkNil,
		},
		{
			name:   "ForgotPassword",
			call:   func(ctx context.Context, c *Client) (any, error) { return nil, c.ForgotPassword(ctx, "op@example.com") },
			method: "POST", path: "/v2/auth/forgot-password", body: `{"email":"op@example.com"}`, public: true,
			status: 200, resp: `{}`, check: checkNil,
		},
		{
			name:   "ResetPassword",
			call:   func(ctx context.Context, c *Client) (any, error) { return nil, c.ResetPassword(ctx, "rt1", "pw", "pw") },
			method: "PATCH", path: "/v2/auth/reset-password/rt1", body: `{"password":"pw","confirmPassword":"pw"}`, public: true,
			status: 200, resp: `{}`, check: checkNil,
		},
		{
			name: "SignUp",
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.SignUp(ctx, SignUpRequest{Email: "n@example.com", Password: "pw", ConfirmPassword: "pw", AccountType: "COMPANY"})
			},
			method: "POST", path: "/v2/auth/create", body: `{"email":"n@example.com","password":"pw","confirmPassword":"pw","accountType":"COMPANY"}`, public: true,
			status: 201, resp: `{}`, check: checkNil,
		},
		{
			name: "ValidateSignUp",
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.ValidateSignUp(ctx, "n@example.com", "874484")
			},
			method: "PATCH", path: "/v2/auth/validate", body: `{"email":"n@example.com","emailToken":"874484"}`, public: true,
			status: 200, resp: `{}`, check: checkNil,
		},
		{
			name:   "VerifyExistence",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.VerifyExistence(ctx, "n@example.com") },
			method: "POST", path: "/v2/auth/verify-existence", body: `{"email":"n@example.com"}`, public: true,
			status: 200, resp: `{"exists":true}`,
			check: func(t *testing.T, got any) {
				if got != true {
					t.Errorf("exists = %v", got)
				}
			},
		},
		{
			name:   "SandboxOutbox",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.SandboxOutbox(ctx) },
			method: "GET", path: "/v2/sandbox/outbox", public: true,
			status: 200, resp: `{"messages":[{"to":"new@example.com","kind":"invitation","token":"tok1","createdAt":"2026-11-20T10:00:00Z"}]}`,
			check: func(t *testing.T, got any) {
				m := got.([]OutboxMessage)
				if len(m) != 1 || m[0].Token != "tok1" || m[0].Kind != "invitation" {
					t.Errorf("outbox = %+v", m)
				}
			},
		},
	}
}

// TestAdminWritesNeedOTP: the writes that change who may act are not sent
// without a TOTP code.
func TestAdminWritesNeedOTP(t *testing.T) {
	c, err := New("http://127.0.0.1:1", nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for name, err := range map[string]error{
		"create": func() error {
			_, err := c.CreateAPIKey(ctx, CreateAPIKeyRequest{Name: "n", PublicKey: "p"})
			return err
		}(),
		"allow":   c.SetAPIKeyAllowedIPs(ctx, " ", "k", nil),
		"delete":  c.DeleteAPIKey(ctx, "k", ""),
		"invite":  func() error { _, err := c.InviteAccess(ctx, InviteAccessRequest{Email: "a@b"}); return err }(),
		"update":  c.UpdateAccessPermissions(ctx, "id", "", Permissions{}),
		"revoke":  c.RevokeAccess(ctx, "id", ""),
		"login":   func() error { _, err := c.ValidateLoginOTP(ctx, "a", "b", ""); return err }(),
		"totpval": c.ValidateTOTP(ctx, "", "t"),
	} {
		if err == nil || IsOTPRequired(err) {
			t.Errorf("%s without otp: %v, want a local refusal", name, err)
		}
	}
}
