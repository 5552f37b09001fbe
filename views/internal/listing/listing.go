// Package listing is the one list base of the dashboard: List[T], which
// Tickets, Trades, Webhooks, the tabbed lists of Beneficiaries and
// Compliance (and the other list screens) embed, holds a typed Table[T] of
// the service's records with a row renderer, pages it through one ui.Slot
// (an answer to a request made before a reload, or for another account, is
// dropped), asks for the next page before the cursor reaches the end, takes
// the / filter and draws the count line, error line and table. Beside it:
// the filter bar's creation-date range, the filter form's frame, and the
// scrolled key/value sheet of a detail pane. Each screen keeps its own
// columns, server filters, keys and details.
package listing

// PrefetchMargin: the next page is asked for when the cursor comes within
// this many rows of the last loaded one.
const PrefetchMargin = 10
