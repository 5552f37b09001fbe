package main

import (
	"tesouro/ui"
	"tesouro/views/accesses"
	"tesouro/views/approvals"
	"tesouro/views/beneficiaries"
	"tesouro/views/compliance"
	"tesouro/views/overview"
	"tesouro/views/quote"
	"tesouro/views/subaccounts"
	"tesouro/views/tickets"
	"tesouro/views/trades"
	"tesouro/views/webhooks"
)

// screens lists the dashboard's screens in tab order; number keys 1..9 and 0
// select them in this order. Each views package exports New(*ui.Session).
var screens = []ui.Factory{
	overview.New,      // 1
	quote.New,         // 2
	tickets.New,       // 3
	approvals.New,     // 4
	beneficiaries.New, // 5
	subaccounts.New,   // 6
	trades.New,        // 7
	compliance.New,    // 8
	webhooks.New,      // 9
	accesses.New,      // 0
}
