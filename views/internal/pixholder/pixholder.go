// Package pixholder names who a PIX payout reaches, before anyone confirms
// it: the holder of the key as the PIX directory (pix-info) answers, or the
// beneficiary record's holder for a payout to bank fields. The quote's
// confirmation (the requester's) and the approver's confirmation both use
// it, so that the person who sends the money and the person who lets it go
// read the same line about who receives it.
package pixholder

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/brcode"
	"github.com/tesouro-treasury/tesouro/ui"
)

// Holder is who a PIX payout reaches.
type Holder struct {
	// Key is the PIX key looked up ("" for a payout to bank fields).
	Key  string
	Info api.PixInfo
	// Record is true when the names come from a beneficiary record or the
	// request's own bank fields: the directory has no key to answer for.
	Record bool
}

// Directory is the PIX directory: who holds a key.
type Directory interface {
	PixInfo(ctx context.Context, pixKey string) (*api.PixInfo, error)
}

// Records reads the registered BRL beneficiary a payout names by id.
type Records func(ctx context.Context, id uuid.UUID) (*api.BRLAccount, error)

// Of resolves who out pays: the key typed or carried by a BR Code, else the
// registered beneficiary's key (read with records), else the bank fields of
// the record or of out itself. A key is asked of dir; an unknown key is the
// directory's error (a *api.Error with status 404), returned with the key.
func Of(ctx context.Context, dir Directory, records Records, out api.TicketBrlPixOutput) (Holder, error) {
	key := out.PixKey
	if key == "" && out.BrCode != "" {
		if p, err := brcode.Parse(out.BrCode); err == nil {
			key = p.Key
		}
	}
	if key == "" && out.BeneficiaryBrlBankAccountID != nil {
		b, err := records(ctx, *out.BeneficiaryBrlBankAccountID)
		if err != nil {
			return Holder{}, err
		}
		if b.PixKey == "" {
			return record(b.UserName, b.TaxID, b.BankCode), nil
		}
		key = b.PixKey
	}
	if key == "" {
		return record(out.UserName, out.TaxID, out.BankCode), nil
	}
	return Key(ctx, dir, key)
}

// Key asks dir who holds key: the holder, or the directory's error (a
// *api.Error with status 404 for a key it does not know).
func Key(ctx context.Context, dir Directory, key string) (Holder, error) {
	info, err := dir.PixInfo(ctx, key)
	if err != nil {
		return Holder{Key: key}, err
	}
	if info == nil {
		return Holder{Key: key}, errors.New("the PIX directory answered without a holder")
	}
	return Holder{Key: key, Info: *info}, nil
}

// record is the holder as a record's (or a request's) bank fields name it.
func record(name, taxID, bankCode string) Holder {
	bank := ""
	if bankCode != "" {
		bank = "bank " + bankCode
	}
	return Holder{Record: true, Info: api.PixInfo{Name: name, TaxID: MaskTaxID(taxID), BankName: bank}}
}

// MaskTaxID hides a tax id's middle the way the directory does for a CPF
// (***.982.247-**) or a CNPJ, keeping only digits that identify it to a
// person; anything else is left as it is.
func MaskTaxID(tax string) string {
	d := strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, tax)
	switch len(d) {
	case 11:
		return "***." + d[3:6] + "." + d[6:9] + "-**"
	case 14:
		return "**." + d[2:5] + "." + d[5:8] + "/" + d[8:12] + "-**"
	}
	return tax
}

// Lookup is what a screen keeps of one look-up: the holder, or why there
// is none.
type Lookup struct {
	// Holder is the answer, nil until one came or when it failed.
	Holder *Holder
	// Err says why the look-up failed ("" when it did not).
	Err string
	// Missing is true when the directory does not know the key: nobody
	// holds it, so a payout to it cannot arrive.
	Missing bool
}

// Take records the answer of a look-up.
func (l *Lookup) Take(h Holder, err error) {
	*l = Lookup{}
	if err != nil {
		var e *api.Error
		l.Missing = errors.As(err, &e) && e.Status == http.StatusNotFound
		l.Err = ui.ErrorText(err)
		return
	}
	l.Holder = &h
}

// Refusal is why nobody can be paid by the key looked up, without a mark
// ("" unless the directory does not know the key): a screen that marks
// errors itself (a form's ✗) shows it as Line would.
func (l Lookup) Refusal() string {
	if !l.Missing || l.Err == "" {
		return ""
	}
	return "no holder for this key: " + l.Err
}

// Styles are the looks of the holder line: the name, a remark, a doubt
// and a refusal.
type Styles struct {
	Value, Dim, Warn, Err lipgloss.Style
}

// Line is the one line naming the holder, or what is known of it while
// waiting or after a failure; ok is false when there is nothing to say (no
// look-up was made).
func (l Lookup) Line(st Styles, waiting bool) (line string, ok bool) {
	switch {
	case waiting:
		return st.Dim.Render("looking up the PIX directory…"), true
	case l.Err != "" && l.Missing:
		return st.Err.Render("✗ " + l.Refusal()), true
	case l.Err != "":
		return st.Warn.Render("! not confirmed: " + l.Err), true
	case l.Holder == nil:
		return "", false
	}
	i := l.Holder.Info
	var parts []string
	if i.Name != "" {
		parts = append(parts, st.Value.Render(i.Name))
	} else {
		// Nobody named: the reader must not take the tax id for a name.
		parts = append(parts, st.Warn.Render("no name given"))
	}
	for _, p := range []string{i.TaxID, i.BankName} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	text := strings.Join(parts, " · ")
	if l.Holder.Record {
		text += st.Dim.Render(" (beneficiary record)")
	}
	return text, true
}
