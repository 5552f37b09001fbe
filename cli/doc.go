// Package cli holds Tesouro's scripting commands (balances, tickets,
// quote, approvals, beneficiaries, statement, webhooks, accounts, api,
// sandbox fund): one file per command group, all built on the same pieces:
// the global flags (Globals), the choice of service and credentials
// (Target), and one output layer (table, CSV, JSON, jq). main.go only wires
// them into the command tree.
package cli
