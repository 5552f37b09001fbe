package cli

import (
	"bufio"
	"bytes"
	"context"
	"crypto"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/journal"
	"github.com/tesouro-treasury/tesouro/termsafe"
)

func newCmdWebhooks(f *Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "webhooks",
		Short: "Webhooks: list, delivery attempts, acknowledge, verify a signature",
		Args:  cobra.ArbitraryArgs,
		RunE:  GroupRunE("list, attempts, ack or verify"),
		// Webhooks belong to the main account (§7.4): it hears every
		// sub-account's events, and the service takes no subAccountId on
		// these routes. A --sub-account that was accepted and then ignored
		// would let a user believe the list or the acknowledgement was the
		// sub-account's own, so it is refused. A profile's default
		// sub-account is not a flag the user typed here, and stays silent.
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			if fl := cmd.Flags().Lookup("sub-account"); fl != nil && fl.Changed {
				return Usagef("%s: --sub-account does not apply: webhooks belong to the main account, which receives every sub-account's events (each names its sub-account)", cmd.CommandPath())
			}
			return nil
		},
	}
	cmd.AddCommand(newCmdWebhooksList(f), newCmdWebhooksAttempts(f), newCmdWebhooksAck(f), newCmdWebhooksVerify(f))
	return cmd
}

func newCmdWebhooksList(f *Factory) *cobra.Command {
	cmd := &cobra.Command{Use: "list", Short: "List the account's webhooks", Args: noArgs,
		Example: `  tesouro webhooks list
  tesouro webhooks list --jq '.[] | {id, subscriptions}'`}
	out := addOutputFlags(cmd)
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		return f.runMain(cmd, func(ctx context.Context, s *session) error {
			hooks, err := s.client().ListWebhooks(ctx)
			if err != nil {
				return err
			}
			return out.Write(f.Stdout, hooks, func() Table {
				t := Table{Columns: []string{"id", "url", "subscriptions"}}
				for _, h := range hooks {
					t.Rows = append(t.Rows, []string{h.ID, h.URL, strings.Join(h.Subscriptions, ",")})
				}
				return t
			})
		})
	}
	return cmd
}

func newCmdWebhooksAttempts(f *Factory) *cobra.Command {
	var unacked bool
	var event string
	cmd := &cobra.Command{Use: "attempts", Short: "List delivery attempts (every page; --limit to stop early)", Args: noArgs,
		Example: `  tesouro webhooks attempts --unacked
  tesouro webhooks attempts --unacked --jq '.[].id' | xargs tesouro webhooks ack`}
	cmd.Flags().BoolVar(&unacked, "unacked", false, "only attempts not acknowledged yet")
	cmd.Flags().StringVar(&event, "event", "", "only attempts of this webhook event ID")
	out := addOutputFlags(cmd)
	limit := limitFlag(cmd)
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		return f.runMain(cmd, func(ctx context.Context, s *session) error {
			list, err := collect(ctx, *limit, func(ctx context.Context, cursor string) (api.Page[api.WebhookAttempt], error) {
				return s.client().ListWebhookAttempts(ctx, api.AttemptFilter{Cursor: cursor, UnackedOnly: unacked, WebhookEventID: event})
			})
			if err != nil {
				return err
			}
			return out.Write(f.Stdout, list, func() Table {
				t := Table{Columns: []string{"id", "event_id", "url", "response_status", "acknowledged", "created_at"}}
				for _, a := range list {
					t.Rows = append(t.Rows, []string{a.ID, a.WebhookEventID, a.WebhookURL, fmt.Sprint(a.ResponseStatus), fmt.Sprint(a.Acknowledged), a.CreatedAt})
				}
				return t
			})
		})
	}
	return cmd
}

func newCmdWebhooksAck(f *Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "ack ATTEMPT_ID...",
		Short: "Acknowledge delivery attempts",
		Example: `  tesouro webhooks ack ATTEMPT_ID
  tesouro webhooks attempts --unacked --jq '.[].id' | xargs tesouro webhooks ack`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return Usagef("%s: give at least one ATTEMPT_ID (see tesouro webhooks attempts --unacked)", cmd.CommandPath())
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return f.runWrite(cmd, write{what: "webhooks ack", mainOnly: true}, func(ctx context.Context, s *session) error {
				err := s.write("acknowledge-webhook-attempts", "PATCH /v2/notifications/webhooks/attempts", func(je *journal.Entry) error {
					je.IDs = make(map[string]string, len(args))
					for i, id := range args {
						je.IDs[fmt.Sprintf("attempt%d", i+1)] = id
					}
					if err := s.client().AcknowledgeWebhookAttempts(ctx, args); err != nil {
						return fmt.Errorf("acknowledge webhook attempts: %w", err)
					}
					je.Outcome = "acknowledged"
					return nil
				})
				if err != nil {
					return err
				}
				fmt.Fprintf(f.Stdout, "%d attempt(s) acknowledged\n", len(args))
				return nil
			})
		},
	}
}

