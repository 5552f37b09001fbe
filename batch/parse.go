package batch

import (
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"github.com/tesouro-treasury/tesouro/money"
	"github.com/tesouro-treasury/tesouro/payment"
)

// Columns are the columns a batch file may have, in template order.
var Columns = []string{"beneficiary", "chain", "amount", "currency", "rail", "source", "reference", "external_id"}

// required are the columns every file must have.
var required = []string{"beneficiary", "amount", "currency"}

// MaxRows bounds a file: a batch is reviewed row by row by a person.
const MaxRows = 10000

// MaxFileSize and MaxLineLength bound what a batch file may hold: more
// rows than MaxRows of the longest sensible row, and one row's line. A
// file past them is refused before it is read into rows.
const (
	MaxFileSize   = 8 << 20
	MaxLineLength = 4 << 10
)

// ReadFile reads a batch file from disk, refusing one larger than
// MaxFileSize without reading it whole.
func ReadFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("%s is larger than %s: a batch file holds at most %d rows; split it", path, size(MaxFileSize), MaxRows)
	}
	return data, nil
}

// longestLine is the number (from 1) and length in bytes of data's longest
// line.
func longestLine(data []byte) (n, length int) {
	for i := 1; len(data) > 0; i++ {
		l, rest, _ := bytes.Cut(data, []byte("\n"))
		if len(l) > length {
			n, length = i, len(l)
		}
		data = rest
	}
	return n, length
}

// size says a byte count in words.
func size(n int) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d KiB", (n+1023)/1024)
}

// maxExternalID is the longest external id accepted in a file, in
// characters: the payment core's limit.
const maxExternalID = payment.MaxExternalID

// Row is one payout of the file. Problem is set when the row cannot be
// paid as written; the other fields hold what could be read.
type Row struct {
	N           int // row number, 1 for the first row under the header
	Line        int // line in the file
	Beneficiary string
	Chain       string
	AmountText  string
	Amount      decimal.Decimal // what the beneficiary receives, in Currency
	Currency    string
	// Rail is the payout rail the file names ("" : the currency's default,
	// see DefaultRail).
	Rail       string
	Source     string // input currency; its method is INTERNAL
	Reference  string
	ExternalID string
	// Derived is true when ExternalID was derived from the row, not given.
	Derived bool
	Problem string
}

// File is a parsed batch file.
type File struct {
	// Name is the batch's name (--batch, or the file's name without its
	// extension): with each row's content it makes the row's external id,
	// so the same payout in the same batch is never paid twice.
	Name string
	// Hash is the SHA-256 of the file's bytes (hex).
	Hash string
	// Separator is the field separator found in the header.
	Separator rune
	Rows      []Row
}

// Invalid counts the rows with a problem.
func (f *File) Invalid() int {
	n := 0
	for _, r := range f.Rows {
		if r.Problem != "" {
			n++
		}
	}
	return n
}

// NameOf is the batch name a file path gives when none is chosen: the
// file's name without its directory and extension.
func NameOf(path string) string {
	base := filepath.Base(path)
	return strings.TrimSuffix(base, filepath.Ext(base))
}

// Template is an example file with every column, printed by "tesouro batch
// template".
func Template() string {
	return strings.Join(Columns, ",") + "\n" +
		"Maria Silva,,150.00,BRL,,,invoice 2041,\n" +
		"fornecedor@example.com,,89.90,BRL,,BRLA,invoice 2042,erp-2042\n" +
		"Acme Inc,,1200.00,USD,ACH,USDC,invoice 2043,\n" +
		"Acme Inc,,25000.00,USD,WIRE,USDC,invoice 2044,\n" +
		"Zeta GmbH,,980.00,EUR,,EURC,Rechnung 2045,\n" +
		"Zeta SA,,150000.00,ARS,,,,\n" +
		"Andes SAS,,2500000.00,COP,,,,\n" +
		"Treasury cold wallet,,25.5,USDC,,USDC,,\n" +
		"0x52908400098527886E0F7030069857D2E4169EE7,POLYGON,10,USDC,,USDC,top-up,\n"
}

// DefaultSource is the input currency of a row with no source: the
// account's BRLA balance.
const DefaultSource = "BRLA"

