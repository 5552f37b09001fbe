package keystore

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/zalando/go-keyring"
)

// Kinds of keyring failure; match them with errors.Is.
var (
	ErrNotStored       = errors.New("no credential stored")
	ErrNoSessionBus    = errors.New("no D-Bus session bus")
	ErrNoSecretService = errors.New("no Secret Service")
	ErrKeyringLocked   = errors.New("keyring locked or unavailable")
	ErrKeyringTimeout  = errors.New("keyring did not answer")
	ErrSecretTooLarge  = errors.New("secret too large")
	ErrSecretDamaged   = errors.New("stored secret damaged")
	ErrKeyring         = errors.New("keyring error")
)

// Error is a keyring failure explained for the user: Error() says what
// happened and what to do; errors.Is matches its Kind.
type Error struct {
	Kind    error
	Profile string
	Key     string
	Err     error // what the keyring said, if anything
	msg     string
}

func (e *Error) Error() string        { return e.msg }
func (e *Error) Unwrap() error        { return e.Err }
func (e *Error) Is(target error) bool { return target == e.Kind }

// errTimeout is what a bounded call returns when its deadline passes.
type errTimeout struct{ after time.Duration }

func (e errTimeout) Error() string { return fmt.Sprintf("no answer within %s", e.after) }

// explain turns a keyring failure into a plain message with its fix. The
// texts matched are those go-keyring and the Secret Service produce (see
// reference/keyring-ci.md).
func explain(err error, profile, key string) error {
	if err == nil {
		return nil
	}
	var ke *Error
	if errors.As(err, &ke) {
		return err
	}
	e := &Error{Profile: profile, Key: key, Err: err}
	text := err.Error()
	var to errTimeout
	switch {
	case errors.Is(err, keyring.ErrNotFound):
		e.Kind = ErrNotStored
		e.msg = fmt.Sprintf("no credential stored for profile %q (%s): %s", profile, keyLabel(key), notStoredFix(profile, key))
	case errors.As(err, &to):
		e.Kind = ErrKeyringTimeout
		e.msg = fmt.Sprintf("the keyring did not answer within %s %s", to.after, timeoutFix)
	case strings.Contains(text, "Did not receive a reply"), strings.Contains(text, "NoReply"):
		// The bus gave up on the Secret Service before our own deadline.
		e.Kind = ErrKeyringTimeout
		e.msg = "the keyring did not answer " + timeoutFix
	case errors.Is(err, keyring.ErrSetDataTooBig):
		e.Kind = ErrSecretTooLarge
		e.msg = fmt.Sprintf("secret too large: the keyring refused the %s of profile %q as too big; use a smaller key (for example \"tesouro keygen --type ed25519\")", keyLabel(key), profile)
	case strings.Contains(text, "dbus-launch"), strings.Contains(text, "couldn't determine address of session bus"),
		strings.Contains(text, "DBUS_SESSION_BUS_ADDRESS"):
		e.Kind = ErrNoSessionBus
		e.msg = "no D-Bus session bus is running, so the keyring cannot be reached: use tesouro inside a desktop session, or start a session bus and a Secret Service (dbus-run-session -- sh, then gnome-keyring-daemon --unlock and --start --components=secrets)"
	case strings.Contains(text, "org.freedesktop.secrets was not provided"), strings.Contains(text, "ServiceUnknown"),
		strings.Contains(text, "Failed to activate service 'org.freedesktop.secrets'"):
		e.Kind = ErrNoSecretService
		e.msg = "no Secret Service is running: start gnome-keyring-daemon (\"gnome-keyring-daemon --start --components=secrets\") or another Secret Service such as KeePassXC, then try again"
	case strings.Contains(text, "failed to unlock"), strings.Contains(text, "IsLocked"), strings.Contains(text, "locked collection"):
		e.Kind = ErrKeyringLocked
		e.msg = "keyring locked or unavailable: unlock it (log in to your desktop session, or pipe the keyring password to \"gnome-keyring-daemon --unlock\"; a new keyring needs a non-empty password), then try again"
	default:
		e.Kind = ErrKeyring
		e.msg = fmt.Sprintf("keyring error for profile %q (%s): %v; check that the keyring works (for example \"secret-tool search service %s\") and try again", profile, keyLabel(key), err, Service(profile))
	}
	return e
}

const timeoutFix = "(it may be waiting for an unlock password, or the Secret Service is hung): unlock the keyring, or restart it with \"gnome-keyring-daemon --replace --components=secrets\", then try again"

func notStoredFix(profile, key string) string {
	switch key {
	case KeyRefreshToken, KeyAccessToken:
		return fmt.Sprintf("log in with \"tesouro login --profile %s\"", profile)
	case KeyPrivateKey:
		return fmt.Sprintf("make one with \"tesouro keygen --profile %s --type ed25519\" and register its public key, or store yours with \"tesouro profile add %s --replace ... --private-key-file FILE\"", profile, profile)
	default:
		return fmt.Sprintf("store it with \"tesouro profile add %s --replace ... --api-key-file FILE\"", profile)
	}
}
