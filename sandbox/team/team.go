// Package team is the sandbox's team administration (spec/service.md
// §8.8): who may act on the account and with what. It keeps the API keys
// and their IP allow-lists, the TOTP second factors, the invitations, the
// password resets and sign-ups, and the sandbox's outbox (the e-mails it
// would have sent: tokens an integrator reads at GET /v2/sandbox/outbox).
// It changes the engine's accesses (invited, changed, revoked) through
// Engine.PutAccess under the engine's lock, so a change is in the
// transaction of the request that made it, and the very next request
// sees it.
//
// The rules: the writes that change who may act need the manageAccesses
// permission and the current TOTP code of the acting access; an access
// never raises its own permissions nor revokes itself; a revoked access's
// keys and sessions stop at once; a key used from an IP its allow-list
// does not name is refused. Refusals are *engine.Refusal, which the
// surface answers as it answers the engine's.
//
// What it stores (table team_records, one JSON document per kind and id):
// accesses as changed since the seed made them, API keys, pending
// invitations and sign-ups. The outbox, password-reset tokens and TOTP
// enrolments under way live in memory only, like the login tokens.
package team

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/sandbox/engine"
	"github.com/tesouro-treasury/tesouro/sandbox/store"
)

// Error codes of team administration.
const (
	CodeOTPRequired   = "OTP_REQUIRED"
	CodeInvalidOTP    = "INVALID_OTP"
	CodeMFARequired   = "MFA_REQUIRED"
	CodeMFAActive     = "MFA_ACTIVE"
	CodeIPNotAllowed  = "IP_NOT_ALLOWED"
	CodeSelfChange    = "SELF_ESCALATION"
	CodeSelfRevoke    = "SELF_REVOCATION"
	CodeEmailInUse    = "EMAIL_IN_USE"
	CodeKeyLimit      = "API_KEY_LIMIT"
	CodeInvalidToken  = "INVALID_TOKEN"
	CodeWrongPassword = "WRONG_PASSWORD"
)

// Limits [decided where the service's documentation is silent; the key
// limit is documented].
const (
	MaxKeysPerAccess = 5
	MaxAllowList     = 20
	MaxKeyName       = 64
	inviteTTL        = 7 * 24 * time.Hour
	resetTTL         = time.Hour
	enrolTTL         = 10 * time.Minute
	maxOutbox        = 200
	issuer           = "Tesouro sandbox"
)

// Mail is one e-mail the sandbox would have sent.
type Mail struct {
	To        string
	Kind      string // invitation, login, password-reset, sign-up, totp-enrol, totp-remove
	Token     string
	CreatedAt time.Time
}

// Team is the team administration of one sandbox.
type Team struct {
	eng *engine.Engine
	db  *store.Store

	mu      sync.RWMutex
	keys    map[[32]byte]*Key // by the SHA-256 of the key
	enrols  map[uuid.UUID]*enrolment
	removes map[uuid.UUID]pendingToken
	invites map[[32]byte]invite // by the SHA-256 of the token
	resets  map[[32]byte]pendingToken
	signups map[string]*signup // by lower-case e-mail
	outbox  []Mail

	// OnMail, when set before serving, hears every mail (the sandbox's
	// log shows invitations with it).
	OnMail func(Mail)
}

type enrolment struct {
	secret []byte
	token  string
	until  time.Time
}

type pendingToken struct {
	access uuid.UUID
	token  string
	until  time.Time
}

type invite struct {
	Access uuid.UUID `json:"accessId"`
	Until  time.Time `json:"until"`
}

type signup struct {
	Email       string    `json:"email"`
	Password    string    `json:"password"` // salted hash
	AccountType string    `json:"accountType"`
	Token       string    `json:"token"`
	Verified    bool      `json:"verified"`
	CreatedAt   time.Time `json:"createdAt"`
}

