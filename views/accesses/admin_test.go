package accesses

import (
	"context"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/journal"
	"github.com/tesouro-treasury/tesouro/keystore"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/views/internal/fakeservice"
)

// team is the service as a manager's screen sees it: the accesses and API
// keys it holds, and every write it was sent, with its code.
type team struct {
	mu       sync.Mutex
	accesses []api.Access
	keys     []api.APIKeyInfo
	otps     []string
	invited  []api.InviteAccessRequest
	changed  map[string]api.Permissions
	revoked  []string
	created  []api.CreateAPIKeyRequest
	allowed  map[string][]string
	deleted  []string
	// refuse, when set, is every write's answer.
	refuse error
	// issued is the API key the next creation returns.
	issued string
}

var _ Service = (*team)(nil)

func (f *team) ListAccesses(context.Context, api.AccessFilter) ([]api.Access, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.accesses), nil
}

func (f *team) write(otp string) error {
	f.otps = append(f.otps, otp)
	return f.refuse
}

func (f *team) InviteAccess(_ context.Context, req api.InviteAccessRequest) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.write(req.OTP); err != nil {
		return "", err
	}
	f.invited = append(f.invited, req)
	f.accesses = append(f.accesses, api.Access{ID: "new-1", Email: req.Email, AccessPermission: req.Permissions})
	return "new-1", nil
}

func (f *team) UpdateAccessPermissions(_ context.Context, id, otp string, p api.Permissions) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.write(otp); err != nil {
		return err
	}
	if f.changed == nil {
		f.changed = map[string]api.Permissions{}
	}
	f.changed[id] = p
	return nil
}

func (f *team) RevokeAccess(_ context.Context, id, otp string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.write(otp); err != nil {
		return err
	}
	f.revoked = append(f.revoked, id)
	f.accesses = slices.DeleteFunc(f.accesses, func(a api.Access) bool { return a.ID == id })
	return nil
}

func (f *team) ListAPIKeys(context.Context) ([]api.APIKeyInfo, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.keys), nil
}

func (f *team) CreateAPIKey(_ context.Context, req api.CreateAPIKeyRequest) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.write(req.OTP); err != nil {
		return "", err
	}
	f.created = append(f.created, req)
	f.keys = append(f.keys, api.APIKeyInfo{APIKey: f.issued[:8], Name: req.Name, WhitelistedIPs: req.WhitelistedIPs})
	return f.issued, nil
}

func (f *team) SetAPIKeyAllowedIPs(_ context.Context, otp, apiKey string, ips []string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.write(otp); err != nil {
		return err
	}
	if f.allowed == nil {
		f.allowed = map[string][]string{}
	}
	f.allowed[apiKey] = ips
	return nil
}

func (f *team) DeleteAPIKey(_ context.Context, apiKey, otp string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.write(otp); err != nil {
		return err
	}
	f.deleted = append(f.deleted, apiKey)
	f.keys = slices.DeleteFunc(f.keys, func(k api.APIKeyInfo) bool { return k.APIKey == apiKey })
	return nil
}

// vault is a Keeper on an in-memory keyring and profile list.
type vault struct {
	mu       sync.Mutex
	secrets  keystore.Secrets
	profiles map[string]string // name: environment
}

func newVault() *vault { return &vault{secrets: keystore.NewMemory(), profiles: map[string]string{}} }

func (v *vault) Free(name string) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	if _, ok := v.profiles[name]; ok {
		return errors.New("profile exists already")
	}
	return keystore.ValidName(name)
}

func (v *vault) SetPrivateKey(name, pem string) error {
	return v.secrets.Set(name, keystore.KeyPrivateKey, pem)
}

func (v *vault) Save(name, apiKey, env string) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.profiles[name] = env
	return v.secrets.Set(name, keystore.KeyAPIKey, apiKey)
}

func (v *vault) Forget(name string) error {
	return errors.Join(v.secrets.Delete(name, keystore.KeyAPIKey), v.secrets.Delete(name, keystore.KeyPrivateKey))
}

var manager = api.Permissions{PayIn: true, ManageAccesses: true}

func demoTeam() *team {
	return &team{
		accesses: []api.Access{
			{ID: "a1", Email: "admin@demo.test", AccessPermission: manager},
			{ID: "a2", Email: "leaving@demo.test", AccessPermission: api.Permissions{PayIn: true, PayOut: true}},
		},
		keys:   []api.APIKeyInfo{{APIKey: "tk_old01", Name: "old server"}},
		issued: "tk_new01-the-secret-part-never-shown",
	}
}

