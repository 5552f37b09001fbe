package main

import (
	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/views/accesses"
	"github.com/tesouro-treasury/tesouro/views/approvals"
	"github.com/tesouro-treasury/tesouro/views/batch"
	"github.com/tesouro-treasury/tesouro/views/beneficiaries"
	"github.com/tesouro-treasury/tesouro/views/compliance"
	"github.com/tesouro-treasury/tesouro/views/overview"
	"github.com/tesouro-treasury/tesouro/views/quote"
	"github.com/tesouro-treasury/tesouro/views/statement"
	"github.com/tesouro-treasury/tesouro/views/subaccounts"
	"github.com/tesouro-treasury/tesouro/views/tickets"
	"github.com/tesouro-treasury/tesouro/views/trades"
	"github.com/tesouro-treasury/tesouro/views/webhooks"
)

// screens lists the dashboard's screens in tab order, built on client c
// (keeper files the API keys the Accesses screen creates; nil offers none);
// the number row (1..9, 0, - and =) selects them in this order. Each views package
// declares the calls it makes as its own Service interface, so the compiler
// checks here that the client has every one of them.
func screens(c *api.Client, keeper accesses.Keeper) []ui.Factory {
	return []ui.Factory{
		{ID: "overview", Title: "Overview", Short: "Home", New: func(s *ui.Session) ui.Screen { return overview.New(s, c) }},                 // 1
		{ID: "quote", Title: "Quote", Short: "Qte", New: func(s *ui.Session) ui.Screen { return quote.New(s, c) }},                           // 2
		{ID: "tickets", Title: "Tickets", Short: "Tkts", New: func(s *ui.Session) ui.Screen { return tickets.New(s, c) }},                    // 3
		{ID: "approvals", Title: "Approvals", Short: "Appr", New: func(s *ui.Session) ui.Screen { return approvals.New(s, c) }, Watch: true}, // 4: new operations are told on any screen
		{ID: "beneficiaries", Title: "Beneficiaries", Short: "Bnfs", New: func(s *ui.Session) ui.Screen { return beneficiaries.New(s, c) }},  // 5
		{ID: "subaccounts", Title: "Sub-accounts", Short: "Subs", New: func(s *ui.Session) ui.Screen { return subaccounts.New(s, c) }},       // 6
		{ID: "trades", Title: "Trades", Short: "Trds", New: func(s *ui.Session) ui.Screen { return trades.New(s, c) }},                       // 7
		{ID: "compliance", Title: "Compliance", Short: "Comp", New: func(s *ui.Session) ui.Screen { return compliance.New(s, c) }},           // 8
		{ID: "webhooks", Title: "Webhooks", Short: "Hook", New: func(s *ui.Session) ui.Screen { return webhooks.New(s, c) }},                 // 9
		{ID: "accesses", Title: "Accesses", Short: "Accs", New: func(s *ui.Session) ui.Screen { return accesses.New(s, c, keeper) }},         // 0
		{ID: "batch", Title: "Batch", Short: "Bat", New: func(s *ui.Session) ui.Screen { return batch.New(s, c) }},                           // -
		{ID: "statement", Title: "Statement", Short: "Stmt", New: func(s *ui.Session) ui.Screen { return statement.New(s, c) }},              // =
	}
}
