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
func (b *BearerAuth) reauthenticateIfCurrent(ctx context.Context, used string, refresh func(ctx context.Context, refreshToken string) (*Tokens, error)) error {
	next, rotated, err := b.refreshIfCurrent(ctx, used, refresh)
	if err != nil || !rotated {
		return err
	}
	if b.onRotate != nil {
		b.onRotate(next)
	}
	return nil
}

// refreshIfCurrent trades the refresh token for a new pair, unless used is
// no longer the current credential. The lock is held across the call so
// that concurrent 401s wait for this refresh instead of spending the same
// refresh token again.
func (b *BearerAuth) refreshIfCurrent(ctx context.Context, used string, refresh func(ctx context.Context, refreshToken string) (*Tokens, error)) (Tokens, bool, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if used != b.current() {
		return Tokens{}, false, nil
	}
	rt := b.tokens.RefreshToken
	if rt == "" {
		return Tokens{}, false, errors.New("no refresh token stored")
	}
	t, err := refresh(ctx, rt)
	if err != nil {
		return Tokens{}, false, err
	}
	if t == nil || t.AccessToken == "" {
		return Tokens{}, false, errors.New("the refresh answer carried no access token")
	}
	next := *t
	if next.RefreshToken == "" {
		next.RefreshToken = rt
	}
	b.tokens = next
	return next, true, nil
}
