package export

import (
	"bytes"
	"encoding/csv"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/api"
)

func TestGuardNeutralisesFormulasButKeepsNegativeAmounts(t *testing.T) {
	for in, want := range map[string]string{
		"=HYPERLINK(\"x\")": "'=HYPERLINK(\"x\")",
		"+1+1":              "'+1+1",
		"@SUM(A1)":          "'@SUM(A1)",
		"-2+3":              "'-2+3",
		"\tx":               "'\tx",
		"\rx":               "'\rx",
		"-12.50":            "-12.50",
		"12.50":             "12.50",
		"":                  "",
		"ACME":              "ACME",
	} {
		if got := Guard(in); got != want {
			t.Errorf("Guard(%q) = %q, want %q", in, got, want)
		}
	}
}

func ticket(fees ...api.Fee) api.Ticket {
	return api.Ticket{ID: uuid.New(), ExternalID: "=cmd|' /C calc'!A0", Status: "PAID",
		Quote: api.TicketQuote{InputCurrency: "BRL", OutputCurrency: "USDC", InputAmount: decimal.RequireFromString("100.00"),
			OutputAmount: decimal.RequireFromString("19.123456"), AppliedFees: fees}}
}

func TestTicketRowsKeepTheirColumnsWhateverTheFees(t *testing.T) {
	a := Account{ID: "acc", Name: "ACME"}
	conv := api.Fee{Type: "Conversion Fee", Amount: decimal.RequireFromString("0.50"), Currency: "BRL"}
	gas := api.Fee{Type: "Gas Fee", Amount: decimal.RequireFromString("0.010000"), Currency: "USDC"}
	odd := api.Fee{Type: "Stamp Duty", Amount: decimal.RequireFromString("1.00"), Currency: "BRL"}
	var rows [][]string
	for _, tk := range []api.Ticket{ticket(conv), ticket(gas, odd), ticket()} {
		rows = append(rows, TicketRow(a, tk))
	}
	recs := writeAndRead(t, TicketColumns, rows)
	if !slices.Equal(recs[0], TicketColumns) {
		t.Fatalf("header %v", recs[0])
	}
	col := func(name string) int { return slices.Index(TicketColumns, name) }
	if recs[1][col("fee_conversion_input")] != "0.50" || recs[1][col("fee_gas_output")] != "" {
		t.Errorf("row 1: %v", recs[1])
	}
	if recs[2][col("fee_gas_output")] != "0.010000" || recs[2][col("fees_other")] != "Stamp Duty 1.00 BRL" {
		t.Errorf("row 2: %v", recs[2])
	}
	if recs[1][col("external_id")][0] != '\'' {
		t.Errorf("a formula-leading external id was not guarded: %q", recs[1][col("external_id")])
	}
	w, err := NewWriter(io.Discard, TicketColumns)
	if err != nil {
		t.Fatal(err)
	}
	if w.Row([]string{"short"}) == nil {
		t.Error("a row narrower than the header was accepted")
	}
}

func TestFileNameNamesTheAccount(t *testing.T) {
	at := time.Date(2026, 1, 14, 9, 30, 0, 0, time.UTC)
	if got := FileName("tickets", "Açaí Comércio Ltda / Filial 2", at); got != "tesouro-tickets-acai-comercio-ltda-filial-2-20260114-093000.csv" {
		t.Errorf("FileName = %q", got)
	}
	if got := FileName("tickets", "☃", at); got != "tesouro-tickets-account-20260114-093000.csv" {
		t.Errorf("FileName = %q", got)
	}
}

// Every export and receipt goes to export_dir, else to the exports
// folder of the state directory, never to wherever the program started.
func TestDirIsExportDirFromConfigElseTheStateExports(t *testing.T) {
	cfg := t.TempDir()
	env := map[string]string{"TESOURO_CONFIG_DIR": cfg, "HOME": t.TempDir(), "XDG_STATE_HOME": t.TempDir()}
	getenv := func(k string) string { return env[k] }
	if d, err := Dir(getenv); err != nil || d != filepath.Join(env["XDG_STATE_HOME"], "tesouro", "exports") {
		t.Fatalf("without config: %q, %v", d, err)
	}
	if err := os.WriteFile(filepath.Join(cfg, "config.toml"), []byte("export_dir = \"~/exports/tesouro\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	d, err := Dir(getenv)
	if want := filepath.Join(env["HOME"], "exports", "tesouro"); err != nil || d != want {
		t.Fatalf("Dir = %q, %v; want %q", d, err, want)
	}
	if st, err := os.Stat(d); err != nil || !st.IsDir() {
		t.Fatalf("export_dir not created: %v", err)
	}
}

func TestStatementRowsKeepTheirColumnsAndGuardDescriptions(t *testing.T) {
	a := Account{ID: "acc", Name: "ACME", SubAccountID: "sub", SubAccountName: "Filial"}
	at := api.NewTime(time.Date(2026, 11, 20, 14, 30, 5, 0, time.UTC))
	logs := []api.StatementLog{
		{ID: "12", Token: "BRL", BalanceChange: decimal.RequireFromString("-12.5"), FinalBalance: decimal.RequireFromString("87.5"),
			Description: "[DEBIT] ticket input debited", TicketID: "t-1", CreatedAt: at},
		{ID: "11", Token: "USDC", BalanceChange: decimal.RequireFromString("3.1"), FinalBalance: decimal.RequireFromString("3.1"),
			Description: "=HYPERLINK(\"http://x\")", CreatedAt: at},
	}
	var rows [][]string
	for _, l := range logs {
		rows = append(rows, StatementRow(a, l))
	}
	recs := writeAndRead(t, StatementColumns, rows)
	if !slices.Equal(recs[0], StatementColumns) || len(recs) != 3 {
		t.Fatalf("header %v, %d records", recs[0], len(recs))
	}
	col := func(name string) int { return slices.Index(StatementColumns, name) }
	if r := recs[1]; r[col("balance_change")] != "-12.50" || r[col("final_balance")] != "87.50" || r[col("created_at")] != "2026-11-20T14:30:05Z" ||
		r[col("sub_account_name")] != "Filial" || r[col("ticket_id")] != "t-1" {
		t.Errorf("row 1: %v", r)
	}
	if r := recs[2]; r[col("balance_change")] != "3.100000" || r[col("description")] != "'=HYPERLINK(\"http://x\")" {
		t.Errorf("row 2: %v", r)
	}
}

// writeAndRead writes rows under columns through the Writer and reads the
// file back as a spreadsheet would, header first.
func writeAndRead(t *testing.T, columns []string, rows [][]string) [][]string {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, columns)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if err := w.Row(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}
