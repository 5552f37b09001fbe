// Package keystore keeps Tesouro's connection profiles and their secrets.
//
// A profile (name, base URL, environment, auth kind, default sub-account,
// read-only flag) lives in config.toml in the configuration directory; that
// file never holds a secret. Secrets (API keys, private keys, JWT tokens)
// live only in the OS keyring, under the service "tesouro:<profile>", behind
// the small Secrets interface. OSKeyring bounds every keyring call with a
// timeout, because the Linux Secret Service can block forever on an unlock
// prompt or a wedged daemon, turns keyring failures into plain messages that
// say how to fix them, and splits secrets that are too large for the
// smallest platform limit across several entries. NewMemory is the same
// store in memory, for tests.
package keystore
