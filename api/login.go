package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
)

// Login starts the JWT flow: the service e-mails a 6-digit token. No
// credentials are sent.
func (c *Client) Login(ctx context.Context, email, password string) error {
	if email == "" || password == "" {
		return errors.New("login: give both the e-mail and the password")
	}
	return c.noContent(ctx, call{method: http.MethodPost, path: pathLogin, body: loginBody{Email: email, Password: password}, public: true})
}

// ValidateLogin trades the e-mailed token for a JWT pair.
func (c *Client) ValidateLogin(ctx context.Context, email, emailToken string) (*Tokens, error) {
	var t Tokens
	cl := call{method: http.MethodPost, path: pathValidateLogin, body: validateLoginBody{Email: email, EmailToken: emailToken}, public: true}
	if err := c.json(ctx, cl, &t); err != nil {
		return nil, err
	}
	if t.AccessToken == "" {
		return nil, fmt.Errorf("POST %s: the answer carried no access token", pathValidateLogin)
	}
	return &t, nil
}

// RefreshTokens trades a refresh token for a new pair (which may rotate the
// refresh token: store the new one).
func (c *Client) RefreshTokens(ctx context.Context, refreshToken string) (*Tokens, error) {
	if refreshToken == "" {
		return nil, errors.New("refresh: no refresh token stored; log in again")
	}
	var t Tokens
	if err := c.json(ctx, call{method: http.MethodPost, path: pathRefresh, body: refreshBody{RefreshToken: refreshToken}, public: true}, &t); err != nil {
		return nil, err
	}
	if t.AccessToken == "" {
		return nil, fmt.Errorf("POST %s: the answer carried no access token", pathRefresh)
	}
	return &t, nil
}
