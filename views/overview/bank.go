package overview

import (
	"context"
	"errors"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/validate"
)

// The account's own BRL bank account, under Receive: what a payer needs to
// send the operated account a TED (bank, branch, account, and the holder a
// bank checks the transfer against).

func (m *Screen) loadBank() tea.Cmd {
	svc, account := m.svc, m.s.Account.ID
	return ui.Fetch(m.s, &m.bankReq, requestTimeout, func(ctx context.Context) (*api.OwnBRLAccount, error) {
		return svc.OwnBRLAccount(ctx, account)
	})
}

// takeBank takes an answer for the bank block; a failed read keeps the
// details before it (they do not change while the account exists).
func (m *Screen) takeBank(msg ui.Result[*api.OwnBRLAccount]) {
	if !m.bankReq.Take(msg) {
		return
	}
	m.bankErr = msg.Err
	if msg.Err == nil {
		m.bank = msg.Value
	}
	m.SetSize(m.w, m.h)
}

// bankLines are the TED details in w cells: the bank, branch and account
// on one line, the holder and tax id on the next; nothing until the
// service answered.
func (m *Screen) bankLines(w int) []string {
	t := m.s.Styles()
	label := "  " + t.Label.Render(ui.PadRight("TED", chainWidth))
	switch {
	case m.bank == nil && m.bankErr != nil:
		if ae, ok := errors.AsType[*api.Error](m.bankErr); ok && ae.Code == "IDENTITY_NOT_CONFIRMED" {
			return []string{ui.Fit(label+t.Muted.Render("none until the account's KYC is approved"), w, 1)}
		}
		return []string{ui.Fit(label+t.Error.Render("✗ "+ui.ErrorText(m.bankErr)), w, 1)}
	case m.bank == nil:
		return nil
	}
	b := m.bank
	where := "branch " + b.BranchCode + " · account " + b.AccountNumber
	indent := "  " + ui.PadRight("", chainWidth)
	var lines []string
	switch named := b.BankCode + " " + b.BankName + " · " + where; {
	case 2+chainWidth+lipgloss.Width(named) <= w:
		lines = append(lines, label+t.Value.Render(named))
	case 2+chainWidth+lipgloss.Width("bank "+b.BankCode+" · "+where) <= w:
		lines = append(lines, label+t.Value.Render("bank "+b.BankCode+" · "+where))
	default:
		// Narrow: each part on its own line, nothing cut that a payer
		// must type.
		lines = append(lines, label+t.Value.Render("bank "+b.BankCode), "    "+t.Value.Render("branch "+b.BranchCode), "    "+t.Value.Render("account "+b.AccountNumber))
		indent = "    "
	}
	if holder := b.HolderName + " · " + taxIDText(b.TaxID); lipgloss.Width(indent+holder) <= w {
		lines = append(lines, indent+t.Value.Render(holder))
	} else {
		lines = append(lines, ui.Fit(indent+t.Value.Render(b.HolderName), w, 1), indent+t.Value.Render(taxIDText(b.TaxID)))
	}
	for i, l := range lines {
		lines[i] = ui.Fit(l, w, 1)
	}
	return lines
}

// tedColumn is the TED details as a block of the left column (w cells,
// room lines left under the blocks above it): a blank line, the title and
// each part on its own line; when they do not all fit, one line saying
// that b copies them; nothing until the service answered, or when there
// is not even room for that.
func (m *Screen) tedColumn(w, room int) []string {
	t := m.s.Styles()
	title := t.Title.Render("Receive by TED")
	var body []string
	switch b := m.bank; {
	case b == nil && m.bankErr != nil:
		if ae, ok := errors.AsType[*api.Error](m.bankErr); ok && ae.Code == "IDENTITY_NOT_CONFIRMED" {
			for _, l := range wrapWords("  ", strings.Fields("none until the account's KYC is approved"), w) {
				body = append(body, t.Muted.Render(l))
			}
		} else {
			body = []string{ui.Fit("  "+t.Error.Render("✗ "+ui.ErrorText(m.bankErr)), w, 1)}
		}
	case b == nil:
		return nil
	default:
		title += t.Muted.Render(" · b copies")
		body = append(body, "  "+t.Value.Render(b.BankCode+" "+b.BankName), "  "+t.Value.Render("branch "+b.BranchCode),
			"  "+t.Value.Render("account "+b.AccountNumber+" ("+b.AccountType+")"))
		body = append(body, wrapWords("  ", strings.Fields(b.HolderName), w)...)
		body = append(body, "  "+t.Value.Render(taxIDText(b.TaxID)))
	}
	if 2+len(body) <= room {
		lines := []string{"", title}
		for _, l := range body {
			lines = append(lines, ui.Fit(l, w, 1))
		}
		return lines
	}
	if m.bank != nil && room >= 2 {
		return []string{"", ui.Fit(t.Title.Render("TED")+t.Muted.Render(": a taller window · b copies"), w, 1)}
	}
	return nil
}

// bankText is the TED details as a payer types them, for the clipboard.
func bankText(b *api.OwnBRLAccount) string {
	return "Bank " + b.BankCode + " " + b.BankName + "\nBranch " + b.BranchCode + "\nAccount " + b.AccountNumber + " (" + b.AccountType + ")\n" +
		b.HolderName + "\n" + taxIDText(b.TaxID) + "\n"
}

// taxIDText is a CPF or CNPJ punctuated and named, else as it came.
func taxIDText(id string) string {
	n, kind, err := validate.TaxID(id)
	switch {
	case err != nil:
		return id
	case kind == validate.KindCPF:
		return "CPF " + n[0:3] + "." + n[3:6] + "." + n[6:9] + "-" + n[9:]
	}
	return "CNPJ " + n[0:2] + "." + n[2:5] + "." + n[5:8] + "/" + n[8:12] + "-" + n[12:]
}
