package main

import (
	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/views/accesses"
	"github.com/tesouro-treasury/tesouro/views/approvals"
	"github.com/tesouro-treasury/tesouro/views/beneficiaries"
	"github.com/tesouro-treasury/tesouro/views/compliance"
	"github.com/tesouro-treasury/tesouro/views/overview"
	"github.com/tesouro-treasury/tesouro/views/quote"
	"github.com/tesouro-treasury/tesouro/views/subaccounts"
	"github.com/tesouro-treasury/tesouro/views/tickets"
	"github.com/tesouro-treasury/tesouro/views/trades"
	"github.com/tesouro-treasury/tesouro/views/webhooks"
)

// screens lists the dashboard's screens in tab order, built on client c;
// number keys 1..9 and 0 select them in this order. Each views package
// declares the calls it makes as its own Service interface, so the compiler
// checks here that the client has every one of them.
func screens(c *api.Client) []ui.Factory {
	return []ui.Factory{
		{ID: "overview", Title: "Overview", New: func(s *ui.Session) ui.Screen { return overview.New(s) }},                   // 1
		{ID: "quote", Title: "Quote", New: func(s *ui.Session) ui.Screen { return quote.New(s) }},                            // 2
		{ID: "tickets", Title: "Tickets", New: func(s *ui.Session) ui.Screen { return tickets.New(s, c) }},                   // 3
		{ID: "approvals", Title: "Approvals", New: func(s *ui.Session) ui.Screen { return approvals.New(s) }},                // 4
		{ID: "beneficiaries", Title: "Beneficiaries", New: func(s *ui.Session) ui.Screen { return beneficiaries.New(s, c) }}, // 5
		{ID: "subaccounts", Title: "Sub-accounts", New: func(s *ui.Session) ui.Screen { return subaccounts.New(s) }},         // 6
		{ID: "trades", Title: "Trades", New: func(s *ui.Session) ui.Screen { return trades.New(s, c) }},                      // 7
		{ID: "compliance", Title: "Compliance", New: func(s *ui.Session) ui.Screen { return compliance.New(s, c) }},          // 8
		{ID: "webhooks", Title: "Webhooks", New: func(s *ui.Session) ui.Screen { return webhooks.New(s, c) }},                // 9
		{ID: "accesses", Title: "Accesses", New: func(s *ui.Session) ui.Screen { return accesses.New(s) }},                   // 0
	}
}