func drive(t *testing.T, f *team, v *vault, perms api.Permissions) *fakeservice.Harness {
	t.Helper()
	s := fakeservice.Session(t, "admin@demo.test", perms)
	s.Access.MFAActivated = true
	var k Keeper
	if v != nil {
		k = v
	}
	return fakeservice.Drive(t, s, func(s *ui.Session) ui.Screen { return New(s, f, k) }, 120, 40)
}

// answer says yes to the last confirmation and types code at the TOTP
// prompt that follows it.
func answer(t *testing.T, h *fakeservice.Harness, code string) ui.ConfirmMsg {
	t.Helper()
	if len(h.Asks) == 0 {
		t.Fatalf("no confirmation was asked:\n%s", h.PlainView())
	}
	ask := h.Asks[len(h.Asks)-1]
	n := len(h.Prompts)
	h.Run(ask.OnYes)
	if len(h.Prompts) != n+1 {
		t.Fatalf("the yes to %q asked for no TOTP code", ask.Title)
	}
	p := h.Prompts[n]
	if !strings.Contains(p.Title, "TOTP") {
		t.Fatalf("the prompt after the yes is %q, not the TOTP code", p.Title)
	}
	if err := p.Validate(code); err != nil {
		t.Fatalf("the prompt refuses %q: %v", code, err)
	}
	h.Run(p.OnSubmit(code))
	return ask
}

func keyDescs(s ui.Screen) []string {
	var out []string
	for _, b := range s.KeyMap() {
		if b.Enabled() {
			out = append(out, b.Help().Desc)
		}
	}
	return out
}

func lastEntry(t *testing.T, h *fakeservice.Harness) journal.Entry {
	t.Helper()
	es := h.Journal()
	if len(es) == 0 {
		t.Fatal("nothing was journaled")
	}
	return es[len(es)-1]
}

func TestWithoutManageAccessesTheScreenOnlyLists(t *testing.T) {
	f := demoTeam()
	h := drive(t, f, newVault(), api.Permissions{PayIn: true, PayOut: true})
	v := h.PlainView()
	if !strings.Contains(v, "leaving@demo.test") {
		t.Fatalf("the list did not load:\n%s", v)
	}
	if strings.Contains(v, "API keys") || strings.Contains(v, "invite") {
		t.Errorf("an access without manageAccesses is shown the administration:\n%s", v)
	}
	for _, d := range keyDescs(h.Screen) {
		if strings.Contains(d, "invite") || strings.Contains(d, "revoke") || strings.Contains(d, "API") {
			t.Errorf("key %q offered without manageAccesses", d)
		}
	}
	h.Key("n", "d", "right")
	if len(h.Asks) != 0 || h.Screen.Capturing() || strings.Contains(h.PlainView(), "API keys") {
		t.Errorf("n, d or → acted without manageAccesses")
	}
}

func TestInviteSaysEachFlagInWordsAndSendsTheCode(t *testing.T) {
	f := demoTeam()
	h := drive(t, f, nil, manager)
	if v := h.PlainView(); !strings.Contains(v, "may: payIn, manageAccesses") {
		t.Errorf("the own access block does not name manageAccesses:\n%s", v)
	}
	if !slices.Contains(keyDescs(h.Screen), "invite access") {
		t.Fatalf("a manager is not offered to invite: %v", keyDescs(h.Screen))
	}
	h.Key("n")
	if !h.Screen.Capturing() || !strings.Contains(h.PlainView(), "Invite an access") {
		t.Fatalf("n opened no invitation form:\n%s", h.PlainView())
	}
	h.Type("new.person@demo.test")
	h.Key("down") // payIn, with what it allows under it
	if v := h.PlainView(); !strings.Contains(v, "bring money into the account") {
		t.Errorf("the focused flag does not say what it allows:\n%s", v)
	}
	h.Key("right", "ctrl+s")
	ask := h.Asks[len(h.Asks)-1]
	for _, want := range []string{"new.person@demo.test", "payIn: may create tickets that bring money into the account", "every flag not listed stays off", "TOTP", "tesouro sandbox totp NAME"} {
		if !strings.Contains(ask.Body, want) {
			t.Errorf("the confirmation lacks %q:\n%s", want, ask.Body)
		}
	}
	if strings.Contains(ask.Body, "payOut") {
		t.Errorf("the confirmation grants payOut, which was left off:\n%s", ask.Body)
	}
	if len(f.invited) != 0 {
		t.Fatal("the invitation went before the yes and the code")
	}
	answer(t, h, "123 456")
	if len(f.invited) != 1 {
		t.Fatalf("no invitation sent; toasts %+v", h.Toasts)
	}
	got := f.invited[0]
	if got.OTP != "123456" || got.Email != "new.person@demo.test" || got.Permissions != (api.Permissions{PayIn: true}) {
		t.Errorf("sent %+v, want payIn only with code 123456", got)
	}
	if h.Screen.Capturing() || !strings.Contains(h.PlainView(), "new.person@demo.test") {
		t.Errorf("the form stayed open, or the list does not show the invited access:\n%s", h.PlainView())
	}
	e := lastEntry(t, h)
	if e.Action != "invite-access" || e.Outcome != "invited" || e.IDs["email"] != "new.person@demo.test" || e.IDs["permissions"] != "payIn" || e.IDs["accessId"] != "new-1" {
		t.Errorf("journaled %+v", e)
	}
}

