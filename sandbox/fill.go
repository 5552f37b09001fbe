package sandbox

import "github.com/tesouro-treasury/tesouro/sandbox/demo"

// FillTickets adds n settled tickets to the main account's history, spread
// over the last 90 days, in one transaction: for
// measurements of the clients at a scale the request path would take
// minutes to reach. The same seed gives the same tickets.
func (s *Server) FillTickets(n int, seed int64) error { return demo.Fill(s.eng, n, seed) }
