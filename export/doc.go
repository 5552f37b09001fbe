// Package export writes what Tesouro exports (tickets, the statement) as CSV
// files a spreadsheet can open safely: fixed columns that never move from
// one export to the next, cells that a spreadsheet would run as a formula
// guarded, and file names that say which account the rows belong to. The
// command line uses it today; the dashboard can call the same code.
package export