// Parse reads the file of the batch called name. A problem with the whole
// file (encoding, header) is an error; a problem with a row is set on the
// row, so that the report can list every one of them at once.
//
// A row without an external id gets one made of the batch's name, the
// row's own content and its ordinal among identical rows (RowExternalID):
// appending, removing, reordering or editing rows changes no other row's
// id, so a run of the edited file pays exactly what the earlier runs did
// not.
func Parse(data []byte, name string) (*File, error) {
	if strings.TrimSpace(name) == "" {
		return nil, errors.New("the batch has no name: give one with --batch, or name the file")
	}
	sum := sha256.Sum256(data)
	f := &File{Name: strings.TrimSpace(name), Hash: hex.EncodeToString(sum[:])}
	switch {
	case bytes.HasPrefix(data, []byte{0xFF, 0xFE}) || bytes.HasPrefix(data, []byte{0xFE, 0xFF}):
		return nil, errors.New("the file is UTF-16: save it as UTF-8 (CSV UTF-8 in a spreadsheet's Save As)")
	case len(bytes.TrimSpace(data)) == 0:
		return nil, errors.New("the file is empty: it needs a header row and one row per payout (see tesouro batch template)")
	}
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("the file is %s: a batch file holds at most %s (%d rows); split it", size(len(data)), size(MaxFileSize), MaxRows)
	}
	data = bytes.TrimPrefix(data, []byte{0xEF, 0xBB, 0xBF})
	if n, long := longestLine(data); long > MaxLineLength {
		return nil, fmt.Errorf("line %d is %d bytes long: a row holds at most %d (is this a batch file?)", n, long, MaxLineLength)
	}
	if !utf8.Valid(data) {
		line := 1 + bytes.Count(data[:firstInvalid(data)], []byte("\n"))
		return nil, fmt.Errorf("line %d is not UTF-8 (a file saved as Latin-1 or Windows-1252?): save the file as UTF-8", line)
	}
	header, _, _ := bytes.Cut(data, []byte("\n"))
	sep, err := separator(string(header))
	if err != nil {
		return nil, err
	}
	f.Separator = sep
	r := csv.NewReader(bytes.NewReader(data))
	r.Comma = sep
	r.FieldsPerRecord = -1
	r.ReuseRecord = true
	head, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("header: %w", err)
	}
	col := map[string]int{}
	for i, h := range head {
		name := strings.ToLower(strings.TrimSpace(h))
		if !slices.Contains(Columns, name) {
			return nil, fmt.Errorf("header: unknown column %q (columns: %s)", strings.TrimSpace(h), strings.Join(Columns, ", "))
		}
		if _, dup := col[name]; dup {
			return nil, fmt.Errorf("header: column %q appears twice", name)
		}
		col[name] = i
	}
	var missing []string
	for _, c := range required {
		if _, ok := col[c]; !ok {
			missing = append(missing, c)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("header: missing column(s) %s (the header has %s)", strings.Join(missing, ", "), strings.Join(head, string(sep)))
	}
	seen := map[string]int{}
	ordinals := map[string]int{}
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, fmt.Errorf("line %d: %v (a value with a quote must be quoted whole, its quotes doubled)", pe.StartLine, pe.Err)
			}
			return nil, err
		}
		line, _ := r.FieldPos(0)
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue // a blank line
		}
		if len(f.Rows) == MaxRows {
			return nil, fmt.Errorf("more than %d rows: split the file", MaxRows)
		}
		row := Row{N: len(f.Rows) + 1, Line: line}
		get := func(name string) string {
			i, ok := col[name]
			if !ok || i >= len(rec) {
				return ""
			}
			return strings.TrimSpace(rec[i])
		}
		// Currencies are read whatever their case but kept in the
		// service's spelling, which is not always capitals (USDCe): that
		// spelling is what the review shows and the quote sends, and the
		// service refuses any other.
		row.Beneficiary, row.Chain = get("beneficiary"), strings.ToUpper(get("chain"))
		row.AmountText, row.Currency = get("amount"), money.Canonical(get("currency"))
		row.Rail = strings.ToUpper(get("rail"))
		row.Source, row.Reference, row.ExternalID = money.Canonical(get("source")), get("reference"), get("external_id")
		if row.Source == "" {
			row.Source = DefaultSource
		}
		if len(rec) != len(head) {
			row.Problem = fmt.Sprintf("has %d fields, the header has %d (a %q inside a value needs quotes)", len(rec), len(head), string(sep))
		} else {
			row.Problem = checkRow(&row)
		}
		if row.ExternalID == "" {
			c := row.content()
			ordinals[c]++
			row.ExternalID, row.Derived = RowExternalID(f.Name, c, ordinals[c]), true
		}
		if first, dup := seen[row.ExternalID]; dup && row.Problem == "" {
			row.Problem = fmt.Sprintf("external_id %q is also on row %d: each payout needs its own", row.ExternalID, first)
		} else if !dup {
			seen[row.ExternalID] = row.N
		}
		f.Rows = append(f.Rows, row)
	}
	if len(f.Rows) == 0 {
		return nil, errors.New("no payout rows under the header")
	}
	return f, nil
}

