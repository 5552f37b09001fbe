package api

import (
	"context"
	"errors"
	"sync"
)

// BearerAuth sends "Authorization: Bearer <accessToken>" and, on a 401,
// trades the refresh token for a new pair once. The service may rotate the
// refresh token, so every new pair is handed to onRotate to be stored; a
// lost rotation would log the user out at the next start.
type BearerAuth struct {
	mu       sync.Mutex
	tokens   Tokens
	onRotate func(Tokens)
}

var _ Reauthenticator = (*BearerAuth)(nil)

// NewBearerAuth starts from tokens (an empty AccessToken is fine: the first
// 401 refreshes). onRotate may be nil.
func NewBearerAuth(tokens Tokens, onRotate func(Tokens)) *BearerAuth {
	return &BearerAuth{tokens: tokens, onRotate: onRotate}
}

// Tokens returns the current pair.
func (b *BearerAuth) Tokens() Tokens {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.tokens
}

// Authenticate sets the Authorization header.
func (b *BearerAuth) Authenticate(req *Request) error {
	b.mu.Lock()
	tok := b.tokens.AccessToken
	b.mu.Unlock()
	if tok != "" {
		req.Header["Authorization"] = []string{"Bearer " + tok}
	}
	return nil
}

// Reauthenticate refreshes the pair unconditionally.
func (b *BearerAuth) Reauthenticate(ctx context.Context, refresh func(ctx context.Context, refreshToken string) (*Tokens, error)) error {
	b.mu.Lock()
	used := b.current()
	b.mu.Unlock()
	return b.reauthenticateIfCurrent(ctx, used, refresh)
}

func (b *BearerAuth) current() string {
	if b.tokens.AccessToken == "" {
		return ""
	}
	return "Bearer " + b.tokens.AccessToken
}

// reauthenticateIfCurrent refreshes only if used is still the current
// credential: when several requests fail together, the first refreshes and
// the others just retry with its result (a refresh token may be single-use).
//
// The lock is held across the refresh and across onRotate, so that no
// request goes on with the new pair before it has been handed over to be
// stored: the old refresh token is spent, and a process that exits between
// the two would otherwise lose the only way back in.
func (b *BearerAuth) reauthenticateIfCurrent(ctx context.Context, used string, refresh func(ctx context.Context, refreshToken string) (*Tokens, error)) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if used != b.current() {
		return nil
	}
	rt := b.tokens.RefreshToken
	if rt == "" {
		return errors.New("no refresh token stored")
	}
	t, err := refresh(ctx, rt)
	if err != nil {
		return err
	}
	if t == nil || t.AccessToken == "" {
		return errors.New("the refresh answer carried no access token")
	}
	next := *t
	if next.RefreshToken == "" {
		next.RefreshToken = rt
	}
	b.tokens = next
	if b.onRotate != nil {
		b.onRotate(next)
	}
	return nil
}
