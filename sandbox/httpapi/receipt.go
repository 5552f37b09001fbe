package httpapi

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/tesouro-treasury/tesouro/sandbox/records"
)

// receiptPDF renders a one-page PDF receipt of a paid ticket: a real,
// minimal PDF 1.4 document (Helvetica text, a correct cross-reference
// table) that any viewer opens.
func receiptPDF(t *records.Ticket, accountName string) []byte {
	q := &t.Quote
	lines := []string{
		"Payment receipt",
		"",
		"Account: " + accountName,
		"Ticket: " + t.ID.String(),
		"Status: " + string(t.Status),
		"Created: " + fmtTime(t.CreatedAt.Time),
		"Completed: " + fmtTime(t.UpdatedAt.Time),
		"",
		fmt.Sprintf("Paid in: %s %s via %s", q.InputAmount.String(), q.InputCurrency, q.InputPaymentMethod),
		fmt.Sprintf("Delivered: %s %s via %s", q.OutputAmount.String(), q.OutputCurrency, q.OutputPaymentMethod),
		"Base price: " + q.BasePrice.String() + " (" + q.PairName + ")",
	}
	for _, f := range q.AppliedFees {
		lines = append(lines, fmt.Sprintf("Fee: %s %s %s", f.Type, f.Amount.String(), f.Currency))
	}
	if t.ExternalID != "" {
		lines = append(lines, "External id: "+t.ExternalID)
	}
	if r := t.BrazilianFiatReceiverInfo; r != nil {
		lines = append(lines, "Receiver: "+r.UserName+" "+r.PixKey, "End-to-end id: "+r.EndToEndID)
	}
	if r := t.BlockchainReceiverInfo; r != nil {
		lines = append(lines, "Receiver wallet: "+r.WalletAddress+" ("+r.WalletChain+")", "Transaction: "+r.TxHash)
	}
	if r := t.AmericanFiatReceiverInfo; r != nil {
		lines = append(lines, "Receiver: "+r.AccountHolderName+" "+r.BankRoutingNumber+" "+r.BankAccountNumber)
	}
	if s := t.BrazilianFiatSenderInfo; s != nil {
		lines = append(lines, "Payer end-to-end id: "+s.EndToEndID)
	}
	lines = append(lines, "", "Issued by the Tesouro sandbox: not a real payment.")

	var content bytes.Buffer
	content.WriteString("BT /F1 16 Tf 56 780 Td ")
	for i, l := range lines {
		if i == 1 {
			content.WriteString("/F1 10 Tf ")
		}
		fmt.Fprintf(&content, "(%s) Tj 0 -16 Td ", pdfText(l))
	}
	content.WriteString("ET")

	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", content.Len(), content.String()),
	}
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
	offsets := make([]int, len(objs))
	for i, o := range objs {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, xref)
	return b.Bytes()
}

// pdfText escapes a line for a PDF string; non-ASCII becomes "?".
func pdfText(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '(' || r == ')' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 32 || r > 126:
			b.WriteByte('?')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