// New is the team administration of eng's accesses, stored in db. The
// demo keys of the accesses eng holds are its first keys.
func New(eng *engine.Engine, db *store.Store) *Team {
	t := &Team{
		eng: eng, db: db,
		keys:    map[[32]byte]*Key{},
		enrols:  map[uuid.UUID]*enrolment{},
		removes: map[uuid.UUID]pendingToken{},
		invites: map[[32]byte]invite{},
		resets:  map[[32]byte]pendingToken{},
		signups: map[string]*signup{},
	}
	for _, a := range eng.Accesses() {
		if a.APIKey != "" && a.PublicKey != nil {
			t.keys[hashOf(a.APIKey)] = &Key{
				Prefix: prefixOf(a.APIKey), Name: "demo " + a.Name, AccessID: a.ID, KeyType: a.KeyType,
				PublicKey: a.PublicKey, IPs: []string{}, CreatedAt: a.CreatedAt,
			}
		}
	}
	return t
}

func hashOf(s string) [32]byte { return sha256.Sum256([]byte(s)) }

func equal(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }

func refusal(kind engine.Kind, code, format string, args ...any) *engine.Refusal {
	return &engine.Refusal{Kind: kind, Code: code, Message: fmt.Sprintf(format, args...)}
}

func invalid(code, format string, args ...any) *engine.Refusal {
	return refusal(engine.Invalid, code, format, args...)
}

// mail records an e-mail in the outbox. The caller holds t.mu.
func (t *Team) mail(to, kind, token string, now time.Time) {
	m := Mail{To: to, Kind: kind, Token: token, CreatedAt: now}
	t.outbox = append(t.outbox, m)
	if len(t.outbox) > maxOutbox {
		t.outbox = append([]Mail(nil), t.outbox[len(t.outbox)-maxOutbox:]...)
	}
	if t.OnMail != nil {
		t.OnMail(m)
	}
}

// MailLogin records the e-mail of a login token (the surface's login
// step sends it).
func (t *Team) MailLogin(a *engine.Access, now time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.mail(a.Email, "login", a.EmailToken, now)
}

// Outbox is the mails sent, newest first.
func (t *Team) Outbox() []Mail {
	t.mu.RLock()
	defer t.mu.RUnlock()
	out := make([]Mail, len(t.outbox))
	for i, m := range t.outbox {
		out[len(out)-1-i] = m
	}
	return out
}

// save stores one document. The caller holds the engine's lock (Edit).
func (t *Team) save(kind, id string, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		t.db.Fail(fmt.Errorf("team record %s %s: %w", kind, id, err))
		return
	}
	t.db.PutTeamRecord(kind, id, body)
}

// accessDoc is an access as stored: every field team administration
// changes, so that a restart rebuilds it over the seed's.
type accessDoc struct {
	ID          uuid.UUID       `json:"id"`
	Name        string          `json:"name"`
	Email       string          `json:"email"`
	Perms       json.RawMessage `json:"permissions"`
	CreatedAt   time.Time       `json:"createdAt"`
	UpdatedAt   time.Time       `json:"updatedAt"`
	PasswordAt  time.Time       `json:"passwordAt"`
	Password    string          `json:"password"`
	EmailToken  string          `json:"emailToken"`
	MFAID       uuid.UUID       `json:"mfaId"`
	TOTPSecret  []byte          `json:"totpSecret"`
	FrozenUntil time.Time       `json:"frozenUntil"`
	Revoked     bool            `json:"revoked"`
}

// putAccess puts a changed copy of an access in the engine and stores it.
// The caller holds the engine's lock (Edit).
func (t *Team) putAccess(a *engine.Access) {
	t.eng.PutAccess(a)
	perms, _ := json.Marshal(a.Perms)
	t.save("access", a.ID.String(), accessDoc{
		ID: a.ID, Name: a.Name, Email: a.Email, Perms: perms, CreatedAt: a.CreatedAt, UpdatedAt: a.UpdatedAt,
		PasswordAt: a.PasswordAt, Password: a.Password, EmailToken: a.EmailToken, MFAID: a.MFAID,
		TOTPSecret: a.TOTPSecret, FrozenUntil: a.FrozenUntil, Revoked: a.Revoked,
	})
}

