package httpapi

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/sandbox/records"
)

// TestReceiptPDFStructure checks what a PDF reader relies on: the header,
// every cross-reference offset pointing at its object, the stream length,
// startxref and the trailer.
func TestReceiptPDFStructure(t *testing.T) {
	tk := &records.Ticket{
		ID: uuid.New(), Status: records.TicketPaid, ExternalID: "inv (42) \\ à",
		CreatedAt: records.NewTime(time.Now()), UpdatedAt: records.NewTime(time.Now()),
		Quote: records.TicketQuote{InputCurrency: "BRL", InputPaymentMethod: "PIX", InputAmount: decimal.RequireFromString("100"),
			OutputCurrency: "BRLA", OutputPaymentMethod: "INTERNAL", OutputAmount: decimal.RequireFromString("99.9"), BasePrice: decimal.NewFromInt(1),
			AppliedFees: []records.Fee{{Type: "Conversion Fee", Amount: decimal.RequireFromString("0.1"), Currency: "BRL"}}},
		BrazilianFiatSenderInfo: &records.BrazilianFiatSenderInfo{EndToEndID: "E123"},
	}
	pdf := receiptPDF(tk, "Acme Treasury Ltda")
	if !bytes.HasPrefix(pdf, []byte("%PDF-1.4\n")) || !bytes.HasSuffix(pdf, []byte("%%EOF\n")) {
		t.Fatal("no PDF header or trailer")
	}
	m := regexp.MustCompile(`startxref\n(\d+)\n`).FindSubmatch(pdf)
	if m == nil {
		t.Fatal("no startxref")
	}
	xref, _ := strconv.Atoi(string(m[1]))
	if !bytes.HasPrefix(pdf[xref:], []byte("xref\n0 6\n")) {
		t.Fatalf("startxref %d does not point at the xref table", xref)
	}
	lines := strings.Split(string(pdf[xref:]), "\n")[3:8]
	for i, l := range lines {
		off, _ := strconv.Atoi(l[:10])
		if want := fmt.Sprintf("%d 0 obj", i+1); !bytes.HasPrefix(pdf[off:], []byte(want)) {
			t.Errorf("xref entry %d points at %q", i+1, pdf[off:off+10])
		}
	}
	sm := regexp.MustCompile(`/Length (\d+) >>\nstream\n`).FindSubmatchIndex(pdf)
	n, _ := strconv.Atoi(string(pdf[sm[2]:sm[3]]))
	if !bytes.HasPrefix(pdf[sm[1]+n:], []byte("\nendstream")) {
		t.Error("stream /Length does not match the stream")
	}
	if !bytes.Contains(pdf, []byte(`inv \(42\) \\ ?`)) {
		t.Error("text not escaped for PDF strings")
	}
	if !bytes.Contains(pdf, []byte(tk.ID.String())) {
		t.Error("the receipt does not name the ticket")
	}
}
