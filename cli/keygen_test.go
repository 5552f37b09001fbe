package cli

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"strings"
	"testing"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/keystore"
)

func mustKeyPEM(t *testing.T, typ string) string {
	t.Helper()
	var k crypto.Signer
	var err error
	switch typ {
	case "ed25519":
		_, k, err = ed25519.GenerateKey(rand.Reader)
	default:
		k, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	}
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
}

// The public key printed is the one of the private key stored, for every
// type, including RSA-4096 whose PEM is larger than one keyring entry.
func TestKeygenStoresPrivateKeyPrintsPublicKey(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--type", "ed25519"}, "ed25519"},
		{[]string{"--type", "ecdsa"}, "ecdsa P-256"},
		{[]string{"--type", "rsa", "--bits", "2048"}, "rsa 2048"},
		{[]string{"--type", "rsa"}, "rsa 4096"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			e := newProfileEnv(t)
			code, out, errOut := e.run("", append([]string{"keygen", "--profile", "k"}, tc.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			block, rest := pem.Decode([]byte(out))
			if block == nil || block.Type != "PUBLIC KEY" || strings.TrimSpace(string(rest)) != "" {
				t.Fatalf("stdout is not exactly one public key PEM:\n%s", out)
			}
			pub, err := x509.ParsePKIXPublicKey(block.Bytes)
			if err != nil {
				t.Fatal(err)
			}
			stored, err := e.secrets.Get("k", keystore.KeyPrivateKey)
			if err != nil {
				t.Fatal(err)
			}
			signer, err := api.ParsePrivateKey([]byte(stored))
			if err != nil {
				t.Fatal(err)
			}
			if !signer.Public().(interface{ Equal(crypto.PublicKey) bool }).Equal(pub) {
				t.Fatal("the printed public key does not belong to the stored private key")
			}
			if !strings.Contains(errOut, tc.want) || !strings.Contains(errOut, "tesouro:k") || strings.Contains(out+errOut, "PRIVATE KEY") {
				t.Fatalf("stderr should name the key type and keyring service, never show the private key:\n%s", errOut)
			}
			// A second keygen would break the registered key: refused without --force.
			code, _, errOut = e.run("", "keygen", "--profile", "k", "--type", "ed25519")
			if code != 1 || !strings.Contains(errOut, "--force") {
				t.Fatalf("second keygen: exit %d, %s", code, errOut)
			}
			if again, _ := e.secrets.Get("k", keystore.KeyPrivateKey); again != stored {
				t.Fatal("a refused keygen replaced the key")
			}
			e.mustRun("", "keygen", "--profile", "k", "--type", "ed25519", "--force")
			if again, _ := e.secrets.Get("k", keystore.KeyPrivateKey); again == stored {
				t.Fatal("keygen --force kept the old key")
			}
		})
	}
}

// keygen first, register, then profile add picks the key from the keyring.
func TestKeygenThenProfileAddUsesTheStoredKey(t *testing.T) {
	e := newProfileEnv(t)
	e.mustRun("", "keygen", "--profile", "new", "--type", "ecdsa")
	keyFile := writeSecretFile(t, "api-key", "issued-key")
	out := e.mustRun("", "profile", "add", "new", "--base-url", "http://127.0.0.1:9", "--api-key-file", keyFile, "--no-verify")
	if !strings.Contains(out, `Profile "new" saved`) {
		t.Fatal(out)
	}
	show := e.mustRun("", "profile", "show", "new")
	if !strings.Contains(show, "stored (ecdsa P-256, public key SHA256:") {
		t.Fatalf("show does not describe the stored key:\n%s", show)
	}
	// Without a stored key, profile add says how to get one.
	code, _, errOut := e.run("", "profile", "add", "other", "--base-url", "http://127.0.0.1:9", "--api-key-file", keyFile, "--no-verify")
	if code != 2 || !strings.Contains(errOut, "tesouro keygen --profile other") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
}

func TestKeygenCommandLineChecks(t *testing.T) {
	e := newProfileEnv(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"keygen", "--type", "ed25519"}, "--profile NAME is required"},
		{[]string{"keygen", "--profile", "k"}, "--type is required"},
		{[]string{"keygen", "--profile", "k", "--type", "dsa"}, "must be ed25519, ecdsa or rsa"},
		{[]string{"keygen", "--profile", "k", "--type", "rsa", "--bits", "1024"}, "2048 or 4096"},
		{[]string{"keygen", "--profile", "k", "--type", "ed25519", "--bits", "4096"}, "only for --type rsa"},
	} {
		code, _, errOut := e.run("", tc.args...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
	e.mustRun("", "profile", "add", "j", "--base-url", "http://127.0.0.1:9", "--jwt", "--email", "j@example.com", "--no-verify")
	if code, _, errOut := e.run("", "keygen", "--profile", "j", "--type", "ed25519"); code != 1 || !strings.Contains(errOut, "JWT") {
		t.Fatalf("keygen on a jwt profile: %d %s", code, errOut)
	}
}
