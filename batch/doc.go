// Package batch pays many beneficiaries from one CSV file: it parses the
// file, checks every row before any money moves, prices the rows, and pays
// each row through the payment core (payment.Send), so that a row is looked
// up by its external id before it is sent, a lost answer is reconciled and
// never blindly sent again, and every creation is journaled as the
// dashboard's are.
//
// The steps, each its own function so that the command line and the
// dashboard drive the same code:
//
//   - Parse reads the file of a named batch (UTF-8, "," or ";", a header
//     row) into rows. Each row gets an external id: the one given in the
//     file, or one made of the batch's name, the row's own content and its
//     ordinal among identical rows (RowExternalID). Appending, removing,
//     reordering or editing rows changes no other row's id.
//   - Check resolves every row against the account (beneficiary, PIX key
//     holder through pix-info, EIP-55 addresses, currency and source),
//     looks each row up by its external id (a row an earlier run created
//     or parked is marked so, and a ticket of another payment under the
//     row's id makes it invalid), prices the rows this run pays (quotes in
//     waves of bounded concurrency), then checks them against the account:
//     permissions, balance, the month's limits. The Plan it returns says,
//     row by row, whether it is new, already created, parked, or invalid
//     and why; nothing may run while a row is invalid unless the caller
//     chooses to run only the valid rows.
//   - Run executes a plan, at most Concurrency rows at a time; right
//     before its creation, a row whose quote would not outlive the
//     creation is quoted again, so every ticket is created on a live quote
//     (a re-quote that costs more than MaxDrift over what was reviewed is
//     refused for that row). A rule the service reports for the whole
//     batch (a frozen access, a missing permission, no balance) stops it;
//     so does the caller's context (Ctrl-C, an account switch), between
//     rows: the rows in flight are finished, never abandoned. Every row's
//     outcome goes to the caller as it happens, and the Results file keeps
//     every run's lines, appended with their time, invalid rows included.
//
// Resuming: running the batch again finds every row an earlier run
// created, so an interrupted run is completed and an edited file pays only
// what is new. A creation parked for multi-signature approval leaves no
// ticket to find (and requesters cannot list operations), so parked rows,
// and rows whose parked creation lost its answer, are also written to a
// Ledger that the next run reads: the first are reported, the second are
// never sent again blindly.
//
// Payouts supported [decided]: what the currency column names decides
// the kind of beneficiary a row pays, and the beneficiary column names one
// of that kind:
//
//   - BRL over PIX to a registered BRL beneficiary (by id, alias or its PIX
//     key), or to any PIX key inline (its holder read through pix-info);
//   - tokens to a registered wallet (by id or alias, or its address with
//     the chain column), or to any address inline with the chain column;
//   - USD by ACH or WIRE, EUR by SEPA, ARS to a CVU and COP by bank transfer,
//     each to a beneficiary of that currency registered first, by id or
//     alias: the service has no inline variant for them (service.md §7.1).
//
// A name shared by beneficiaries of several kinds is the one of the row's
// currency; a beneficiary of another currency than the row's, a rail its
// currency does not travel by, or an unknown name is refused with the
// reason. The rail column says how a USD payout travels, ACH (the default:
// the USD beneficiary record does not say, and ACH is the catalogue's first
// and the cheaper one) or WIRE; every other currency has one rail, which
// the column may repeat. Each row's ticket carries the block its rail asks
// for (ticketBrlPixOutput, ticketBlockchainOutput, ticketUsdOutput,
// ticketUsdWireOutput, ticketEurSepaOutput, ticketArsOutput,
// ticketCopOutput), and the reference column goes in that rail's own field
// (pixMessage, achReference, wireMessage, sepaReference; at most 140
// bytes); chains, CVU and COP transfers carry none, so there it stays in
// the file. The review shows the bank account, IBAN or CVU masked to its
// last four characters (see Payee.Key).
//
// The source is always a balance of the account (method INTERNAL): a batch
// pays out of the account, it does not collect 200 separate pay-ins.
package batch