func TestACodeIsSixDigits(t *testing.T) {
	for _, bad := range []string{"", "12345", "1234567", "12a456", "12-456"} {
		if validOTP(bad) == nil {
			t.Errorf("code %q accepted", bad)
		}
	}
	if validOTP("123456") != nil || validOTP("123 456") != nil {
		t.Error("a 6-digit code refused")
	}
}

func TestChangeConfirmsOnlyWhatChanges(t *testing.T) {
	f := demoTeam()
	f.accesses[1].AccessPermission.Admin = true // the service's own mark, kept as it is
	h := drive(t, f, nil, manager)
	h.Key("down") // leaving@demo.test
	h.Key("e")
	if !strings.Contains(h.PlainView(), "Permissions of leaving@demo.test") {
		t.Fatalf("e opened no permissions form:\n%s", h.PlainView())
	}
	h.Key("ctrl+s")
	if len(h.Asks) != 0 || !strings.Contains(h.PlainView(), "nothing changed") {
		t.Fatalf("an unchanged form was confirmed, or not told:\n%s", h.PlainView())
	}
	h.Key("down", "space") // payOut: yes → no
	h.Key("ctrl+s")
	ask := answer(t, h, "654321")
	if !strings.Contains(ask.Body, "- payOut (take away)") || strings.Contains(ask.Body, "payIn") || strings.Contains(ask.Body, "- admin") || strings.Contains(ask.Body, "+ admin") {
		t.Errorf("the confirmation does not say exactly what changes:\n%s", ask.Body)
	}
	if p, ok := f.changed["a2"]; !ok || p != (api.Permissions{PayIn: true, Admin: true}) || f.otps[0] != "654321" {
		t.Errorf("sent %+v (%v), codes %v", p, ok, f.otps)
	}
	if e := lastEntry(t, h); e.Action != "change-access-permissions" || e.IDs["before"] != "payIn,payOut" || e.IDs["after"] != "payIn" {
		t.Errorf("journaled %+v", e)
	}
}

func TestRevokeNamesTheAccessAndJournals(t *testing.T) {
	f := demoTeam()
	h := drive(t, f, nil, manager)
	h.Key("down", "d")
	ask := answer(t, h, "111111")
	if ask.Title != "Revoke leaving@demo.test?" || !strings.Contains(ask.Body, "sessions and API keys stop working") {
		t.Errorf("confirmation %q:\n%s", ask.Title, ask.Body)
	}
	if !slices.Equal(f.revoked, []string{"a2"}) {
		t.Fatalf("revoked %v", f.revoked)
	}
	if strings.Contains(h.PlainView(), "leaving@demo.test") {
		t.Errorf("the revoked access is still listed:\n%s", h.PlainView())
	}
	if e := lastEntry(t, h); e.Action != "revoke-access" || e.Endpoint != "DELETE /v2/auth/accesses/a2" || e.Outcome != "revoked" {
		t.Errorf("journaled %+v", e)
	}
}

func TestRefusedCodeKeepsTheFormAndTheJournalNeverHoldsIt(t *testing.T) {
	f := demoTeam()
	// A failed request may repeat its URL, code and all.
	f.refuse = errors.Join(&api.Error{Status: 401, Method: "POST", Path: "/v2/auth/accesses", Code: "INVALID_OTP", Message: "invalid otp"},
		errors.New(`Post "http://127.0.0.1/v2/auth/accesses?otp=987654": reset`))
	h := drive(t, f, nil, manager)
	h.Key("n")
	h.Type("x@demo.test")
	h.Key("ctrl+s")
	answer(t, h, "987654")
	if !h.Screen.Capturing() {
		t.Fatal("a refused invitation closed its form")
	}
	if v := h.PlainView(); !strings.Contains(v, "TOTP code was refused") {
		t.Errorf("the form does not say the code was refused:\n%s", v)
	}
	e := lastEntry(t, h)
	if e.Action != "invite-access" || !strings.HasPrefix(e.Outcome, "error:") {
		t.Errorf("journaled %+v", e)
	}
	raw, err := os.ReadFile(h.Session.Journal.Path())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(raw), "987654") {
		t.Errorf("the journal holds the TOTP code:\n%s", raw)
	}
}

