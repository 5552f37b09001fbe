package keystore

import (
	"strings"
	"testing"

	"github.com/tesouro-treasury/tesouro/internal/sstest"
)

// Latency of the real Secret Service through the bounded store: a small
// secret, and an RSA-4096-sized one split across entries.
func BenchmarkOSKeyring(b *testing.B) {
	sstest.Need(b)
	s := OSKeyring()
	for _, size := range []int{64, 3300} {
		v := strings.Repeat("k", size)
		name := "bench-" + map[bool]string{true: "small", false: "split"}[size <= EntryLimit]
		b.Run(name+"/Set", func(b *testing.B) {
			for b.Loop() {
				if err := s.Set(name, KeyPrivateKey, v); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/Get", func(b *testing.B) {
			for b.Loop() {
				if _, err := s.Get(name, KeyPrivateKey); err != nil {
					b.Fatal(err)
				}
			}
		})
		s.Delete(name, KeyPrivateKey)
	}
}
