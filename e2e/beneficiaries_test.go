package e2e

import (
	"strings"
	"testing"
	"time"
)

// TestE2EBeneficiaryForms: as operator, a BRL bank account with a wrong CPF
// is refused on the field before anything is sent, then the corrected one is
// registered and listed; a wallet whose EIP-55 checksum does not match is
// refused, then accepted once fixed. A viewer sees no write action.
func TestE2EBeneficiaryForms(t *testing.T) {
	creds, tm := openBeneficiaries(t)

	// BRL, bank account.
	tm.Send("Right")
	tm.WaitFor("[BRL", 5*time.Second)
	tm.Send("n")
	tm.WaitFor("New BRL beneficiary", 5*time.Second)
	tm.Type("E2E Fornecedor")
	tm.Send("Tab", "Right", "Tab") // pay to: bank account
	tm.WaitFor("CPF/CNPJ", 3*time.Second)
	tm.Type("529.982.247-24")
	tm.Send("Tab")
	tm.WaitFor("check digits do not match", 3*time.Second)
	tm.Type("Fulano de Tal")
	tm.Send("Tab")
	tm.Type("341")
	tm.Send("Tab")
	tm.Type("0001")
	tm.Send("Tab")
	tm.Type("12345-6")
	tm.Send("C-s") // refused locally: the focus goes back to the CPF
	s := tm.WaitFor("› CPF/CNPJ", 3*time.Second)
	if !strings.Contains(s, "check digits do not match") || strings.Contains(s, "E2E Fornecedor  ") && strings.Contains(s, "[BRL") {
		t.Fatalf("the wrong CPF is not refused on its field:\n%s", s)
	}
	tm.Send("BSpace")
	tm.Type("5")
	tm.WaitFor("recognised: CPF 52998224725", 3*time.Second)
	saveConfirmed(tm)
	s = tm.WaitFor("[BRL 3]", 10*time.Second)
	if !strings.Contains(s, "E2E Fornecedor") || !strings.Contains(s, "341 0001 123456") {
		t.Fatalf("the corrected beneficiary is not listed:\n%s", s)
	}

	// Wallet on POLYGON (the first chain).
	tm.Send("Left")
	tm.WaitFor("[Wallets", 5*time.Second)
	tm.Send("n")
	tm.WaitFor("New beneficiary wallet", 5*time.Second)
	tm.Type("E2E Wallet")
	tm.Send("Tab", "Tab")
	tm.Type("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD")
	tm.Send("C-s")
	tm.WaitFor("EIP-55 checksum does not match", 3*time.Second)
	tm.Send("BSpace")
	tm.Type("d")
	tm.WaitFor("checksummed form: 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", 3*time.Second)
	saveConfirmed(tm)
	s = tm.WaitFor("[Wallets 5]", 10*time.Second)
	if !strings.Contains(s, "E2E Wallet") || !strings.Contains(s, "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed") {
		t.Fatalf("the fixed wallet is not listed:\n%s", s)
	}

	// A lower-case address is accepted with its checksummed form sent.
	tm.Send("n")
	tm.WaitFor("New beneficiary wallet", 5*time.Second)
	tm.Type("E2E Lower")
	tm.Send("Tab", "Tab")
	tm.Type("0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359")
	tm.WaitFor("no EIP-55 checksum", 3*time.Second)
	saveConfirmed(tm)
	s = tm.WaitFor("[Wallets 6]", 10*time.Second)
	if !strings.Contains(s, "E2E Lower") || !strings.Contains(s, "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359") {
		t.Fatalf("the lower-case wallet is not listed in its checksummed form:\n%s", s)
	}

	es := readJournal(t, tm)
	var actions []string
	for _, e := range es {
		actions = append(actions, e.Action+" "+e.Outcome)
	}
	want := []string{"create-beneficiary-brl created", "create-beneficiary-wallet created", "create-beneficiary-wallet created"}
	if strings.Join(actions, ",") != strings.Join(want, ",") {
		t.Fatalf("journal = %v, want %v (refused forms are never sent)", actions, want)
	}

	// Delete asks first; anything but y keeps the wallet.
	tm.Send("d")
	s = tm.WaitFor("Delete wallet", 5*time.Second)
	if !strings.Contains(s, "cannot be undone") {
		t.Fatalf("delete confirmation:\n%s", s)
	}
	tm.Send("y")
	tm.WaitFor("deleted", 10*time.Second)
	tm.WaitFor("[Wallets 5]", 10*time.Second)

	// A view-only access gets no write action and is told why.
	viewer := openAs(t, creds, "viewer")
	viewer.Send("5")
	viewer.WaitFor("read only: this access is view-only", 10*time.Second)
	viewer.Send("n")
	viewer.WaitFor("Cannot add a beneficiary", 5*time.Second)
}

// openBeneficiaries starts a fresh sandbox and the dashboard as the demo
// operator, on the Beneficiaries screen's first tab (Wallets); creds is the
// sandbox's credentials file, for a second access.
func openBeneficiaries(t *testing.T) (creds string, tm *Term) {
	t.Helper()
	_, creds = startSandbox(t)
	tm = openAs(t, creds, "operator")
	tm.Send("5")
	tm.WaitFor("[Wallets", 10*time.Second)
	return creds, tm
}
