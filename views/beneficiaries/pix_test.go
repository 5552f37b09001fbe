package beneficiaries

import (
	"errors"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui/screentest"
	"github.com/tesouro-treasury/tesouro/views/internal/fakeservice"
)

// TestPixHolderIsSaidAsOnQuoteAndApprovals: the holder of a PIX key, a
// key nobody holds and a failed look-up read on the Beneficiaries screen
// as they read on the Quote and Approvals confirmations (the lines their
// tests expect after "Holder:"), under the key as it is typed and, for the
// holder, in the confirmation before saving.
func TestPixHolderIsSaidAsOnQuoteAndApprovals(t *testing.T) {
	maria := api.PixInfo{Name: "Maria Silva", TaxID: "***.982.247-**", BankName: "Banco Azul"}
	cases := []struct {
		name, key string
		err       error
		under     string // under the key as typed
		asks      int    // confirmations after ctrl+s
	}{
		{"holder", "maria@example.com", nil, "Holder: Maria Silva · ***.982.247-** · Banco Azul", 1},
		{"unknown key", "nobody@example.com", nil, "✗ no holder for this key: pix key nobody@example.com not found", 0},
		{"failed look-up", "maria@example.com", errors.New("the PIX directory did not answer"),
			"Holder: ! not confirmed: the PIX directory did not answer · ctrl+s asks again", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			svc := &fakeservice.Service{}
			svc.Holders = map[string]api.PixInfo{"maria@example.com": maria}
			svc.PixErr = c.err
			h := newHarness(t, svc, canWrite)
			h.Key("right", "n")
			h.Type("Maria")
			h.Key("tab", "tab")
			h.Type(c.key)
			h.Advance(lookupDelay)
			if v := h.PlainView(); !strings.Contains(v, c.under) {
				t.Fatalf("under the key, want %q:\n%s", c.under, v)
			}
			h.Key("ctrl+s")
			if len(h.Asks) != c.asks || len(svc.BRLSent) != 0 {
				t.Fatalf("ctrl+s: %d confirmations, sent %+v", len(h.Asks), svc.BRLSent)
			}
			if c.asks == 0 {
				return
			}
			body := ansi.Strip(h.Asks[0].Body)
			if !strings.Contains(body, c.under) || h.Asks[0].Title != "Save the PIX key of Maria Silva?" {
				t.Fatalf("the confirmation does not say %q:\n%s\n%s", c.under, h.Asks[0].Title, body)
			}
		})
	}
}

// TestFailedPixLookupOnSaveIsSaidUnderTheKeyAndAskedAgain: ctrl+s on a key
// whose look-up fails says why under the key, with the focus brought to
// it; ctrl+s asks again and, once the directory answers, confirms.
func TestFailedPixLookupOnSaveIsSaidUnderTheKeyAndAskedAgain(t *testing.T) {
	svc := &fakeservice.Service{}
	svc.Holders = map[string]api.PixInfo{"52998224725": fulano}
	svc.PixErr = errors.New("the PIX directory did not answer")
	h := newHarness(t, svc, canWrite)
	openPixForm(h, "Fulano", "529.982.247-25")
	f := h.screen().Form()
	h.Key("ctrl+s")
	if f.Sending() || f.FocusedKey() != "pixKey" || len(h.Asks) != 0 {
		t.Fatalf("sending %v focus %q asks %d", f.Sending(), f.FocusedKey(), len(h.Asks))
	}
	if want := "Holder: ! not confirmed: the PIX directory did not answer · ctrl+s asks again"; f.Note("pixKey") != want || !strings.Contains(h.PlainView(), want) {
		t.Fatalf("note %q:\n%s", f.Note("pixKey"), h.PlainView())
	}
	svc.PixErr = nil
	h.Key("ctrl+s")
	if len(svc.PixAsked) != 2 || len(h.Asks) != 1 {
		t.Fatalf("asked %v, confirmations %d", svc.PixAsked, len(h.Asks))
	}
	h.Run(h.Asks[0].OnYes)
	if len(svc.BRLSent) != 1 || svc.BRLSent[0].PixKey != "52998224725" {
		t.Fatalf("sent %+v", svc.BRLSent)
	}
}

// TestPixHolderWithoutANameIsSaidSo: a directory answer naming nobody
// does not show the tax id where the name goes, nor ask to save the key
// "of" nobody.
func TestPixHolderWithoutANameIsSaidSo(t *testing.T) {
	svc := &fakeservice.Service{}
	svc.Holders = map[string]api.PixInfo{"52998224725": {TaxID: "***.982.247-**", BankName: "Banco Azul"}}
	h := newHarness(t, svc, canWrite)
	openPixForm(h, "Fulano", "529.982.247-25")
	h.Key("ctrl+s")
	if len(h.Asks) != 1 {
		t.Fatalf("%d confirmations", len(h.Asks))
	}
	body := ansi.Strip(h.Asks[0].Body)
	if h.Asks[0].Title != "Save this PIX key?" || !strings.Contains(body, "Holder: no name given · ***.982.247-** · Banco Azul") {
		t.Fatalf("%s\n%s", h.Asks[0].Title, body)
	}
}

// TestUnknownPixKeyIsReadWholeAt40Columns: at 40 columns the refusal of a
// key nobody holds wraps under the field without being cut, in the 9 lines
// a 40x12 terminal leaves the screen under the shell's header, tabs and
// footer.
func TestUnknownPixKeyIsReadWholeAt40Columns(t *testing.T) {
	svc := &fakeservice.Service{}
	h := newHarness(t, svc, canWrite)
	h.Screen.SetSize(40, 9)
	h.Key("right", "n")
	h.Type("Ninguém")
	h.Key("tab", "tab")
	h.Type("ninguem@example.com")
	h.Advance(lookupDelay)
	v := h.PlainView()
	screentest.CheckSize(t, h.Screen.View(), 40, 9)
	var words []string
	for _, l := range strings.Split(v, "\n") {
		words = append(words, strings.Fields(l)...)
	}
	if want := "✗ " + unknownKey("ninguem@example.com"); !strings.Contains(strings.Join(words, " "), want) {
		t.Fatalf("want %q whole:\n%s", want, v)
	}
}

// TestPixPauseOfAnEarlierKeyIsDropped: typing paused on a valid key, then
// went on (to a key that is no key, or the form closed) before the pause
// was over: the pause of the earlier key looks nothing up.
func TestPixPauseOfAnEarlierKeyIsDropped(t *testing.T) {
	for _, then := range [][]string{{"x"}, {"esc"}} {
		svc := &fakeservice.Service{}
		svc.Holders = map[string]api.PixInfo{"52998224725": fulano}
		h := newHarness(t, svc, canWrite)
		h.Key("right", "n")
		h.Type("Fulano")
		h.Key("tab", "tab")
		h.Type("529.982.247-25")
		h.Key(then...)
		h.Advance(lookupDelay)
		if len(svc.PixAsked) != 0 || h.Pending() != 0 {
			t.Fatalf("after %q: asked %v, %d timers wait", then, svc.PixAsked, h.Pending())
		}
	}
}
