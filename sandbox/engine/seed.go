package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/validate"
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

// walletFromID makes a stable EIP-55 service-wallet address for an account.
func walletFromID(id uuid.UUID) string {
	h := sha256.Sum256(append([]byte("tesouro-sandbox-wallet/"), id[:]...))
	addr, _, err := validate.EVMAddress("0x" + hex.EncodeToString(h[:20]))
	if err != nil {
		return "0x" + hex.EncodeToString(h[:20])
	}
	return addr
}

// demoAccess describes one demo access (spec/service.md §6).
type demoAccess struct {
	name    string
	keyType string
	rsaPEM  string
	sec1    bool
	perms   Permissions
}

func demoAccesses() []demoAccess {
	operator := Permissions{PayIn: true, PayOut: true, Convert: true, OnChain: true, Markup: true, Beneficiary: true}
	requester := operator
	requester.OperationRequester = true
	approver := Permissions{OperationApprover: true}
	approver3 := operator
	approver3.OperationApprover = true
	approver3.OperationRequester = true
	return []demoAccess{
		{name: "operator", keyType: "ed25519", perms: operator},
		{name: "requester", keyType: "rsa", rsaPEM: demoRSARequesterPEM, perms: requester},
		{name: "approver1", keyType: "ecdsa", sec1: true, perms: approver},
		{name: "approver2", keyType: "ed25519", perms: approver},
		{name: "approver3", keyType: "rsa", rsaPEM: demoRSAApprover3PEM, perms: approver3},
		{name: "viewer", keyType: "rsa", rsaPEM: demoRSAViewerPEM, perms: Permissions{ViewOnly: true}},
		{name: "restricted", keyType: "ecdsa", perms: Permissions{Convert: true, EnforceAllowedBeneficiaries: true}},
		// Not one of the names of §6: an access frozen for a month, so that
		// frozen accesses can be seen and tried.
		{name: "frozen", keyType: "ed25519", perms: operator},
	}
}

const demoDomain = "acme-treasury.example"

// buildDemo makes the demo state for a seed: same seed, same data (times
// are relative to the sandbox clock at start).
func (e *Engine) buildDemo(seed int64) (*state, error) {
	now := e.now()
	st := newState()
	r := newDemoRand(seed, "accounts")

	main := newAccount(r.uuid(), "Acme Treasury Ltda", "COMPANY", true, uuid.Nil, now.Add(-400*24*time.Hour))
	main.MainID = main.ID
	st.addAccount(main)
	for i, name := range []string{"Acme Payments", "Acme Brokerage", "Acme Sul"} {
		typ := "COMPANY"
		if i == 1 {
			typ = "INDIVIDUAL"
		}
		sub := newAccount(r.uuid(), name, typ, false, main.ID, now.Add(-time.Duration(300-60*i)*24*time.Hour))
		st.addAccount(sub)
	}
	for _, a := range append([]*Account{main}, st.subs...) {
		a.PixKey = r.uuid().String()
		a.Wallet = walletFromID(a.ID)
		a.TaxID = demoCNPJ(r)
	}

	for i, d := range demoAccesses() {
		pub, pemText, err := demoKey(seed, d.name, d.keyType, d.rsaPEM, d.sec1)
		if err != nil {
			return nil, fmt.Errorf("demo access %s: %w", d.name, err)
		}
		secret := derive(seed, "secret/"+d.name)
		created := now.Add(-time.Duration(200-10*i) * 24 * time.Hour)
		a := &Access{
			ID: r.uuid(), Name: d.name, Email: d.name + "@" + demoDomain, Perms: d.perms,
			CreatedAt: created, UpdatedAt: created, PasswordAt: created.Add(24 * time.Hour),
			KeyType: d.keyType, APIKey: "sbx_" + hex.EncodeToString(secret[:16]), PrivateKeyPEM: pemText, PublicKey: pub,
			Password:    "demo-" + hex.EncodeToString(secret[16:22]),
			EmailToken:  fmt.Sprintf("%06d", (int(secret[22])<<16|int(secret[23])<<8|int(secret[24]))%1000000),
			Blacklisted: map[uuid.UUID]bool{},
		}
		a.Perms.ID = r.uuid().String()
		a.Perms.UpdatedAt = fmtTime(created)
		if d.name != "viewer" {
			a.MFAID = r.uuid()
		}
		switch d.name {
		case "restricted":
			a.Blacklisted[st.subs[2].ID] = true
		case "frozen":
			a.FrozenUntil = now.Add(30 * 24 * time.Hour).Truncate(time.Second)
		}
		st.addAccess(a)
	}

	seedBalances(r, st)
	return st, nil
}

func seedBalances(r demoRand, st *state) {
	main := st.main
	main.balances["BRLA"] = decimal.RequireFromString("9457.170326")
	main.balances["USDC"] = r.amount(20000, 90000, 6)
	main.balances["USDT"] = r.amount(5000, 30000, 6)
	main.balances["EURC"] = r.amount(1000, 12000, 6)
	for _, a := range st.subs {
		a.balances["BRLA"] = r.amount(500, 50000, 6)
		a.balances["USDC"] = r.amount(100, 20000, 6)
		a.balances["USDT"] = r.amount(0, 5000, 6)
		a.balances["EURC"] = r.amount(0, 3000, 6)
	}
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
