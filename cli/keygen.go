package cli

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/keystore"
)

// keygenFlags are the flags of "keygen".
type keygenFlags struct {
	typ   string
	bits  int
	force bool
}

func newCmdKeygen(f *Factory) *cobra.Command {
	var opts keygenFlags
	cmd := &cobra.Command{
		Use:   "keygen",
		Short: "Make a key pair: private key to the keyring, public key PEM to stdout",
		Long: `Makes a key pair for signing API requests. The private key goes straight into the keyring
(service tesouro:NAME) and is never written anywhere else; the public key PEM is printed on
stdout, to register with the service. Then store the API key it issues with
"tesouro profile add NAME --base-url URL --api-key-file FILE".`,
		Example: `  tesouro keygen --profile live --type ed25519 > live.pub.pem
  tesouro keygen --profile live2 --type rsa --bits 2048 > live2.pub.pem`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return Usagef("keygen: unexpected argument(s); give the profile with --profile NAME")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error { return f.runKeygen(cmd, opts) },
	}
	cmd.Flags().StringVar(&opts.typ, "type", "", "key type: ed25519, ecdsa (P-256) or rsa")
	cmd.Flags().IntVar(&opts.bits, "bits", 4096, "size of an RSA key: 2048 or 4096")
	cmd.Flags().BoolVar(&opts.force, "force", false, "replace a private key already stored for the profile")
	_ = cmd.RegisterFlagCompletionFunc("type", cobra.FixedCompletions([]string{api.KeyEd25519, api.KeyECDSA, api.KeyRSA}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

func (f *Factory) runKeygen(cmd *cobra.Command, opts keygenFlags) error {
	name, typ, bits, force := &f.G.Profile, &opts.typ, &opts.bits, &opts.force
	if *name == "" {
		return Usagef("keygen: --profile NAME is required: the private key is stored for that profile")
	}
	if err := keystore.ValidName(*name); err != nil {
		return Usagef("keygen: %v", err)
	}
	bitsSet := flagChanged(cmd.Flags(), "bits")
	switch *typ {
	case api.KeyEd25519, api.KeyECDSA:
		if bitsSet {
			return Usagef("keygen: --bits is only for --type rsa")
		}
	case api.KeyRSA:
		if *bits != 2048 && *bits != 4096 {
			return Usagef("keygen: --bits must be 2048 or 4096, not %d", *bits)
		}
	case "":
		return Usagef("keygen: --type is required: ed25519, ecdsa or rsa")
	default:
		return Usagef("keygen: --type must be ed25519, ecdsa or rsa, not %q", *typ)
	}

	_, p, lookupErr := f.Profile(*name)
	if lookupErr != nil && !errors.Is(lookupErr, keystore.ErrUnknownProfile) {
		return lookupErr
	}
	if lookupErr == nil && p.Auth == keystore.AuthJWT {
		return fmt.Errorf("profile %q logs in with a JWT and uses no key pair: keys are for api-key profiles", *name)
	}
	sec := f.Secrets()
	old, err := sec.Get(*name, keystore.KeyPrivateKey)
	switch {
	case err == nil && !*force:
		what := "a private key"
		if s, perr := api.ParsePrivateKey([]byte(old)); perr == nil {
			what = "a private key (" + keySummary(s.Public()) + ")"
		}
		return fmt.Errorf("%s is already stored for profile %q; replacing it breaks the API key registered with it. Pass --force to replace it", what, *name)
	case err != nil && !errors.Is(err, keystore.ErrNotStored):
		return err
	}

	pair, err := api.NewKeyPair(*typ, *bits)
	if err != nil {
		return err
	}
	if err := sec.Set(*name, keystore.KeyPrivateKey, pair.PrivatePEM); err != nil {
		return err
	}
	if _, err := io.WriteString(f.Stdout, pair.PublicPEM); err != nil {
		return err
	}
	fmt.Fprintf(f.Stderr, "Private key (%s) stored in the keyring under %s; public key %s.\n", keyTypeOf(pair.Signer.Public()), keystore.Service(*name), pair.Fingerprint)
	fmt.Fprintln(f.Stderr, "Register the public key above with the service, then store the API key it issues with:")
	if lookupErr == nil {
		fmt.Fprintf(f.Stderr, "  tesouro profile add %s --replace --base-url %s --env %s --api-key-file FILE\n", *name, p.BaseURL, p.Env)
	} else {
		fmt.Fprintf(f.Stderr, "  tesouro profile add %s --base-url URL --env sandbox|production --api-key-file FILE\n", *name)
	}
	return nil
}

// keySummary names a public key and its fingerprint, for telling keys apart.
func keySummary(pub crypto.PublicKey) string {
	return keyTypeOf(pub) + ", public key " + api.Fingerprint(pub)
}

// keyTypeOf names a public key the way --type does.
func keyTypeOf(pub crypto.PublicKey) string {
	switch k := pub.(type) {
	case ed25519.PublicKey:
		return api.KeyEd25519
	case *ecdsa.PublicKey:
		return api.KeyECDSA + " " + k.Curve.Params().Name
	case *rsa.PublicKey:
		return fmt.Sprintf("%s %d", api.KeyRSA, k.N.BitLen())
	}
	return "unknown"
}
