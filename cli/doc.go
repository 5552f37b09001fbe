// Package cli is Tesouro's command line, every command of it: the
// dashboard (the root command), profile, keygen, login, sandbox and
// version, and the scripting commands (balances, accounts, tickets, ticket
// create, quote, approvals, beneficiaries, statement, webhooks, api,
// batch, sandbox fund), one file per command or group.
//
// Every command is built from one Factory (factory.go), made once by main
// or by a test with buffers: the streams and their terminal tests, the
// environment, the global flags, and lazy access to the config, the one
// profile lookup (Profile) and target choice (Resolve, target.go), the one
// client construction (NewClient, with the --debug trace), the journal,
// the keyring and the one Prompter. Scripting commands print through one
// output layer (table, CSV, JSON, jq; output.go). The dashboard's screens
// are handed to the factory by main, so that this package does not depend
// on them.
package cli
