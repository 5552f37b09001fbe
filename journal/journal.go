// Package journal keeps the local journal of write actions: one JSON line
// per action the user took against the service (time, profile, account,
// endpoint, ids, amounts, outcome). It never records a secret.
package journal

import (
	"time"
)

// Entry is one journal line.
type Entry struct {
	Time     time.Time         `json:"time"`
	Profile  string            `json:"profile"`
	Env      string            `json:"env"`
	Account  string            `json:"account"` // account id, "main" for the main account
	Action   string            `json:"action"`  // e.g. "create-ticket", "approve-operation"
	Endpoint string            `json:"endpoint"`
	IDs      map[string]string `json:"ids,omitempty"`
	Amounts  map[string]string `json:"amounts,omitempty"`
	Outcome  string            `json:"outcome"` // "created", "parked", "approved", "error: ..."
}

// Journal appends entries to a JSON-lines file.
type Journal struct {
	path string
}
