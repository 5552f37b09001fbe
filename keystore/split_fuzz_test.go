package keystore

import (
	"strings"
	"testing"
)

// Any secret up to the size limit comes back exactly as stored, whatever
// its size or content (including text that looks like a split header), and
// no entry exceeds the platform limit.
func FuzzSplitRoundTrip(f *testing.F) {
	f.Add("short", 1)
	f.Add(splitMarker+"parts=2 bytes=10 sha256=ab", 1)
	f.Add("é", EntryLimit)
	f.Add("-----BEGIN PRIVATE KEY-----\n", 120)
	f.Fuzz(func(t *testing.T, unit string, n int) {
		if n < 0 || n > 40 || len(unit)*n > MaxSecretBytes {
			t.Skip()
		}
		v := strings.Repeat(unit, n)
		s := NewMemory().(*store)
		if err := s.Set("p", KeyPrivateKey, v); err != nil {
			t.Fatalf("Set(%d bytes): %v", len(v), err)
		}
		got, err := s.Get("p", KeyPrivateKey)
		if err != nil || got != v {
			t.Fatalf("round trip of %d bytes: err %v, equal %v", len(v), err, got == v)
		}
		if err := s.Delete("p", KeyPrivateKey); err != nil {
			t.Fatal(err)
		}
		if n := len(s.b.(*memBackend).m); n != 0 {
			t.Fatalf("Delete left %d entries", n)
		}
	})
}
