package form

import (
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/views/internal/fakeservice"
)

func press(f *Form, keys ...string) Result {
	var r Result
	for _, k := range keys {
		r, _ = f.Update(fakeservice.KeyPress(k))
	}
	return r
}

func typeText(f *Form, s string) {
	for _, r := range s {
		f.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

var upper Check = func(v string, _ func(string) string) (string, string, error) {
	if strings.ToUpper(v) != v {
		return "", "", errors.New("must be upper-case")
	}
	return strings.ToLower(v), "looks fine", nil
}

func testForm() *Form {
	f := New("Test",
		Field{Key: "name", Label: "Name", Required: true},
		Field{Key: "mode", Label: "Mode", Choices: []string{"a", "b"}},
		Field{Key: "code", Label: "Code", Required: true, Check: upper, Visible: func(v func(string) string) bool { return v("mode") == "b" }},
		Field{Key: "note", Label: "Note"},
	)
	f.Focus()
	return f
}

func TestSubmitRefusesMissingRequiredAndFocusesIt(t *testing.T) {
	f := testForm()
	if got := press(f, "ctrl+s"); got != None {
		t.Fatalf("submit with an empty required field returned %v, want None", got)
	}
	if f.FocusedKey() != "name" || f.Error("name") == "" {
		t.Fatalf("focus %q error %q: want the focus and an error on name", f.FocusedKey(), f.Error("name"))
	}
	typeText(f, "Ana")
	if f.Error("name") != "" {
		t.Fatalf("error stays after typing: %q", f.Error("name"))
	}
	if got := press(f, "ctrl+s"); got != Submitted {
		t.Fatalf("complete form: got %v, want Submitted", got)
	}
	if f.Normalized("name") != "Ana" || f.Normalized("code") != "" {
		t.Fatalf("values: name %q code %q (hidden fields send nothing)", f.Normalized("name"), f.Normalized("code"))
	}
}

func TestHiddenFieldAppearsWithChoiceAndIsChecked(t *testing.T) {
	f := testForm()
	typeText(f, "Ana")
	press(f, "tab", "right") // mode = b shows code
	if !f.Visible("code") {
		t.Fatal("code should be visible once mode is b")
	}
	press(f, "tab")
	if f.FocusedKey() != "code" {
		t.Fatalf("focus = %q, want code", f.FocusedKey())
	}
	typeText(f, "abc")
	if got := press(f, "ctrl+s"); got != None {
		t.Fatal("a failing check must block the submit")
	}
	if !strings.Contains(f.Error("code"), "upper-case") {
		t.Fatalf("code error = %q", f.Error("code"))
	}
	f.SetValue("code", "ABC")
	if f.Hint("code") != "looks fine" {
		t.Fatalf("hint = %q", f.Hint("code"))
	}
	if press(f, "ctrl+s") != Submitted || f.Normalized("code") != "abc" {
		t.Fatalf("normalized code = %q", f.Normalized("code"))
	}
}

func TestEnterMovesThenSubmitsOnLastField(t *testing.T) {
	f := testForm()
	typeText(f, "Ana")
	if press(f, "enter") != None || f.FocusedKey() != "mode" {
		t.Fatalf("enter on the first field should move on, focus %q", f.FocusedKey())
	}
	if press(f, "enter") != None || f.FocusedKey() != "note" {
		t.Fatalf("enter should skip the hidden field, focus %q", f.FocusedKey())
	}
	if press(f, "enter") != Submitted {
		t.Fatal("enter on the last field should submit")
	}
	if press(f, "esc") != Cancelled {
		t.Fatal("esc should cancel")
	}
}

func TestSendingIgnoresKeys(t *testing.T) {
	f := testForm()
	typeText(f, "Ana")
	f.SetSending(true)
	if press(f, "ctrl+s") != None {
		t.Fatal("a form being sent must not submit again")
	}
	typeText(f, "X")
	if f.Value("name") != "Ana" {
		t.Fatalf("typing while sending changed the value to %q", f.Value("name"))
	}
}

func TestServiceErrorLandsOnNamedFieldUntilChanged(t *testing.T) {
	f := testForm()
	typeText(f, "Ana")
	k := f.ApplyError(&api.Error{Status: 400, Code: "INVALID_FIELD", Message: "name: already registered"})
	if k != "name" || f.Error("name") != "name: already registered" {
		t.Fatalf("field %q error %q", k, f.Error("name"))
	}
	typeText(f, "b")
	if f.Error("name") != "" {
		t.Fatalf("the service error should go once the value changes, got %q", f.Error("name"))
	}
	if f.ApplyError(errors.New("connection refused")) != "" || f.FormError() != "connection refused" {
		t.Fatalf("an error naming no field goes on the form, got %q", f.FormError())
	}
}

func TestFieldOf(t *testing.T) {
	keys := []string{"alias", "userName", "taxId", "pixKey", "walletAddress", "beneficiaryAddress.city", "name"}
	cases := []struct {
		err  error
		want string
	}{
		{&api.Error{Code: "VALIDATION", Message: "walletAddress: EIP-55 checksum does not match"}, "walletAddress"},
		{&api.Error{Code: "INVALID_TAX_ID", Message: "check digits do not match"}, "taxId"},
		{&api.Error{Code: "BAD", Message: "userName is required"}, "userName"},
		{&api.Error{Code: "BAD", Message: "beneficiaryAddress.city is required"}, "beneficiaryAddress.city"},
		{&api.Error{Code: "BAD", Message: "city is required"}, "beneficiaryAddress.city"},
		{&api.Error{Code: "BAD", Message: "the surname field is odd"}, ""},
		{&api.Error{Code: "BAD", Message: "alias: must differ from the pixKey's"}, "alias"},
		{&api.Error{Code: "FORBIDDEN", Message: "missing permission beneficiary"}, ""},
		{errors.New("timeout"), ""},
	}
	for _, c := range cases {
		if got, _ := FieldOf(c.err, keys); got != c.want {
			t.Errorf("FieldOf(%v) = %q, want %q", c.err, got, c.want)
		}
	}
}

func TestViewFitsSmallTerminal(t *testing.T) {
	for _, size := range [][2]int{{40, 12}, {100, 30}, {10, 3}, {1, 1}} {
		f := testForm()
		f.SetSize(size[0], size[1])
		press(f, "ctrl+s")
		v := f.View()
		lines := strings.Split(v, "\n")
		if len(lines) != size[1] {
			t.Fatalf("%v: %d lines", size, len(lines))
		}
		for _, l := range lines {
			if w := lipgloss.Width(l); w != size[0] {
				t.Fatalf("%v: line width %d: %q", size, w, l)
			}
		}
		if size[1] >= 12 && !strings.Contains(v, "required") {
			t.Fatalf("%v: the error of the focused field is not shown:\n%s", size, v)
		}
	}
}

func TestPasteIsChecked(t *testing.T) {
	f := testForm()
	f.SetValue("mode", "b")
	f.move(1)
	f.move(1)
	if f.FocusedKey() != "code" {
		t.Fatalf("focus = %q", f.FocusedKey())
	}
	f.Update(tea.PasteMsg{Content: "ABC"})
	if f.Value("code") != "ABC" || f.Hint("code") != "looks fine" {
		t.Fatalf("pasted value %q hint %q", f.Value("code"), f.Hint("code"))
	}
}

func TestFieldsFitTheirLineWithoutBeingCut(t *testing.T) {
	f := New("Test",
		Field{Key: "alias", Label: "Alias", Required: true, Placeholder: "treasury cold wallet"},
		Field{Key: "memo", Label: "Memo"},
	)
	f.Focus()
	for _, w := range []int{100, 80, 40} {
		f.SetSize(w, 10)
		for _, l := range strings.Split(ansi.Strip(f.View()), "\n") {
			if strings.HasSuffix(strings.TrimRight(l, " "), "…") {
				t.Errorf("width %d: a field line is cut: %q", w, l)
			}
		}
	}
}

// TestNoteStaysWithTheValueItIsAbout: a note set by the screen shows under
// the field until the value changes.
func TestNoteStaysWithTheValueItIsAbout(t *testing.T) {
	f := testForm()
	f.SetSize(60, 12)
	press(f, "f", "o")
	f.SetNote("name", "pays Fulano de Tal")
	if f.Note("name") != "pays Fulano de Tal" || !strings.Contains(ansi.Strip(f.View()), "pays Fulano de Tal") {
		t.Fatalf("note %q not shown:\n%s", f.Note("name"), f.View())
	}
	press(f, "o")
	if f.Note("name") != "" || strings.Contains(ansi.Strip(f.View()), "Fulano") {
		t.Fatalf("the note outlived its value:\n%s", f.View())
	}
}

// The pieces a form that changes shape with its values needs: options that
// follow another field, a value set from others and locked, a reason a
// field is disabled, a picker among the fields, and Changed for the screen.
func TestFieldsThatFollowOtherValues(t *testing.T) {
	methods := map[string][]string{"BRL": {"PIX"}, "USDC": {"INTERNAL", "POLYGON"}}
	locked := "no"
	f := New("Quote",
		Field{Key: "cur", Label: "Currency", Suggest: []string{"BRL", "USDC"}},
		Field{Key: "method", Label: "Method", Options: func(v Values) []string { return methods[v("cur")] }},
		Field{Key: "code", Label: "Code"},
		Field{Key: "amount", Label: "Amount", Derive: func(v Values) (string, string) {
			if v("code") != "" {
				return "12.50", "taken from the code"
			}
			return "", ""
		}},
		Field{Key: "memo", Label: "Memo", Disabled: func(Values) string {
			if locked == "yes" {
				return "locked"
			}
			return ""
		}},
		Field{Key: "to", Label: "To", Picker: true, Required: true, Missing: "choose whom to pay"},
	)
	f.EnterSubmits = true
	f.Focus()
	if f.Value("method") != "PIX" {
		t.Fatalf("method %q, want the first of BRL's", f.Value("method"))
	}
	if r, _ := f.Update(fakeservice.KeyPress("right")); r != Changed || f.Value("method") != "INTERNAL" {
		t.Fatalf("→ on the currency: result %v, method %q: want Changed and USDC's first method", r, f.Value("method"))
	}
	// A method typed is not snapped back while it is typed.
	f.FocusField("method")
	typeText(f, "POLYGON")
	if f.Value("method") != "POLYGON" {
		t.Fatalf("typing POLYGON over the method gave %q", f.Value("method"))
	}
	f.SetValue("code", "X")
	if f.Value("amount") != "12.50" || f.Disabled("amount") != "taken from the code" {
		t.Fatalf("amount %q (%q), want it set and locked by the code", f.Value("amount"), f.Disabled("amount"))
	}
	f.FocusField("amount")
	typeText(f, "9")
	if f.Value("amount") != "12.50" {
		t.Fatalf("a derived value took typing: %q", f.Value("amount"))
	}
	locked = "yes"
	f.Refresh()
	f.FocusField("memo")
	typeText(f, "hi")
	if f.Value("memo") != "" || !strings.Contains(ansi.Strip(strings.Join(func() []string { l, _, _ := f.Lines(60); return l }(), "\n")), "locked") {
		t.Fatal("a disabled field took typing or did not say why")
	}
	// Enter submits from any field; the picker says what it needs.
	if f.Update(fakeservice.KeyPress("enter")); f.Error("to") != "still loading: wait a moment" {
		t.Fatalf("a picker whose list has not come: %q", f.Error("to"))
	}
	f.Picker("to").SetOptions(nil)
	f.FocusField("memo")
	if r, _ := f.Update(fakeservice.KeyPress("enter")); r != None || f.FocusedKey() != "to" || f.Error("to") != "choose whom to pay" {
		t.Fatalf("submit without a payee: focus %q error %q", f.FocusedKey(), f.Error("to"))
	}
	p := f.Picker("to")
	p.SetOptions([]Option{{ID: uuid.New(), Title: "Alpha"}})
	f.Refresh()
	if r, _ := f.Update(fakeservice.KeyPress("enter")); r != Submitted || f.Value("to") != p.All[0].ID.String() {
		t.Fatalf("enter on the picker: result %v value %q", r, f.Value("to"))
	}
	lines, first, last := f.Lines(60)
	if first < 0 || last < first || !strings.Contains(ansi.Strip(lines[first]), "› To") {
		t.Fatalf("the focused lines %d-%d are not the picker's:\n%s", first, last, ansi.Strip(strings.Join(lines, "\n")))
	}
}
