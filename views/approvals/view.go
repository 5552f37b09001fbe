package approvals

import (
	"errors"
	"fmt"
	"strings"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
)

// View implements ui.Screen.
func (m *Screen) View() string {
	if m.showMine {
		return m.mine.view(m.s.Styles().Muted.Render("m inbox ·"))
	}
	if m.open != "" {
		return m.detailView()
	}
	lines := []string{m.summaryLine()}
	lines = append(lines, strings.Split(m.table.View(), "\n")...)
	lines = lines[:min(len(lines), m.height-1)]
	for len(lines) < m.height-1 {
		lines = append(lines, "")
	}
	lines = append(lines, m.actionLine(m.current()))
	return ui.Fit(strings.Join(lines, "\n"), m.width, m.height)
}

func (m *Screen) summaryLine() string {
	th := m.s.Styles()
	switch {
	case m.notApprover:
		return th.Warn.Render("⊘ the approval inbox is for approvers, and this access is not one · m: your own requests")
	case m.err != nil && errors.Is(m.err, api.ErrForbidden):
		return th.Warn.Render("⊘ the approval inbox is for approvers, and this access is not one (the service answered 403)")
	case m.err != nil:
		return th.Error.Render("✗ inbox not loaded: " + ui.ErrorText(m.err) + " (r retries)")
	case !m.loaded:
		return th.Muted.Render("loading the approval inbox…")
	}
	pending := m.Pending()
	s := fmt.Sprintf("%d pending · %d decided", pending, len(m.table.Items())-pending)
	if n := len(m.marked); n > 0 {
		s += fmt.Sprintf(" · %d selected (a approves them, space unselects)", n)
	}
	if m.listing.Waiting() {
		s += " · refreshing…"
	}
	return th.Title.Render(s)
}

// actionLine says what can be done with the operation, or why not.
func (m *Screen) actionLine(it *item) string {
	th := m.s.Styles()
	if it == nil {
		return ""
	}
	switch it.op.Status {
	case api.OperationExecuted:
		return th.StatusWord(api.MeaningDone, "EXECUTED: ticket "+it.op.ExecutedID) + th.Muted.Render(" · t opens it")
	case api.OperationRejected:
		return th.Bad.Render("✗ " + it.op.Rejection())
	case api.OperationPending:
	default:
		r := string(it.op.Status)
		if it.op.Reason != "" {
			r += ": " + it.op.Reason
		}
		return th.StatusWord(it.op.Status.Meaning(), r)
	}
	if it.sending {
		return th.Muted.Render("sending your decision…")
	}
	if m.after.id == it.op.ID.String() || m.batch.Waiting() {
		return th.Muted.Render("fetching the latest state before asking you to confirm…")
	}
	if err := m.approveBlock(it); err != nil {
		if m.rejectBlock(it) == nil {
			return th.Warn.Render("approve unavailable: " + ui.ErrorText(err) + " · x reject")
		}
		return th.Warn.Render("⊘ " + ui.ErrorText(err))
	}
	return th.Muted.Render("enter details · a approve · x reject")
}

func (m *Screen) detailView() string {
	th := m.s.Styles()
	it := m.item(m.open)
	if it == nil {
		return ui.Fit(th.Muted.Render("loading operation "+m.open+"…")+"\n\n"+th.Muted.Render("esc back to the inbox"), m.width, m.height)
	}
	body := m.detailLines(it)
	room := max(m.height-1, 1)
	m.scroll = min(m.scroll, max(len(body)-room, 0))
	body = body[m.scroll:min(len(body), m.scroll+room)]
	for len(body) < room {
		body = append(body, "")
	}
	lines := append(body, m.actionLine(it))
	if m.height == 1 {
		lines = lines[len(lines)-1:]
	}
	return ui.Fit(strings.Join(lines, "\n"), m.width, m.height)
}

func (m *Screen) kv(label, value string) string {
	th := m.s.Styles()
	return "  " + th.Label.Render(ui.PadRight(label, 13)) + " " + value
}

func (m *Screen) detailLines(it *item) []string {
	th := m.s.Styles()
	op := it.op
	l := []string{th.Title.Render(fmt.Sprintf("Operation %s · %s · %s · %d/%d approvals",
		op.ID, op.OperationType, op.Status, op.Approvals, op.MinApprovals))}
	created := ""
	if !op.CreatedAt.IsZero() {
		created = op.CreatedAt.Local().Format("2006-01-02 15:04:05") + " (" + age(m.s.Now(), op.CreatedAt.Time) + " ago)"
	}
	l = append(l, m.kv("Requester", op.RequesterEmail), m.kv("Created", created), m.kv("Account", accountLine(op)))
	if m.own(it) {
		l = append(l, m.kv("", th.Warn.Render("your own request: it cannot be approved by you")))
	}
	if op.ExecutedID != "" {
		l = append(l, m.kv("Ticket", op.ExecutedID+" (t opens it)"))
	}
	if op.RejectedBy != "" {
		l = append(l, m.kv("Rejected by", op.RejectedBy))
	}
	if op.Reason != "" {
		l = append(l, m.kv("Reason", op.Reason))
	}
	l = append(l, m.kv("Destination", destinationOf(op, it.quote).Line(op)))
	if it.detail == nil {
		return append(l, "", th.Muted.Render("loading the detail…"))
	}
	l = append(l, "", th.Title.Render("Approvers"))
	if len(it.detail.Approvers) == 0 {
		l = append(l, m.kv("", "none listed"))
	}
	for _, a := range it.detail.Approvers {
		// Padded to the width of "✓ approved" so the e-mails line up.
		state := "· waiting "
		switch {
		case a.HasApproved:
			state = th.Good.Render("✓ approved")
		case op.RejectedBy != "" && strings.EqualFold(a.Email, op.RejectedBy):
			state = th.Warn.Render("✗ rejected")
		case op.Status != api.OperationPending:
			state = "· no vote "
		}
		who := a.Email
		if strings.EqualFold(a.Email, m.myEmail()) {
			who += " (you)"
		}
		l = append(l, "  "+state+"  "+who)
	}
	l = append(l, "", th.Title.Render("Quote"))
	if q := it.quote; q != nil {
		l = append(l, m.kv("Sends", q.Sends()+" via "+q.InputMethod), m.kv("Receives", q.Receives()+" via "+q.OutputMethod),
			m.kv("Price", q.price().String()))
		if p := q.price(); p.Base != p.Quote {
			l = append(l, m.kv("Inverse", p.Inverse().String()))
		}
		if q.SendMethod != "" {
			l = append(l, m.kv("Send method", q.SendMethod))
		}
		if q.MarkupCurrency != "" && !q.MarkupAmount.IsZero() {
			l = append(l, m.kv("Markup", amount(q.MarkupAmount, q.MarkupCurrency)))
		}
		for i, f := range q.feeLines() {
			label := ""
			if i == 0 {
				label = "Fees"
			}
			l = append(l, m.kv(label, f))
		}
	} else {
		l = append(l, m.kv("", "the service sent no decoded quote"))
	}
	if bf := beneficiaryFields(op.Beneficiary); len(bf) > 0 {
		l = append(l, "", th.Title.Render("Beneficiary record"))
		for _, f := range bf {
			l = append(l, m.kv(f.Key, f.Value))
		}
	}
	if pf := payloadFields(op.Payload); len(pf) > 0 {
		l = append(l, "", th.Title.Render("Request (payload)"))
		for _, f := range pf {
			l = append(l, "  "+th.Label.Render(f.Key)+" "+f.Value)
		}
	}
	return l
}
