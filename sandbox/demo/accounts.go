// Package demo is the sandbox's deterministic demo data: the accounts and
// accesses of a seed (with the keys and secrets of the credentials file),
// today's balances, and the history behind them (beneficiaries, webhooks,
// tickets in every state, multi-signature operations, trades and
// compliance records), made by the engine's own rules at past times
// through an engine.History. The same seed gives the same data, byte for
// byte outside the timestamps, which are relative to the engine's clock.
package demo

import (
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/sandbox/engine"
	"github.com/tesouro-treasury/tesouro/sandbox/records"
)

// demoRand is the deterministic source of the demo data.
type demoRand struct{ *rand.Rand }

func newDemoRand(seed int64, label string) demoRand {
	d := derive(seed, "rng/"+label)
	var a, b uint64
	for i := range 8 {
		a = a<<8 | uint64(d[i])
		b = b<<8 | uint64(d[8+i])
	}
	return demoRand{rand.New(rand.NewPCG(a, b))}
}

// uuid is a version-4 UUID drawn from the demo source.
func (r demoRand) uuid() uuid.UUID {
	var u uuid.UUID
	for i := range u {
		u[i] = byte(r.UintN(256))
	}
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	return u
}

// amount is a decimal in [lo, hi) with prec decimals.
func (r demoRand) amount(lo, hi int64, prec int32) decimal.Decimal {
	scale := int64(1)
	for range prec {
		scale *= 10
	}
	n := lo*scale + r.Int64N((hi-lo)*scale)
	return decimal.New(n, -prec)
}

// UUID, Hex and IntN are what the engine draws while a history is built
// (engine.Source).
func (r demoRand) UUID() uuid.UUID { return r.uuid() }

// Hex is n hex digits.
func (r demoRand) Hex(n int) string { return r.hex(n) }

func (r demoRand) pick(xs []string) string { return xs[r.IntN(len(xs))] }

func (r demoRand) digits(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('0' + r.IntN(10))
	}
	return string(b)
}

func (r demoRand) hex(n int) string {
	const h = "0123456789abcdef"
	b := make([]byte, n)
	for i := range b {
		b[i] = h[r.IntN(16)]
	}
	return string(b)
}

// demoAccess describes one demo access (spec/service.md §6).
type demoAccess struct {
	name    string
	keyType string
	rsaPEM  string
	sec1    bool
	perms   records.Permissions
}

func demoAccesses() []demoAccess {
	operator := records.Permissions{PayIn: true, PayOut: true, Convert: true, OnChain: true, Markup: true, Beneficiary: true, ManageWebhooks: true}
	requester := operator
	requester.OperationRequester = true
	approver := records.Permissions{OperationApprover: true}
	approver3 := operator
	approver3.OperationApprover = true
	approver3.OperationRequester = true
	return []demoAccess{
		{name: "operator", keyType: "ed25519", perms: operator},
		{name: "requester", keyType: "rsa", rsaPEM: demoRSARequesterPEM, perms: requester},
		{name: "approver1", keyType: "ecdsa", sec1: true, perms: approver},
		{name: "approver2", keyType: "ed25519", perms: approver},
		{name: "approver3", keyType: "rsa", rsaPEM: demoRSAApprover3PEM, perms: approver3},
		{name: "viewer", keyType: "rsa", rsaPEM: demoRSAViewerPEM, perms: records.Permissions{ViewOnly: true}},
		{name: "restricted", keyType: "ecdsa", perms: records.Permissions{Convert: true, EnforceAllowedBeneficiaries: true}},
		// Not one of the names of §6: an access frozen for a month, so that
		// frozen accesses can be seen and tried.
		{name: "frozen", keyType: "ed25519", perms: operator},
	}
}

// demoDomain is the e-mail domain of the demo accesses.
const demoDomain = "acme-treasury.example"

// Demo is the demo world of a seed, once its accounts and accesses are in
// an engine: what the history needs besides them (today's balances).
type Demo struct {
	seed  int64
	today map[*engine.Account]map[string]decimal.Decimal
}

