package httpapi

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"math/big"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/sandbox/engine"
	"github.com/tesouro-treasury/tesouro/sandbox/team"
	"github.com/tesouro-treasury/tesouro/validate"
)

// Authentication windows and lifetimes (spec/service.md §2).
const (
	maxSkew         = 30 * time.Second
	accessTokenTTL  = 15 * time.Minute
	refreshTokenTTL = 7 * 24 * time.Hour
	loginTokenTTL   = 10 * time.Minute
)

func unauthenticated(format string, args ...any) *apiError {
	return errf(http.StatusUnauthorized, codeUnauthenticated, format, args...)
}

// authenticate identifies the caller by API key signature or bearer token.
func (s *Server) authenticate(c *call) (*engine.Access, *apiError) {
	r := c.r
	if key := r.Header.Get("X-API-Key"); key != "" {
		return s.verifyAPIKey(c, key)
	}
	if h := r.Header.Get("Authorization"); h != "" {
		scheme, tok, ok := strings.Cut(h, " ")
		if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(tok) == "" {
			return nil, unauthenticated("Authorization header must be \"Bearer <accessToken>\"")
		}
		cl, err := s.parseJWT(strings.TrimSpace(tok), c.now)
		if err != nil {
			return nil, err
		}
		if cl.Typ != "access" {
			return nil, unauthenticated("a refresh token cannot authenticate a request; use the access token")
		}
		if s.logins.ended(cl.Sid) {
			return nil, unauthenticated("this session was ended by a logout; log in again")
		}
		a := s.eng.AccessByID(cl.Sub)
		if a == nil {
			return nil, unauthenticated("the token's access no longer exists or was revoked; log in again")
		}
		c.sid = cl.Sid
		return a, nil
	}
	return nil, unauthenticated("no credentials: send X-API-Key, X-API-Timestamp and X-API-Signature, or Authorization: Bearer <accessToken>")
}

// verifyAPIKey checks the three API-key headers against the exact string
// to sign: timestamp + METHOD + request URI as sent + body bytes.
func (s *Server) verifyAPIKey(c *call, key string) (*engine.Access, *apiError) {
	r := c.r
	tsRaw := r.Header.Get("X-API-Timestamp")
	sigRaw := r.Header.Get("X-API-Signature")
	if tsRaw == "" || sigRaw == "" {
		return nil, unauthenticated("X-API-Key needs X-API-Timestamp (Unix milliseconds) and X-API-Signature")
	}
	ts, err := strconv.ParseInt(tsRaw, 10, 64)
	if err != nil {
		return nil, unauthenticated("X-API-Timestamp %q is not an integer of Unix milliseconds", truncate(tsRaw, 20))
	}
	skew := c.now.Sub(time.UnixMilli(ts))
	if skew > maxSkew || skew < -maxSkew {
		return nil, errf(http.StatusUnauthorized, codeTimestampSkew, "X-API-Timestamp is %s away from the service clock (at most %s allowed); check the system clock", skew.Round(time.Millisecond).Abs(), maxSkew)
	}
	k, a := s.team.KeyOf(key)
	if a == nil {
		return nil, unauthenticated("unknown or revoked API key")
	}
	sig, err := base64.StdEncoding.DecodeString(sigRaw)
	if err != nil {
		return nil, errf(http.StatusUnauthorized, codeBadSignature, "X-API-Signature is not standard padded base64")
	}
	uri := r.RequestURI
	if uri == "" || strings.HasPrefix(uri, "http://") || strings.HasPrefix(uri, "https://") {
		uri = r.URL.RequestURI()
	}
	msg := make([]byte, 0, len(tsRaw)+len(r.Method)+len(uri)+len(c.body))
	msg = append(msg, tsRaw...)
	msg = append(msg, r.Method...)
	msg = append(msg, uri...)
	msg = append(msg, c.body...)
	if !verifySignature(k.PublicKey, msg, sig) {
		return nil, errf(http.StatusUnauthorized, codeBadSignature, "X-API-Signature does not verify over timestamp+method+requestURI+body with the %s key of this API key", k.KeyType)
	}
	// The allow-list is checked once the key is proven: only its holder
	// learns that the IP is the problem.
	if ip, ok := remoteIP(r); !ok || !k.Allows(ip) {
		return nil, errf(http.StatusForbidden, team.CodeIPNotAllowed, "this API key may not be used from %s: its allow-list names other IPs (PATCH /v2/auth/api-keys changes it)", ip)
	}
	// Only a verified message is remembered: anyone may send bad
	// signatures, and they must not spend a request not yet made.
	if !s.replays.admit(key, tsRaw, r.Method, uri, c.body, time.UnixMilli(ts), c.now) {
		return nil, replayed()
	}
	return a, nil
}

