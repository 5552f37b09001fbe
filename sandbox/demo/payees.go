package demo

import (
	"fmt"
	"math/big"
	"strconv"
	"time"

	"github.com/tesouro-treasury/tesouro/sandbox/engine"
	"github.com/tesouro-treasury/tesouro/sandbox/records"
	"github.com/tesouro-treasury/tesouro/validate"
)

// The demo's EUR (SEPA) and ARS (CVU) beneficiaries: 2–3 of each per
// account, like the other kinds (spec/service.md §6). They are drawn from
// their own random stream, so that adding them left every other record of
// a seed as it was (tickets, operations and the rest draw from the
// activity stream). The banks are real ones with their real BIC and bank
// codes; the account numbers are drawn, and every check digit is computed
// (the IBAN's mod 97, and the national key where the country has one; both
// of a CVU's blocks), so each record passes validate.IBAN, validate.BIC and
// validate.CVU as one typed by a user would.

// eurPayee is a SEPA payee: its bank, and how that country builds the
// account part (BBAN) of an IBAN from the bank code and a drawn number.
type eurPayee struct {
	name     string
	business bool
	bic      string
	bban     func(r demoRand) string
}

var demoEURPayees = []eurPayee{
	{"Müller Logistik GmbH", true, "COBADEFFXXX", func(r demoRand) string { return "37040044" + r.digits(10) }},
	{"Atelier Moreau SAS", true, "BNPAFRPPXXX", func(r demoRand) string { return frenchBBAN("30004", r.digits(5), r.digits(11)) }},
	{"Distribuciones García SL", true, "CAIXESBBXXX", func(r demoRand) string { return spanishBBAN("2100", r.digits(4), r.digits(10)) }},
	{"Van Dijk Trading BV", true, "INGBNL2AXXX", func(r demoRand) string { return "INGB" + r.digits(10) }},
	{"Sophie Martin", false, "PSSTFRPPXXX", func(r demoRand) string { return frenchBBAN("20041", r.digits(5), r.digits(11)) }},
	{"Huber Holzbau GmbH", true, "BKAUATWWXXX", func(r demoRand) string { return "12000" + r.digits(11) }},
	{"Shannon Software Ltd", true, "AIBKIE2DXXX", func(r demoRand) string { return "AIBK931152" + r.digits(8) }},
}

// arsPayee is an Argentine payee: the first 7 digits of its CVU are the
// entity (a bank and branch for a CBU, 000 and the payment provider for a
// CVU).
type arsPayee struct {
	name, entity string
}

var demoARSPayees = []arsPayee{
	{"Transportes Mendoza SRL", "0170099"},   // BBVA Argentina
	{"Carolina Gómez", "0000003"},            // Mercado Pago
	{"Bodega Luján SA", "0110599"},           // Banco de la Nación Argentina
	{"Estudio Fernández & Asoc.", "0070055"}, // Banco Galicia
	{"Lucas Benítez", "0000003"},             // Mercado Pago
}

// payees gives the account its EUR and ARS beneficiaries, drawn from r.
func (pa *past) payees(r demoRand, a *engine.Account) {
	now := pa.now
	at := func() time.Time { return now.Add(-time.Duration(100+r.IntN(200)) * 24 * time.Hour) }
	for _, i := range r.Perm(len(demoEURPayees))[:2+r.IntN(2)] {
		p := demoEURPayees[i]
		iban := withIBANCheck(p.bic[4:6], p.bban(r))
		country, _ := validate.Alpha2To3(iban[:2])
		b := &records.EURAccount{ID: r.uuid(), Alias: p.name, Description: "demo SEPA payee", IBAN: iban, BIC: p.bic,
			Country: country, BankBeneficiaryName: p.name, IsBusiness: p.business, CreatedAt: records.NewTime(at())}
		pa.e.EURAccounts().Put(a, b.CreatedAt.Time, b.ID, b)
	}
	for _, i := range r.Perm(len(demoARSPayees))[:2+r.IntN(2)] {
		p := demoARSPayees[i]
		b := &records.ARSAccount{ID: r.uuid(), Alias: p.name, Description: "demo CVU payee", CVU: demoCVU(p.entity, r.digits(13)), CreatedAt: records.NewTime(at())}
		pa.e.ARSAccounts().Put(a, b.CreatedAt.Time, b.ID, b)
	}
}

// withIBANCheck is the IBAN of a country's BBAN: the two check digits make
// the ISO 7064 mod 97 of the rearranged number 1.
func withIBANCheck(country, bban string) string {
	n := new(big.Int)
	n.SetString(ibanDigits(bban+country+"00"), 10)
	check := 98 - new(big.Int).Mod(n, big.NewInt(97)).Int64()
	return fmt.Sprintf("%s%02d%s", country, check, bban)
}

// ibanDigits writes the letters of an IBAN as numbers (A=10 … Z=35).
func ibanDigits(s string) string {
	out := make([]byte, 0, 2*len(s))
	for _, c := range s {
		if c >= 'A' && c <= 'Z' {
			out = strconv.AppendInt(out, int64(c-'A'+10), 10)
		} else {
			out = append(out, byte(c))
		}
	}
	return string(out)
}

// frenchBBAN is bank, branch, account and the RIB key, the French
// account's own check: 97 − (89·bank + 15·branch + 3·account) mod 97.
func frenchBBAN(bank, branch, account string) string {
	v := func(s string) *big.Int { n, _ := new(big.Int).SetString(s, 10); return n }
	sum := new(big.Int).Mul(big.NewInt(89), v(bank))
	sum.Add(sum, new(big.Int).Mul(big.NewInt(15), v(branch)))
	sum.Add(sum, new(big.Int).Mul(big.NewInt(3), v(account)))
	key := 97 - new(big.Int).Mod(sum, big.NewInt(97)).Int64()
	return fmt.Sprintf("%s%s%s%02d", bank, branch, account, key)
}

// spanishBBAN is bank, branch, the two control digits (one over bank and
// branch, one over the account) and the account.
func spanishBBAN(bank, branch, account string) string {
	dc := func(s string) int {
		weights := []int{1, 2, 4, 8, 5, 10, 9, 7, 3, 6}
		sum := 0
		for i, c := range s {
			sum += int(c-'0') * weights[i]
		}
		switch d := 11 - sum%11; d {
		case 11:
			return 0
		case 10:
			return 1
		default:
			return d
		}
	}
	return fmt.Sprintf("%s%s%d%d%s", bank, branch, dc("00"+bank+branch), dc(account), account)
}

// demoCVU is the CVU of an entity (7 digits) and an account (13 digits),
// each block closed by its check digit.
func demoCVU(entity, account string) string {
	check := func(block string, weights []int) byte {
		sum := 0
		for i, w := range weights {
			sum += int(block[i]-'0') * w
		}
		return byte('0' + (10-sum%10)%10)
	}
	first := entity + string(check(entity, []int{7, 1, 3, 9, 7, 1, 3}))
	second := account + string(check(account, []int{3, 9, 7, 1, 3, 9, 7, 1, 3, 9, 7, 1, 3}))
	return first + second
}
