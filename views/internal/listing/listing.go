// Package listing is the one list base of the dashboard: List[T], which
// Tickets, Trades, Webhooks, the tabbed lists of Beneficiaries and
// Compliance (and the other list screens) embed, holds a typed Table[T] of
// the service's records with a row renderer, pages it through one ui.Slot
// (an answer to a request made before a reload, or for another account, is
// dropped), asks for the next page before the cursor reaches the end (G
// loads every page left, its progress in the count, esc stopping it),
// takes the / filter and draws the count line, error line and table; it
// gives the keys of the filter bar (FilterKey) and says which keys a screen
// offers (Bindings). Beside it: the filter bar's creation-date range, the
// filter form's frame, the open record of a detail pane (Detail) and the
// scrolled key/value sheet it shows, and the columns a narrower layout
// keeps (Pick). Each screen keeps its own columns, server filters, keys and
// details.
//
// Two lists are shown only whole, and load with FetchWhole (every page in
// one request, the table's values swapped at once) onto a Table instead of
// embedding List:
//   - Approvals: the pending count on the tab is only true over every page,
//     and each reload (a poll every 30 s) merges the fresh entries with the
//     details already loaded (amounts, approvers, beneficiary); List would
//     show a poll's first page alone, the count falling and rising while
//     the rest comes, and would drop the details with the rows.
//   - Sub-accounts: the main account is pinned as the first row, which no
//     page of the service holds, and the / filter ranks the accounts by a
//     fuzzy match (best first) where List's filter keeps rows containing the
//     text in the loaded order; both need the whole set at once.
//
// Lists that page as the cursor moves (Tickets, Trades, Webhooks,
// Beneficiaries, Compliance, Accesses) embed List.
package listing

// PrefetchMargin: the next page is asked for when the cursor comes within
// this many rows of the last loaded one.
const PrefetchMargin = 10
