package accesses

import (
	"fmt"
	"strings"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/views/internal/form"
)

// flag is one permission an invitation or a change sets: its name on the
// wire, and what it lets the access do, in words.
type flag struct {
	key, allows string
}

// get reports whether p holds the flag.
func (fl flag) get(p api.Permissions) bool { return *p.Flag(fl.key) }

// set sets the flag of p to v.
func (fl flag) set(p *api.Permissions, v bool) { *p.Flag(fl.key) = v }

// flags are the permissions an administrator sets, the ones that allow
// first, the restrictions last. admin is not one: it is the service's own
// mark, which no write may give (manageAccesses is what lets an access
// administer the team), and a change keeps it as it is.
var flags = []flag{
	{"payIn", "may create tickets that bring money into the account (PIX in, deposits)"},
	{"payOut", "may create tickets that send money out (PIX, bank transfers, wallets)"},
	{"convert", "may convert between currencies inside the account"},
	{"onChain", "may send and receive tokens on blockchains"},
	{"markup", "may add a markup of its own to quotes and tickets"},
	{"beneficiary", "may register and delete beneficiaries"},
	{"operationApprover", "may approve or reject the operations others request"},
	{"manageWebhooks", "may register, change and delete webhooks"},
	{"manageAccesses", "may invite, change and revoke accesses, and manage its API keys (with TOTP)"},
	{"operationRequester", "a restriction: its tickets wait for approvers (multi-signature)"},
	{"enforceAllowedBeneficiaries", "a restriction: pays registered beneficiaries only"},
	{"viewOnly", "a restriction: sees everything, changes nothing, whatever else is set"},
}

// Values of a flag's field.
const (
	flagNo  = "no"
	flagYes = "yes"
)

// flagFields are a form's fields for the flags, set as p has them.
func flagFields() []form.Field {
	out := make([]form.Field, 0, len(flags))
	for _, fl := range flags {
		out = append(out, form.Field{Key: fl.key, Label: fl.key, Choices: []string{flagNo, flagYes},
			Help: func(form.Values) string { return "yes: " + fl.allows + " (←/→ or space)" }})
	}
	return out
}

// setFlags sets a form's flag fields as p has them.
func setFlags(f *form.Form, p api.Permissions) {
	for _, fl := range flags {
		v := flagNo
		if fl.get(p) {
			v = flagYes
		}
		f.SetValue(fl.key, v)
	}
}

// readFlags are the permissions a form's flag fields say.
func readFlags(f *form.Form) api.Permissions {
	var p api.Permissions
	for _, fl := range flags {
		fl.set(&p, f.Value(fl.key) == flagYes)
	}
	return p
}

// granted lists, one line each, the flags p holds and what each allows.
func granted(p api.Permissions) string {
	var b strings.Builder
	for _, fl := range flags {
		if fl.get(p) {
			fmt.Fprintf(&b, "  + %s: %s\n", fl.key, fl.allows)
		}
	}
	if b.Len() == 0 {
		return "  (no permission: the access can sign in and nothing more)\n"
	}
	return b.String()
}

// changes lists, one line each, the flags that differ from before to
// after: "+ payOut: ..." granted, "- payOut: ..." taken away.
func changes(before, after api.Permissions) (string, int) {
	var b strings.Builder
	n := 0
	for _, fl := range flags {
		was, is := fl.get(before), fl.get(after)
		switch {
		case is && !was:
			fmt.Fprintf(&b, "  + %s (grant): %s\n", fl.key, fl.allows)
		case was && !is:
			fmt.Fprintf(&b, "  - %s (take away): %s\n", fl.key, fl.allows)
		default:
			continue
		}
		n++
	}
	return b.String(), n
}

// viewOnlyRule refuses viewOnly beside a flag that allows a write: the
// service would keep the access from every write all the same, and the
// confirmation would list permissions it cannot use.
func viewOnlyRule(v form.Values) (string, string) {
	if v("viewOnly") != flagYes {
		return "", ""
	}
	for _, fl := range flags {
		if fl.key != "viewOnly" && !strings.HasPrefix(fl.allows, "a restriction") && v(fl.key) == flagYes {
			return "viewOnly", "viewOnly forbids every write, " + fl.key + " included: set one of them to no"
		}
	}
	return "", ""
}