func TestReadOnlyManagerSeesWhyNothingIsOffered(t *testing.T) {
	f := demoTeam()
	s := fakeservice.Session(t, "admin@demo.test", manager)
	s.Access.MFAActivated = true
	s.ReadOnly = true
	h := fakeservice.Drive(t, s, func(s *ui.Session) ui.Screen { return New(s, f, newVault()) }, 120, 40)
	if v := h.PlainView(); !strings.Contains(v, "read only") {
		t.Errorf("the screen does not say why writes are off:\n%s", v)
	}
	h.Key("n", "down", "d")
	if len(h.Asks) != 0 || h.Screen.Capturing() {
		t.Error("a read-only session was offered a write")
	}
}

// openKeys shows the API keys tab and waits for its list.
func openKeys(t *testing.T, h *fakeservice.Harness) {
	t.Helper()
	h.Key("right")
	if v := h.PlainView(); !strings.Contains(v, "tk_old01") || !strings.Contains(v, "any IP") {
		t.Fatalf("the API keys tab does not list the key:\n%s", v)
	}
}

func TestNewAPIKeyGoesToTheKeyringOfANewProfileOnly(t *testing.T) {
	f, v := demoTeam(), newVault()
	h := drive(t, f, v, manager)
	openKeys(t, h)
	h.Key("n")
	h.Type("payouts")
	h.Key("down")
	h.Type("203.0.113.7, 10.0.0.1")
	h.Key("down", "down") // ed25519, the default
	h.Type("live-2")
	h.Key("ctrl+s")
	ask := answer(t, h, "222222")
	for _, want := range []string{"payouts", "203.0.113.7, 10.0.0.1", "ed25519", "New profile: live-2", "neither is shown nor written"} {
		if !strings.Contains(ask.Body, want) {
			t.Errorf("the confirmation lacks %q:\n%s", want, ask.Body)
		}
	}
	if len(f.created) != 1 {
		t.Fatalf("no key created; toasts %+v", h.Toasts)
	}
	req := f.created[0]
	if req.OTP != "222222" || req.Name != "payouts" || !slices.Equal(req.WhitelistedIPs, []string{"203.0.113.7", "10.0.0.1"}) {
		t.Errorf("sent %+v", req)
	}
	// The private key kept is the one whose public key was registered.
	priv, err := v.secrets.Get("live-2", keystore.KeyPrivateKey)
	if err != nil {
		t.Fatalf("no private key in the keyring of live-2: %v", err)
	}
	signer, err := api.ParsePrivateKey([]byte(priv))
	if err != nil {
		t.Fatal(err)
	}
	der, _ := x509.MarshalPKIXPublicKey(signer.Public())
	if want := string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})); req.PublicKey != want {
		t.Errorf("registered public key\n%s\nis not the kept private key's\n%s", req.PublicKey, want)
	}
	if k, _ := v.secrets.Get("live-2", keystore.KeyAPIKey); k != f.issued || v.profiles["live-2"] != "sandbox" {
		t.Errorf("the API key (%q) or the profile (%v) was not kept", k, v.profiles)
	}
	// Neither secret reached the screen, a toast or the journal.
	seen := h.PlainView()
	for _, t := range h.Toasts {
		seen += "\n" + t.Text
	}
	raw, _ := os.ReadFile(h.Session.Journal.Path())
	seen += "\n" + string(raw)
	for _, secret := range []string{f.issued, "PRIVATE KEY", strings.Split(priv, "\n")[1]} {
		if strings.Contains(seen, secret) {
			t.Errorf("%q was shown or journaled:\n%s", secret, seen)
		}
	}
	if !strings.Contains(h.PlainView(), "payouts") {
		t.Errorf("the new key is not listed:\n%s", h.PlainView())
	}
	if e := lastEntry(t, h); e.Action != "create-api-key" || e.IDs["profile"] != "live-2" || !strings.HasPrefix(e.IDs["publicKey"], "SHA256:") {
		t.Errorf("journaled %+v", e)
	}
}

