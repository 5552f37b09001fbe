package sandbox

import (
	"github.com/tesouro-treasury/tesouro/sandbox/engine"
)

// What the tests ask of a sandbox's insides.

// access is the demo access named name.
func (s *Server) access(name string) *engine.Access {
	for _, a := range s.eng.Accesses() {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// countTickets is the number of stored tickets of the main account.
func (s *Server) countTickets() (int, error) { return s.eng.CountTickets(s.eng.Main()) }

// bulkTickets fills the main account's history with n tickets.
func (s *Server) bulkTickets(n int, seed int64) error { return s.FillTickets(n, seed) }

// errorBody is the error body of spec/service.md §4.
type errorBody struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
