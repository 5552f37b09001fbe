package demo

import (
	"encoding/hex"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/sandbox/engine"
	"github.com/tesouro-treasury/tesouro/sandbox/records"
)

// The team administrator of the demo (spec/service.md §8.8): the one
// access with manageAccesses, and a TOTP second factor for every demo
// access, its secret in the credentials file.

// adminName is the demo access that administers the team.
const adminName = "admin"

// totpSecret is the TOTP secret of a demo access (20 bytes, RFC 4226's
// recommended size), published with the seed like its other secrets.
func totpSecret(sec secrets, name string) []byte {
	return sec.derive("totp/" + name)[:20]
}

// addAdmin adds the demo's team administrator: manageAccesses and the
// service's read-only admin mark, no money permission (who administers
// the team is not who moves the money), an active second factor. Its ids
// are drawn from a stream of their own, so that the seed's other data stay
// as they were before it existed.
func addAdmin(e *engine.Engine, seed int64, sec secrets, now time.Time) error {
	r := newDemoRand(seed, "team-admin")
	pub, pemText, err := demoKey(sec, adminName, "ed25519", "", false)
	if err != nil {
		return fmt.Errorf("demo access %s: %w", adminName, err)
	}
	secret := sec.derive("secret/" + adminName)
	created := now.Add(-210 * 24 * time.Hour)
	a := &engine.Access{
		ID: r.uuid(), Name: adminName, Email: adminName + "@" + demoDomain,
		Perms:     records.Permissions{Admin: true, ManageAccesses: true, ManageWebhooks: true},
		CreatedAt: created, UpdatedAt: created, PasswordAt: created.Add(24 * time.Hour),
		KeyType: "ed25519", APIKey: "sbx_" + hex.EncodeToString(secret[:16]), PrivateKeyPEM: pemText, PublicKey: pub,
		Password:    "demo-" + hex.EncodeToString(secret[16:22]),
		EmailToken:  fmt.Sprintf("%06d", (int(secret[22])<<16|int(secret[23])<<8|int(secret[24]))%1000000),
		Blacklisted: map[uuid.UUID]bool{},
		TOTPSecret:  totpSecret(sec, adminName),
	}
	a.Perms.ID = r.uuid().String()
	a.Perms.UpdatedAt = engine.FormatTime(created)
	a.MFAID = r.uuid()
	e.AddAccess(a)
	return nil
}