func verifySignature(pub crypto.PublicKey, msg, sig []byte) bool {
	switch k := pub.(type) {
	case ed25519.PublicKey:
		return len(sig) == ed25519.SignatureSize && ed25519.Verify(k, msg, sig)
	case *ecdsa.PublicKey:
		h := sha256.Sum256(msg)
		if ecdsa.VerifyASN1(k, h[:], sig) {
			return true
		}
		if len(sig) == 64 { // raw r||s, accepted leniently
			r := new(big.Int).SetBytes(sig[:32])
			s := new(big.Int).SetBytes(sig[32:])
			return ecdsa.Verify(k, h[:], r, s)
		}
		return false
	case *rsa.PublicKey:
		h := sha256.Sum256(msg)
		return rsa.VerifyPKCS1v15(k, crypto.SHA256, h[:], sig) == nil
	}
	return false
}

// jwtClaims are the sandbox's token claims.
type jwtClaims struct {
	Sub uuid.UUID `json:"sub"`
	Typ string    `json:"typ"` // access or refresh
	Iat int64     `json:"iat"`
	Exp int64     `json:"exp"`
	Jti string    `json:"jti"`
	// Sid names the login session both tokens of a pair belong to (a
	// logout ends it).
	Sid string `json:"sid,omitempty"`
}

