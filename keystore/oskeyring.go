package keystore

import (
	"time"

	"github.com/zalando/go-keyring"
)

// Default bounds of one keyring call. Reads answer in milliseconds when the
// keyring works; anything much slower is a hung daemon or a prompt nobody
// sees. Writes get a little longer.
const (
	DefaultReadTimeout  = 5 * time.Second
	DefaultWriteTimeout = 10 * time.Second
)

// KeyringOptions tune OSKeyringWith.
type KeyringOptions struct {
	ReadTimeout  time.Duration // 0: DefaultReadTimeout
	WriteTimeout time.Duration // 0: DefaultWriteTimeout
	// Waiting, when set, is called once for a call still unanswered after
	// WaitNotice (0: one second), so that a command can say "waiting for the
	// keyring" while the desktop may be asking for an unlock password.
	Waiting    func(timeout time.Duration)
	WaitNotice time.Duration
}

// OSKeyring returns the secrets store of the operating system (the Secret
// Service on Linux, the Keychain on macOS, the Credential Manager on
// Windows), with every call bounded by the default timeouts.
func OSKeyring() Secrets { return OSKeyringWith(KeyringOptions{}) }

// OSKeyringWith is OSKeyring with other bounds.
func OSKeyringWith(o KeyringOptions) Secrets {
	return &store{b: newBoundedBackend(osBackend{}, o)}
}

// osBackend is go-keyring itself.
type osBackend struct{}

func (osBackend) Get(service, user string) (string, error) { return keyring.Get(service, user) }
func (osBackend) Set(service, user, value string) error    { return keyring.Set(service, user, value) }
func (osBackend) Delete(service, user string) error        { return keyring.Delete(service, user) }

// boundedBackend runs each call of its backend in a goroutine and gives up
// at the deadline: go-keyring has no timeout of its own, and a D-Bus call to
// a wedged Secret Service never returns. An abandoned call finishes (or not)
// in the background; its result is dropped.
type boundedBackend struct {
	b           backend
	read, write time.Duration
	notice      time.Duration
	waiting     func(time.Duration)
}

func newBoundedBackend(b backend, o KeyringOptions) *boundedBackend {
	bb := &boundedBackend{b: b, read: o.ReadTimeout, write: o.WriteTimeout, notice: o.WaitNotice, waiting: o.Waiting}
	if bb.read <= 0 {
		bb.read = DefaultReadTimeout
	}
	if bb.write <= 0 {
		bb.write = DefaultWriteTimeout
	}
	if bb.notice <= 0 {
		bb.notice = time.Second
	}
	return bb
}

type result struct {
	v   string
	err error
}

func (bb *boundedBackend) call(timeout time.Duration, f func() (string, error)) (string, error) {
	ch := make(chan result, 1) // buffered: an abandoned call must not block forever on send
	go func() {
		v, err := f()
		ch <- result{v, err}
	}()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	var notice <-chan time.Time
	if bb.waiting != nil && bb.notice < timeout {
		t := time.NewTimer(bb.notice)
		defer t.Stop()
		notice = t.C
	}
	for {
		select {
		case r := <-ch:
			return r.v, r.err
		case <-notice:
			notice = nil
			bb.waiting(timeout)
		case <-deadline.C:
			return "", errTimeout{timeout}
		}
	}
}

func (bb *boundedBackend) Get(service, user string) (string, error) {
	return bb.call(bb.read, func() (string, error) { return bb.b.Get(service, user) })
}

func (bb *boundedBackend) Set(service, user, value string) error {
	_, err := bb.call(bb.write, func() (string, error) { return "", bb.b.Set(service, user, value) })
	return err
}

func (bb *boundedBackend) Delete(service, user string) error {
	_, err := bb.call(bb.write, func() (string, error) { return "", bb.b.Delete(service, user) })
	return err
}