func newCmdWebhooksVerify(f *Factory) *cobra.Command {
	var sig, keyFile string
	cmd := &cobra.Command{
		Use:   "verify",
		Short: "Check a webhook delivery's signature (body or whole HTTP request on stdin)",
		Long: `Reads a webhook delivery on stdin and checks its signature: RSA-PSS with
SHA-256 over the exact body, base64 in the "signature" header, verifiable
with the service's key (GET /v2/public-key). Stdin is either the raw body
(give --signature) or the whole HTTP request as received, headers included.
The key comes from --public-key FILE, else from the service of the chosen
profile (or --credentials / --sandbox). Exit 0 when it verifies, 1 otherwise.`,
		Example: `  tesouro --credentials sandbox-credentials.json webhooks verify < delivery.http
  tesouro webhooks verify --signature "$SIG" --public-key service.pem < body.json`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			raw, err := io.ReadAll(io.LimitReader(f.Stdin, 8<<20))
			if err != nil {
				return err
			}
			body := raw
			if bytes.HasPrefix(raw, []byte("POST ")) {
				req, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(raw)))
				if err != nil {
					return Usagef("stdin looks like an HTTP request but cannot be read: %v", err)
				}
				if body, err = io.ReadAll(req.Body); err != nil {
					return err
				}
				if sig == "" {
					sig = req.Header.Get("Signature")
				}
			}
			if sig == "" {
				return Usagef("no signature: give --signature, or the whole HTTP request (with its signature header) on stdin")
			}
			var keyPEM []byte
			if keyFile != "" {
				if keyPEM, err = os.ReadFile(keyFile); err != nil {
					return err
				}
			} else {
				err := f.runMain(cmd, func(ctx context.Context, s *session) error {
					k, err := s.client().PublicKey(ctx)
					keyPEM = []byte(k)
					return err
				})
				if err != nil {
					return fmt.Errorf("fetch the public key: %w", err)
				}
			}
			if err := VerifyDelivery(keyPEM, body, sig); err != nil {
				return err
			}
			// The event is named in either shape (wrapped, §8.6, or flat).
			if ev, err := api.ReadDelivery(body); err == nil {
				fmt.Fprintf(f.Stdout, "signature valid (%d-byte body): %s\n", len(body), termsafe.Text(ev.Subscription+" "+ev.Type()+" event "+ev.ID))
				return nil
			}
			fmt.Fprintf(f.Stdout, "signature valid (%d-byte body; not a webhook event)\n", len(body))
			return nil
		},
	}
	cmd.Flags().StringVar(&sig, "signature", "", "the delivery's signature header VALUE (base64)")
	cmd.Flags().StringVar(&keyFile, "public-key", "", "file with the service's webhook key, PEM (default: fetched from the service)")
	return cmd
}

// ErrBadSignature means a delivery's signature does not verify.
var ErrBadSignature = errors.New("signature does NOT verify: the body was changed, or it was not signed by this service")

// VerifyDelivery checks a webhook signature (base64 RSA-PSS SHA-256 over
// body) with the service's public key PEM.
func VerifyDelivery(keyPEM, body []byte, signature string) error {
	block, _ := pem.Decode(keyPEM)
	if block == nil {
		return errors.New("the public key is not PEM")
	}
	var pub *rsa.PublicKey
	switch block.Type {
	case "RSA PUBLIC KEY":
		k, err := x509.ParsePKCS1PublicKey(block.Bytes)
		if err != nil {
			return fmt.Errorf("public key: %w", err)
		}
		pub = k
	default:
		k, err := x509.ParsePKIXPublicKey(block.Bytes)
		if err != nil {
			return fmt.Errorf("public key: %w", err)
		}
		rk, ok := k.(*rsa.PublicKey)
		if !ok {
			return errors.New("public key: not an RSA key")
		}
		pub = rk
	}
	sig, err := base64.StdEncoding.DecodeString(signature)
	if err != nil {
		return fmt.Errorf("%w (the signature is not base64)", ErrBadSignature)
	}
	h := sha256.Sum256(body)
	if rsa.VerifyPSS(pub, crypto.SHA256, h[:], sig, &rsa.PSSOptions{SaltLength: rsa.PSSSaltLengthAuto}) != nil {
		return ErrBadSignature
	}
	return nil
}
