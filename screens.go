package main

import (
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
