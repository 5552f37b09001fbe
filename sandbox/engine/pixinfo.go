package engine

import (
	"fmt"
	"hash/fnv"
	"strings"

	"github.com/tesouro-treasury/tesouro/validate"
)

// The sandbox has no PIX directory, so its lookup of who a PIX key pays
// (GET .../pix-info) follows rules an integrator can rely on [decided]:
//   - a key that is not a valid PIX key (validate.PixKey) is 400 naming
//     pixKey; a missing key is 400 too;
//   - these valid keys are unknown to the directory (404 NOT_FOUND), so
//     that the "nobody holds this key" path can be exercised: e-mail keys at
//     pixUnknownDomain, phone keys ending in pixUnknownPhoneSuffix, and random
//     keys starting with pixUnknownEVPPrefix;
//   - a key registered as a BRL beneficiary of the caller's main account or
//     one of its sub-accounts resolves to that beneficiary's holder: its
//     userName when known, else its alias (the sandbox takes the name the
//     operator registered as the name on the account), with its tax id
//     when it has one;
//   - any other valid key resolves to a holder derived from the key alone
//     (the same key always gives the same name, tax id and bank). A CPF or
//     CNPJ key is its own holder's tax id.
//
// Tax ids are masked as the live service masks them: a CPF shows its middle
// six digits (***.982.247-**), a CNPJ its middle eight.
const (
	pixUnknownDomain      = "@unknown.example"
	pixUnknownPhoneSuffix = "0000"
	pixUnknownEVPPrefix   = "00000000-"
)

// Holder is who a PIX key pays, as the directory shows them (the tax id
// masked).
type Holder struct {
	Name, TaxID, BankName string
}

// PixHolder looks up who the PIX key (its kind and normalised form as
// validate.PixKey gives them) pays.
func (e *Engine) PixHolder(kind validate.PixKeyKind, key string) (Holder, error) {
	if pixKeyUnknown(kind, key) {
		return Holder{}, refuse(NotFound, CodeNotFound, "PIX key %s is not registered in the PIX directory", truncate(key, 80))
	}
	info := derivedHolder(kind, key)
	e.mu.RLock()
	if name, tax, ok := e.registeredHolder(key); ok {
		info.Name = name
		if tax != "" {
			info.TaxID = maskTaxID(tax)
		}
	}
	e.mu.RUnlock()
	return info, nil
}

func pixKeyUnknown(kind validate.PixKeyKind, key string) bool {
	switch kind {
	case validate.PixEmail:
		return strings.HasSuffix(key, pixUnknownDomain)
	case validate.PixPhone:
		return strings.HasSuffix(key, pixUnknownPhoneSuffix)
	case validate.PixEVP:
		return strings.HasPrefix(key, pixUnknownEVPPrefix)
	}
	return false
}

// registeredHolder finds a BRL beneficiary of the caller's accounts whose
// PIX key is key. The caller holds e.mu.
func (e *Engine) registeredHolder(key string) (name, taxID string, ok bool) {
	accts := append([]*Account{e.st.main}, e.st.subs...)
	for _, a := range accts {
		for _, b := range a.brl.all() {
			if b.PixKey != key {
				continue
			}
			if b.UserName != "" {
				return b.UserName, b.TaxID, true
			}
			return b.Alias, b.TaxID, true
		}
	}
	return "", "", false
}

var (
	holderFirst = []string{"Ana", "Bruno", "Carla", "Diego", "Elisa", "Fábio", "Gabriela", "Heitor", "Isabela", "João", "Larissa", "Marcos", "Natália", "Otávio", "Paula", "Rafael"}
	holderLast  = []string{"Almeida", "Barbosa", "Cardoso", "Duarte", "Esteves", "Ferreira", "Gomes", "Lima", "Moreira", "Nunes", "Oliveira", "Pereira", "Queiroz", "Ribeiro", "Souza", "Teixeira"}
	holderBanks = []string{"Banco do Brasil S.A.", "Caixa Econômica Federal", "Itaú Unibanco S.A.", "Banco Bradesco S.A.", "Banco Santander (Brasil) S.A.", "Nu Pagamentos S.A.", "Banco Inter S.A.", "Banco C6 S.A."}
)

// derivedHolder is the holder the sandbox's directory gives a key: a pure
// function of the key.
func derivedHolder(kind validate.PixKeyKind, key string) Holder {
	h := fnv.New64a()
	h.Write([]byte(key))
	n := h.Sum64()
	info := Holder{
		Name:     holderFirst[n%16] + " " + holderLast[(n>>8)%16] + " " + holderLast[(n>>16)%16],
		BankName: holderBanks[(n>>24)%uint64(len(holderBanks))],
	}
	switch kind {
	case validate.PixCPF, validate.PixCNPJ:
		info.TaxID = maskTaxID(key)
		if kind == validate.PixCNPJ {
			info.Name = holderLast[n%16] + " " + holderLast[(n>>8)%16] + " Ltda."
		}
	default:
		info.TaxID = maskTaxID(cpfFromNumber(n))
	}
	return info
}

// cpfFromNumber makes a CPF with valid check digits from n's low digits.
func cpfFromNumber(n uint64) string {
	d := make([]int, 11)
	for i := 8; i >= 0; i-- {
		d[i] = int(n % 10)
		n /= 10
	}
	for j := 9; j <= 10; j++ {
		sum := 0
		for i := 0; i < j; i++ {
			sum += d[i] * (j + 1 - i)
		}
		r := sum * 10 % 11
		if r == 10 {
			r = 0
		}
		d[j] = r
	}
	var b strings.Builder
	for _, x := range d {
		b.WriteByte(byte('0' + x))
	}
	return b.String()
}

// maskTaxID masks a CPF (11 digits) or CNPJ (14 characters) as the live
// service shows them; anything else is masked whole.
func maskTaxID(tax string) string {
	switch len(tax) {
	case 11:
		return fmt.Sprintf("***.%s.%s-**", tax[3:6], tax[6:9])
	case 14:
		return fmt.Sprintf("**.%s.%s/%s-**", tax[2:5], tax[5:8], tax[8:12])
	}
	return strings.Repeat("*", len(tax))
}
