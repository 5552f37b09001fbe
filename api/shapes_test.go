package api

import (
	"encoding/json"
	"testing"

	"github.com/google/uuid"
)

// The bytes each output block of service.md §7.1 puts on the wire, in
// every variant: live field names, and nothing a variant does not carry.
func TestTicketOutputBlockBytes(t *testing.T) {
	id := uuid.MustParse(benID)
	cases := []struct {
		name string
		req  CreateTicketRequest
		want string
	}{
		{"wallet by id", CreateTicketRequest{TicketBlockchainOutput: ToWallet(id)}, `{"ticketBlockchainOutput":{"beneficiaryWalletId":"` + benID + `"}}`},
		{"own wallet (nil id)", CreateTicketRequest{TicketBlockchainOutput: ToWallet(uuid.Nil)}, `{"ticketBlockchainOutput":{"beneficiaryWalletId":"00000000-0000-0000-0000-000000000000"}}`},
		{"inline wallet", CreateTicketRequest{TicketBlockchainOutput: &TicketBlockchainOutput{WalletChain: "BASE", WalletAddress: "0xabc", WalletMemo: "m"}}, `{"ticketBlockchainOutput":{"walletChain":"BASE","walletAddress":"0xabc","walletMemo":"m"}}`},
		{"PIX by beneficiary", CreateTicketRequest{TicketBrlPixOutput: PixToBeneficiary(id, "nf 1")}, `{"ticketBrlPixOutput":{"beneficiaryBrlBankAccountId":"` + benID + `","pixMessage":"nf 1"}}`},
		{"PIX by key", CreateTicketRequest{TicketBrlPixOutput: &TicketBrlPixOutput{PixKey: "a@b.co"}}, `{"ticketBrlPixOutput":{"pixKey":"a@b.co"}}`},
		{"PIX by BR Code", CreateTicketRequest{TicketBrlPixOutput: &TicketBrlPixOutput{BrCode: "000201"}}, `{"ticketBrlPixOutput":{"brCode":"000201"}}`},
		{"PIX by bank fields", CreateTicketRequest{TicketBrlPixOutput: &TicketBrlPixOutput{TaxID: "52998224725", UserName: "M", BankCode: "341", BranchCode: "1", AccountNumber: "2", AccountType: "checking"}},
			`{"ticketBrlPixOutput":{"taxId":"52998224725","userName":"M","bankCode":"341","branchCode":"1","accountNumber":"2","accountType":"checking"}}`},
		{"USD ACH", func() CreateTicketRequest { var r CreateTicketRequest; r.SetUSDOutput("ACH", id, "PO-1"); return r }(), `{"ticketUsdOutput":{"beneficiaryUsdBankAccountId":"` + benID + `","achReference":"PO-1"}}`},
		{"USD WIRE", func() CreateTicketRequest { var r CreateTicketRequest; r.SetUSDOutput("WIRE", id, "w"); return r }(), `{"ticketUsdWireOutput":{"beneficiaryUsdBankAccountId":"` + benID + `","wireMessage":"w"}}`},
		{"EUR SEPA", CreateTicketRequest{TicketEurSepaOutput: &TicketEurSepaOutput{BeneficiaryEurBankAccountID: id, SepaReference: "r"}}, `{"ticketEurSepaOutput":{"beneficiaryEurBankAccountId":"` + benID + `","sepaReference":"r"}}`},
		{"ARS CVU", CreateTicketRequest{TicketArsOutput: &TicketArsOutput{BeneficiaryArsBankAccountID: id}}, `{"ticketArsOutput":{"beneficiaryArsBankAccountId":"` + benID + `"}}`},
		{"COP", CreateTicketRequest{TicketCopOutput: &TicketCopOutput{BeneficiaryCopBankAccountID: id}}, `{"ticketCopOutput":{"beneficiaryCopBankAccountId":"` + benID + `"}}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.req.QuoteToken = "q"
			got, err := json.Marshal(tc.req)
			if err != nil {
				t.Fatal(err)
			}
			want := `{"quoteToken":"q",` + tc.want[1:]
			if string(got) != want {
				t.Errorf("wire:\n got %s\nwant %s", got, want)
			}
		})
	}
}

// Final is true for the four end states only; unknown values are shown
// as they come and polled on.
func TestTicketStatusFinal(t *testing.T) {
	final := map[TicketStatus]bool{TicketPaid: true, TicketFailed: true, TicketPartialFailed: true, TicketCanceled: true}
	for _, s := range append(TicketStatuses, "EXPIRED", "SOMETHING-NEW", "") {
		if s.Final() != final[s] {
			t.Errorf("%q.Final() = %v", s, s.Final())
		}
	}
	var tk Ticket
	if err := json.Unmarshal([]byte(`{"status":"SOMETHING-NEW"}`), &tk); err != nil || tk.Status != "SOMETHING-NEW" {
		t.Errorf("unknown status read as %q (%v)", tk.Status, err)
	}
}

// A ticket as the live service records it (service.md §8.2) reads into
// every field: the quote's rebatable fees, sendMethod and outputBrCode,
// the rebate, reason and failureReason, and the sender and receiver
// blocks with their ids, end-to-end id and hashes.
func TestTicketReadsTheLiveRecords(t *testing.T) {
	const body = `{"id":"` + ticketID + `","externalId":"","workspaceId":"` + benID + `","userId":"` + subID + `","status":"PAID","reason":"","failureReason":"",
"createdAt":"2026-11-27T12:00:00Z","updatedAt":"2026-11-27T12:00:05Z","expiresAt":"2026-11-27T12:05:00Z",
"quote":{"id":"` + benID + `","ticketId":"` + ticketID + `","inputCurrency":"BRLA","inputPaymentMethod":"INTERNAL","inputAmount":"582.446313","outputCurrency":"USDT","outputPaymentMethod":"INTERNAL","outputAmount":"100","markupCurrency":"","markupAmount":"0","sendMethod":"PERMIT","inputThirdParty":false,"outputThirdParty":false,"basePrice":"5.7895","pairName":"USDTBRLA","outputBrCode":"","ticketRefundId":"","createdAt":"2026-11-27T12:00:00Z",
"appliedFees":[{"type":"Markup Fee","description":"Total markup fees represented in the input currency.","amount":"0","currency":"BRLA","rebatable":false},{"type":"Conversion Fee","description":"Fees due to conversion from input currency to output currency.","amount":"3.494677","currency":"BRLA","rebatable":true}]},
"rebate":{"id":"` + subID + `","ticketId":"` + ticketID + `","amount":"0.3","currency":"USDT","destinationWalletAddress":"0xabc"},
"blockchainSenderInfo":{"id":"s","ticketId":"` + ticketID + `","walletAddress":"0xfrom","txHash":"0xin"},
"blockchainReceiverInfo":{"id":"r","ticketId":"` + ticketID + `","walletAddress":"0xto","walletChain":"POLYGON","walletMemo":"","txHash":"0xout"},
"brazilianFiatSenderInfo":{"id":"p","ticketId":"` + ticketID + `","name":"Pagador","taxId":"52998224725","bankCode":"60701190","branchCode":"0001","accountNumber":"1","accountType":"CACC","endToEndId":"E607"}}`
	var tk Ticket
	if err := json.Unmarshal([]byte(body), &tk); err != nil {
		t.Fatal(err)
	}
	q := tk.Quote
	if q.SendMethod != SendPermit || q.PairName != "USDTBRLA" || len(q.AppliedFees) != 2 || q.AppliedFees[0].Rebatable == nil || *q.AppliedFees[0].Rebatable || !*q.AppliedFees[1].Rebatable {
		t.Errorf("quote %+v", q)
	}
	if r := tk.Rebate; r == nil || r.Amount.String() != "0.3" || r.Currency != "USDT" || r.DestinationWalletAddress != "0xabc" || r.TicketID.String() != ticketID {
		t.Errorf("rebate %+v", tk.Rebate)
	}
	if s := tk.BlockchainSenderInfo; s == nil || s.ID != "s" || s.TxHash != "0xin" || s.WalletAddress != "0xfrom" {
		t.Errorf("blockchainSenderInfo %+v", s)
	}
	if r := tk.BlockchainReceiverInfo; r == nil || r.ID != "r" || r.TxHash != "0xout" || r.WalletChain != "POLYGON" {
		t.Errorf("blockchainReceiverInfo %+v", r)
	}
	if p := tk.BrazilianFiatSenderInfo; p == nil || p.EndToEndID != "E607" || p.AccountType != "CACC" || p.TicketID != ticketID {
		t.Errorf("brazilianFiatSenderInfo %+v", p)
	}
	if tk.WorkspaceID.String() != benID || tk.UserID.String() != subID || tk.Status != TicketPaid {
		t.Errorf("ticket %+v", tk)
	}
}