// copyAccess is a copy of a to change and put in its place.
func copyAccess(a *engine.Access) *engine.Access {
	c := *a
	c.Blacklisted = map[uuid.UUID]bool{}
	for k, v := range a.Blacklisted {
		c.Blacklisted[k] = v
	}
	return &c
}

// Load applies what the store holds over the seed's accesses and keys.
// It runs before the engine loads its records (they may name an access
// that was invited or revoked) and before serving.
func (t *Team) Load() error {
	type row struct {
		kind, id string
		body     []byte
	}
	var rows []row
	if err := t.db.EachTeamRecord(func(kind, id string, body []byte) error {
		rows = append(rows, row{kind, id, append([]byte(nil), body...)})
		return nil
	}); err != nil {
		return err
	}
	var docs []accessDoc
	for _, r := range rows {
		if r.kind == "access" {
			var d accessDoc
			if err := json.Unmarshal(r.body, &d); err != nil {
				return fmt.Errorf("team access %s: %w", r.id, err)
			}
			docs = append(docs, d)
		}
	}
	sort.SliceStable(docs, func(i, j int) bool { return docs[i].CreatedAt.Before(docs[j].CreatedAt) })
	var err error
	t.eng.Edit(func() {
		for _, d := range docs {
			a := &engine.Access{Blacklisted: map[uuid.UUID]bool{}}
			if old := t.eng.AccessByIDLocked(d.ID); old != nil {
				a = copyAccess(old)
			}
			a.ID, a.Name, a.Email = d.ID, d.Name, d.Email
			if e := json.Unmarshal(d.Perms, &a.Perms); e != nil {
				err = fmt.Errorf("team access %s: permissions: %w", d.ID, e)
				return
			}
			a.CreatedAt, a.UpdatedAt, a.PasswordAt = d.CreatedAt, d.UpdatedAt, d.PasswordAt
			a.Password, a.EmailToken, a.MFAID, a.TOTPSecret = d.Password, d.EmailToken, d.MFAID, d.TOTPSecret
			a.FrozenUntil, a.Revoked = d.FrozenUntil, d.Revoked
			t.eng.PutAccess(a)
		}
	})
	if err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, r := range rows {
		switch r.kind {
		case "apikey":
			if err := t.loadKey(r.id, r.body); err != nil {
				return err
			}
		case "invite":
			var in invite
			if err := json.Unmarshal(r.body, &in); err != nil {
				return fmt.Errorf("team invitation: %w", err)
			}
			h, err := hex.DecodeString(r.id)
			if err != nil || len(h) != 32 {
				return fmt.Errorf("team invitation id %q is not a hash", r.id)
			}
			t.invites[[32]byte(h)] = in
		case "signup":
			var s signup
			if err := json.Unmarshal(r.body, &s); err != nil {
				return fmt.Errorf("team sign-up %s: %w", r.id, err)
			}
			t.signups[r.id] = &s
		}
	}
	// The keys of revoked accesses stop with them.
	for h, k := range t.keys {
		if t.eng.AccessByID(k.AccessID) == nil {
			delete(t.keys, h)
		}
	}
	return nil
}

// manager checks that the caller may change who may act: the
// manageAccesses permission, not frozen, and otp the current code of its
// active second factor.
func (t *Team) manager(c engine.Caller, otp string) error {
	a := c.Access
	if a == nil || !a.Perms.ManageAccesses {
		return refusal(engine.Forbidden, engine.CodeForbidden, "this access lacks the manageAccesses permission: only an account administrator manages accesses and API keys")
	}
	if a.FrozenUntil.After(c.Now) {
		return refusal(engine.Forbidden, engine.CodeFrozen, "this access is frozen until %s", a.FrozenUntil.UTC().Format(time.RFC3339))
	}
	return checkOTP(a, otp, c.Now)
}
