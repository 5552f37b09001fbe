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