var jwtHeader = base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"HS256","typ":"JWT"}`))

func (s *Server) signJWT(cl jwtClaims) string {
	body, _ := json.Marshal(cl)
	head := jwtHeader + "." + base64.RawURLEncoding.EncodeToString(body)
	m := hmac.New(sha256.New, s.jwtKey)
	m.Write([]byte(head))
	return head + "." + base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

func (s *Server) parseJWT(tok string, now time.Time) (*jwtClaims, *apiError) {
	parts := strings.Split(tok, ".")
	if len(parts) != 3 || parts[0] != jwtHeader {
		return nil, unauthenticated("the bearer token is not a token this service issued")
	}
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil {
		return nil, unauthenticated("the bearer token is not a token this service issued")
	}
	m := hmac.New(sha256.New, s.jwtKey)
	m.Write([]byte(parts[0] + "." + parts[1]))
	if !hmac.Equal(sig, m.Sum(nil)) {
		return nil, unauthenticated("the bearer token's signature is wrong; log in again")
	}
	body, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		return nil, unauthenticated("the bearer token is malformed")
	}
	var cl jwtClaims
	if err := json.Unmarshal(body, &cl); err != nil {
		return nil, unauthenticated("the bearer token is malformed")
	}
	if now.Unix() >= cl.Exp {
		return nil, errf(http.StatusUnauthorized, codeTokenExpired, "the %s token expired at %s; refresh it or log in again", cl.Typ, time.Unix(cl.Exp, 0).UTC().Format(time.RFC3339))
	}
	return &cl, nil
}

func (s *Server) issueTokens(a *engine.Access, now time.Time, sid string) Tokens {
	if sid == "" {
		sid = uuid.NewString()
	}
	return Tokens{
		AccessToken:  s.signJWT(jwtClaims{Sub: a.ID, Typ: "access", Iat: now.Unix(), Exp: now.Add(accessTokenTTL).Unix(), Jti: uuid.New().String(), Sid: sid}),
		RefreshToken: s.signJWT(jwtClaims{Sub: a.ID, Typ: "refresh", Iat: now.Unix(), Exp: now.Add(refreshTokenTTL).Unix(), Jti: uuid.New().String(), Sid: sid}),
	}
}

// remoteIP is the address the request came from.
func remoteIP(r *http.Request) (netip.Addr, bool) {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		a, err := netip.ParseAddr(r.RemoteAddr)
		return a.Unmap(), err == nil
	}
	return ap.Addr().Unmap(), true
}

func equalSecret(a, b string) bool {
	return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}

// POST /v2/auth/login {email,password}: 200, and the 6-digit token goes by
// e-mail (the demo accesses' tokens are in the credentials file).
func (s *Server) login(c *call) error {
	var req struct {
		Email    string `json:"email"`
		Password string `json:"password"`
	}
	if err := decodeBody(c, &req); err != nil {
		return err
	}
	if strings.TrimSpace(req.Email) == "" {
		return badRequest(codeMissingField, "email: required")
	}
	if req.Password == "" {
		return badRequest(codeMissingField, "password: required")
	}
	mail, sh, k, err := s.throttled(req.Email, c.now)
	if err != nil {
		return err
	}
	defer sh.mu.Unlock()
	a := s.eng.AccessByMail(mail)
	if a == nil || !a.PasswordIs(req.Password) {
		sh.failed(k, c.now)
		return unauthenticated("e-mail or password is wrong")
	}
	s.logins.mu.Lock()
	s.logins.pending[a.ID] = c.now
	s.logins.mu.Unlock()
	s.team.MailLogin(a, c.now)
	return c.reply(http.StatusOK, map[string]string{"message": "a 6-digit login token was sent to " + a.Email})
}

// throttled reads the e-mail of a login step as the throttle keys it
// (trimmed, lower case), refuses one longer than any address can be (RFC
// 5321) before it is remembered anywhere, and one locked out by failures.
// Without an error its throttle shard comes back locked, and the caller
// unlocks it; with one, nothing is held.
func (s *Server) throttled(email string, now time.Time) (string, *throttleShard, [sha256.Size]byte, error) {
	mail := strings.ToLower(strings.TrimSpace(email))
	if n := validate.Chars(mail); n > validate.MaxEmail {
		return "", nil, [sha256.Size]byte{}, badRequest(codeInvalidField, "email: at most %d characters, got %d", validate.MaxEmail, n)
	}
	sh, k := s.logins.throttle.shard(mail)
	if err := sh.lockedOut(k, now); err != nil {
		sh.mu.Unlock()
		return "", nil, k, err
	}
	return mail, sh, k, nil
}

// POST /v2/auth/validate-login {email,emailToken} -> tokens.
func (s *Server) validateLogin(c *call) error {
	var req struct {
		Email      string `json:"email"`
		EmailToken string `json:"emailToken"`
		OTP        string `json:"otp"`
	}
	if err := decodeBody(c, &req); err != nil {
		return err
	}
	if strings.TrimSpace(req.Email) == "" {
		return badRequest(codeMissingField, "email: required")
	}
	if req.EmailToken == "" {
		return badRequest(codeMissingField, "emailToken: required (the 6-digit token sent by e-mail)")
	}
	mail, sh, k, err := s.throttled(req.Email, c.now)
	if err != nil {
		return err
	}
	defer sh.mu.Unlock()
	a := s.eng.AccessByMail(mail)
	if a == nil {
		return unauthenticated("e-mail or token is wrong")
	}
	l := s.logins
	l.mu.Lock()
	at, ok := l.pending[a.ID]
	l.mu.Unlock()
	if !ok || c.now.Sub(at) > loginTokenTTL {
		return badRequest(codeLoginRequired, "emailToken: no login is waiting for this e-mail (or it is older than 10 minutes); POST /v2/auth/login first")
	}
	if !equalSecret(a.EmailToken, req.EmailToken) {
		sh.failed(k, c.now)
		return unauthenticated("e-mail or token is wrong")
	}
	// The second factor, when the access must give it, does not spend the
	// waiting login: the code can follow.
	if err := team.LoginOTP(a, req.OTP, c.now); err != nil {
		if req.OTP != "" {
			sh.failed(k, c.now)
		}
		return err
	}
	l.mu.Lock()
	delete(l.pending, a.ID)
	l.mu.Unlock()
	return c.reply(http.StatusOK, s.issueTokens(a, c.now, ""))
}

// POST /v2/auth/refresh {refreshToken} -> a new pair; the old refresh token
// is spent (rotation).
func (s *Server) refresh(c *call) error {
	var req struct {
		RefreshToken string `json:"refreshToken"`
	}
	// The token comes in the body ({refreshToken}) or, with no body, as
	// Authorization: Bearer (spec/service.md §7.4).
	bearer, hasBearer := strings.CutPrefix(c.r.Header.Get("Authorization"), "Bearer ")
	if len(bytes.TrimSpace(c.body)) > 0 || !hasBearer {
		if err := decodeBody(c, &req); err != nil {
			return err
		}
	}
	if req.RefreshToken == "" {
		req.RefreshToken = strings.TrimSpace(bearer)
	}
	if req.RefreshToken == "" {
		return badRequest(codeMissingField, "refreshToken: required, in the body or as Authorization: Bearer")
	}
	cl, aerr := s.parseJWT(req.RefreshToken, c.now)
	if aerr != nil {
		return aerr
	}
	if cl.Typ != "refresh" {
		return unauthenticated("refreshToken: this is an access token, not a refresh token")
	}
	l := s.logins
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, used := l.usedRefresh[cl.Jti]; used {
		return unauthenticated("refreshToken: already used once; log in again")
	}
	if _, gone := l.endedSessions[cl.Sid]; gone && cl.Sid != "" {
		return unauthenticated("refreshToken: its session was ended by a logout; log in again")
	}
	a := s.eng.AccessByID(cl.Sub)
	if a == nil {
		return unauthenticated("refreshToken: its access no longer exists")
	}
	for k, exp := range l.usedRefresh {
		if c.now.After(exp) {
			delete(l.usedRefresh, k)
		}
	}
	l.usedRefresh[cl.Jti] = time.Unix(cl.Exp, 0)
	return c.reply(http.StatusOK, s.issueTokens(a, c.now, cl.Sid))
}

// logins is the memory of the JWT login flow, not stored (a restart
// forgives and forgets it): the logins waiting for their e-mailed token and
// the refresh tokens already used (rotation), under mu, and the recent
// failures per e-mail (the lockout), in throttle.
type logins struct {
	mu          sync.Mutex
	pending     map[uuid.UUID]time.Time
	usedRefresh map[string]time.Time
	// endedSessions are the sessions ended by a logout, until their
	// refresh tokens would have expired anyway.
	endedSessions map[string]time.Time
	throttle      throttle
}

func newLogins() *logins {
	return &logins{pending: map[uuid.UUID]time.Time{}, usedRefresh: map[string]time.Time{}, endedSessions: map[string]time.Time{}}
}

// endSession ends a login session: its access and refresh tokens are
// refused from now on.
func (l *logins) endSession(sid string, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for k, until := range l.endedSessions {
		if now.After(until) {
			delete(l.endedSessions, k)
		}
	}
	l.endedSessions[sid] = now.Add(refreshTokenTTL)
}

// ended reports whether a logout ended the session sid.
func (l *logins) ended(sid string) bool {
	if sid == "" {
		return false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	_, gone := l.endedSessions[sid]
	return gone
}

// Login lockout (§7.5): after maxLoginFailures wrong passwords or e-mail
// tokens for one e-mail within loginWindow, logins for it are 429 until
// the oldest of those failures leaves the window.
const (
	maxLoginFailures = 5
	loginWindow      = 15 * time.Minute
	codeLoginLocked  = "LOGIN_LOCKED"
)

// Tokens are a JWT pair (§2).
type Tokens struct {
	AccessToken  string `json:"accessToken"`
	RefreshToken string `json:"refreshToken"`
}
