//go:build race

package sandbox

// raceEnabled: under the race detector the SQLite code (Go, instrumented
// like any other) runs many times slower, so tests whose size proves
// nothing more than a smaller one use the smaller one.
const raceEnabled = true
