package keystore

import (
	"sync"

	"github.com/zalando/go-keyring"
)

// NewMemory returns a Secrets kept in memory, for tests. It enforces the
// strictest platform limit per entry (EntryLimit bytes, as Windows does),
// so large secrets go through the same splitting as on a real keyring.
func NewMemory() Secrets { return &store{b: newMemBackend()} }

type memBackend struct {
	mu sync.Mutex
	m  map[[2]string]string
}

func newMemBackend() *memBackend { return &memBackend{m: map[[2]string]string{}} }

func (m *memBackend) Get(service, user string) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.m[[2]string{service, user}]
	if !ok {
		return "", keyring.ErrNotFound
	}
	return v, nil
}

func (m *memBackend) Set(service, user, value string) error {
	if len(value) > EntryLimit {
		return keyring.ErrSetDataTooBig
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.m[[2]string{service, user}] = value
	return nil
}

func (m *memBackend) Delete(service, user string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	k := [2]string{service, user}
	if _, ok := m.m[k]; !ok {
		return keyring.ErrNotFound
	}
	delete(m.m, k)
	return nil
}