func TestRefusedAPIKeyLeavesNoPrivateKey(t *testing.T) {
	f, v := demoTeam(), newVault()
	f.refuse = &api.Error{Status: 403, Code: "FORBIDDEN", Message: "forbidden"}
	h := drive(t, f, v, manager)
	openKeys(t, h)
	h.Key("n")
	h.Type("payouts")
	h.Key("down", "down", "down")
	h.Type("live-3")
	h.Key("ctrl+s")
	answer(t, h, "333333")
	if _, err := v.secrets.Get("live-3", keystore.KeyPrivateKey); !errors.Is(err, keystore.ErrNotStored) {
		t.Errorf("a refused creation left a private key in the keyring: %v", err)
	}
	if _, ok := v.profiles["live-3"]; ok || !h.Screen.Capturing() {
		t.Errorf("a refused creation saved the profile or closed the form")
	}
}

func TestAllowListAndRevokeKey(t *testing.T) {
	f := demoTeam()
	h := drive(t, f, newVault(), manager)
	openKeys(t, h)
	h.Key("e")
	h.Type("198.51.100.4 bad")
	h.Key("ctrl+s")
	if len(h.Asks) != 0 || !strings.Contains(h.PlainView(), `"bad" is not an IP address`) {
		t.Fatalf("a bad address was confirmed, or not told:\n%s", h.PlainView())
	}
	for range len(" bad") {
		h.Key("backspace")
	}
	h.Key("ctrl+s")
	ask := answer(t, h, "444444")
	if !strings.Contains(ask.Body, "Before: allowed from any IP") || !strings.Contains(ask.Body, "After: allowed from 198.51.100.4") {
		t.Errorf("the confirmation does not say what changes:\n%s", ask.Body)
	}
	if got := f.allowed["tk_old01"]; !slices.Equal(got, []string{"198.51.100.4"}) {
		t.Fatalf("allow-list sent %v", got)
	}
	h.Key("d")
	ask = answer(t, h, "555555")
	if !strings.Contains(ask.Title, "tk_old01") || !slices.Equal(f.deleted, []string{"tk_old01"}) {
		t.Fatalf("revoked %v after %q", f.deleted, ask.Title)
	}
	if v := h.PlainView(); strings.Contains(v, "tk_old01") || !strings.Contains(v, "no API keys") {
		t.Errorf("the revoked key is still listed:\n%s", v)
	}
	if e := lastEntry(t, h); e.Action != "revoke-api-key" || e.IDs["apiKey"] != "tk_old01" {
		t.Errorf("journaled %+v", e)
	}
}

func TestFilterFollowsTheTabShown(t *testing.T) {
	f := demoTeam()
	f.keys = append(f.keys, api.APIKeyInfo{APIKey: "tk_ci0001", Name: "ci runner"})
	h := drive(t, f, newVault(), manager)
	openKeys(t, h)
	h.Send(ui.FilterMsg{Query: "runner"})
	if v := h.PlainView(); strings.Contains(v, "tk_old01") || !strings.Contains(v, "tk_ci0001") {
		t.Errorf("the filter did not narrow the API keys:\n%s", v)
	}
}

func TestViewOnlyBesideAWriteIsRefusedBeforeTheConfirmation(t *testing.T) {
	f := demoTeam()
	h := drive(t, f, nil, manager)
	h.Key("n")
	h.Type("x@demo.test")
	h.Key("down", "right") // payIn
	for range len(flags) - 1 {
		h.Key("down")
	}
	h.Key("right", "ctrl+s") // viewOnly, the last flag
	if len(h.Asks) != 0 || !strings.Contains(h.PlainView(), "viewOnly forbids every write, payIn included") {
		t.Fatalf("viewOnly beside payIn was confirmed, or not told:\n%s", h.PlainView())
	}
}

func TestManagerWithoutTOTPIsToldBeforeAnyForm(t *testing.T) {
	f := demoTeam()
	s := fakeservice.Session(t, "admin@demo.test", manager)
	h := fakeservice.Drive(t, s, func(s *ui.Session) ui.Screen { return New(s, f, newVault()) }, 120, 40)
	if v := h.PlainView(); !strings.Contains(v, "no TOTP second factor on this access") {
		t.Errorf("the screen does not say why writes are off:\n%s", v)
	}
	h.Key("n", "down", "d")
	if len(h.Asks) != 0 || h.Screen.Capturing() {
		t.Error("a manager without TOTP was offered a write")
	}
}