// checkRow checks what can be checked from the row alone.
func checkRow(r *Row) string {
	switch {
	case r.Beneficiary == "":
		return "beneficiary is empty: give a beneficiary's alias or id, a PIX key, or a wallet address with chain"
	case r.Currency == "":
		return "currency is empty: give the currency the beneficiary receives (BRL, USDC, ...)"
	case len(money.Methods(r.Currency)) == 0:
		return fmt.Sprintf("currency %s is not one the service handles (%s)", r.Currency, strings.Join(money.Currencies(), ", "))
	case !money.SupportsMethod(r.Source, "INTERNAL"):
		return fmt.Sprintf("source %s is not a balance a batch can pay from (%s)", r.Source, strings.Join(money.BalanceTokens(), ", "))
	case r.Chain != "" && !money.IsChain(r.Chain):
		return fmt.Sprintf("chain %s is not a chain (%s)", r.Chain, strings.Join(money.Chains(), ", "))
	case r.Rail != "" && money.IsToken(r.Currency):
		return fmt.Sprintf("rail %s: a rail names how a bank payout travels (USD: ACH or WIRE); %s goes to a wallet on its chain, leave rail empty", r.Rail, r.Currency)
	case r.Rail != "" && !money.SupportsMethod(r.Currency, r.Rail):
		return fmt.Sprintf("rail %s does not pay %s: %s travels by %s", r.Rail, r.Currency, r.Currency, strings.Join(money.Methods(r.Currency), " or "))
	case utf8.RuneCountInString(r.ExternalID) > maxExternalID:
		return fmt.Sprintf("external_id is %d characters long: at most %d", utf8.RuneCountInString(r.ExternalID), maxExternalID)
	}
	amt, err := money.ParseAmount(r.AmountText, r.Currency)
	if err != nil {
		return fmt.Sprintf("amount %q: %v", r.AmountText, err)
	}
	r.Amount = amt
	return ""
}

// content is what a row pays, in one string: two rows with the same
// content are the same payout (the amount as a number, "10" and "10.00"
// alike; currencies and rails in the catalogue's spelling).
func (r *Row) content() string {
	amount := r.AmountText
	if r.Problem == "" {
		amount = r.Amount.String()
	}
	return strings.Join([]string{r.Beneficiary, r.Chain, amount, r.Currency, r.Rail, r.Source, r.Reference}, "\x1f")
}

// RowExternalID is the external id of the ordinal-th row (1 for the first)
// with that content in the batch called name: readable by its prefix (the
// name, letters, digits, "-" and "_" only), unique by a hash of the name
// and the content.
func RowExternalID(name, content string, ordinal int) string {
	sum := sha256.Sum256([]byte(name + "\x00" + content))
	return fmt.Sprintf("%s%s-%d", IDPrefix(name), hex.EncodeToString(sum[:])[:20], ordinal)
}

// IDPrefix is how every derived external id of the batch called name
// begins: its readable name and a dash.
func IDPrefix(name string) string { return idPrefix(name) + "-" }

// idPrefix is the readable part of a batch's external ids.
func idPrefix(name string) string {
	var b strings.Builder
	for _, r := range name {
		if b.Len() >= 32 {
			break
		}
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		case r == ' ' || r == '.':
			b.WriteRune('-')
		}
	}
	if b.Len() == 0 {
		return "batch"
	}
	return b.String()
}

// separator finds the field separator from the header: the one of "," and
// ";" that the header uses.
func separator(header string) (rune, error) {
	c, s := strings.Count(header, ","), strings.Count(header, ";")
	switch {
	case c > 0 && s > 0:
		return 0, errors.New(`header: both "," and ";" appear: use one of them as the separator`)
	case s > 0:
		return ';', nil
	case c > 0:
		return ',', nil
	case strings.Contains(header, "\t"):
		return 0, errors.New(`header: the separator is a tab: use "," or ";"`)
	}
	return ',', nil // a single column: the missing ones are reported
}

func firstInvalid(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(b)
}