// Build adds the demo accounts and accesses of seed to e, before e
// serves: same seed, same data (times are relative to e's clock). The
// accesses' secrets are the published ones of the seed, or those of in
// when it is not nil.
func Build(e *engine.Engine, seed int64, in *Installation) (*Demo, error) {
	sec := secrets{seed: seed, in: in}
	now := e.Now()
	r := newDemoRand(seed, "accounts")

	main := engine.NewAccount(r.uuid(), "Acme Treasury Ltda", "COMPANY", true, uuid.Nil, now.Add(-400*24*time.Hour))
	main.MainID = main.ID
	accts := []*engine.Account{main}
	for i, name := range []string{"Acme Payments", "Acme Brokerage", "Acme Sul"} {
		typ := "COMPANY"
		if i == 1 {
			typ = "INDIVIDUAL"
		}
		accts = append(accts, engine.NewAccount(r.uuid(), name, typ, false, main.ID, now.Add(-time.Duration(300-60*i)*24*time.Hour)))
	}
	for _, a := range accts {
		a.PixKey = r.uuid().String()
		a.Wallet = engine.WalletAddress(a.ID)
		a.TaxID = demoCNPJ(r)
		e.AddAccount(a)
	}

	for i, d := range demoAccesses() {
		pub, pemText, err := demoKey(sec, d.name, d.keyType, sec.rsaPEM(d), d.sec1)
		if err != nil {
			return nil, fmt.Errorf("demo access %s: %w", d.name, err)
		}
		secret := sec.derive("secret/" + d.name)
		created := now.Add(-time.Duration(200-10*i) * 24 * time.Hour)
		a := &engine.Access{
			ID: r.uuid(), Name: d.name, Email: d.name + "@" + demoDomain, Perms: d.perms,
			CreatedAt: created, UpdatedAt: created, PasswordAt: created.Add(24 * time.Hour),
			KeyType: d.keyType, APIKey: "sbx_" + hex.EncodeToString(secret[:16]), PrivateKeyPEM: pemText, PublicKey: pub,
			Password:    "demo-" + hex.EncodeToString(secret[16:22]),
			EmailToken:  fmt.Sprintf("%06d", (int(secret[22])<<16|int(secret[23])<<8|int(secret[24]))%1000000),
			Blacklisted: map[uuid.UUID]bool{},
		}
		a.Perms.ID = r.uuid().String()
		a.Perms.UpdatedAt = engine.FormatTime(created)
		if d.name != "viewer" {
			a.MFAID = r.uuid()
		}
		a.TOTPSecret = totpSecret(sec, d.name)
		switch d.name {
		case "restricted":
			a.Blacklisted[accts[3].ID] = true
		case "frozen":
			a.FrozenUntil = now.Add(30 * 24 * time.Hour).Truncate(time.Second)
		}
		e.AddAccess(a)
	}
	if err := addAdmin(e, seed, sec, now); err != nil {
		return nil, err
	}
	return &Demo{seed: seed, today: todayBalances(r, accts)}, nil
}

// todayBalances are the demo accounts' balances today.
func todayBalances(r demoRand, accts []*engine.Account) map[*engine.Account]map[string]decimal.Decimal {
	main := map[string]decimal.Decimal{
		"BRLA": decimal.RequireFromString("9457.170326"),
		"USDC": r.amount(20000, 90000, 6),
		"USDT": r.amount(5000, 30000, 6),
		"EURC": r.amount(1000, 12000, 6),
	}
	today := map[*engine.Account]map[string]decimal.Decimal{accts[0]: main}
	for _, a := range accts[1:] {
		today[a] = map[string]decimal.Decimal{
			"BRLA": r.amount(500, 50000, 6),
			"USDC": r.amount(100, 20000, 6),
			"USDT": r.amount(0, 5000, 6),
			"EURC": r.amount(0, 3000, 6),
		}
	}
	return today
}

// demoCNPJ draws a CNPJ with valid check digits.
func demoCNPJ(r demoRand) string {
	base := r.digits(8) + "0001"
	d := []int{}
	for _, ch := range base {
		d = append(d, int(ch-'0'))
	}
	w1 := []int{5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2}
	w2 := []int{6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2}
	d = append(d, checkDigit(d, w1))
	d = append(d, checkDigit(d, w2))
	out := make([]byte, len(d))
	for i, v := range d {
		out[i] = byte('0' + v)
	}
	return string(out)
}

// demoCPF draws a CPF with valid check digits.
func demoCPF(r demoRand) string {
	d := []int{}
	for _, ch := range r.digits(9) {
		d = append(d, int(ch-'0'))
	}
	d = append(d, checkDigit(d, []int{10, 9, 8, 7, 6, 5, 4, 3, 2}))
	d = append(d, checkDigit(d, []int{11, 10, 9, 8, 7, 6, 5, 4, 3, 2}))
	out := make([]byte, len(d))
	for i, v := range d {
		out[i] = byte('0' + v)
	}
	return string(out)
}

func checkDigit(d, w []int) int {
	sum := 0
	for i := range w {
		sum += d[i] * w[i]
	}
	rem := sum % 11
	if rem < 2 {
		return 0
	}
	return 11 - rem
}
