// Package payment is the one author of a payment. The dashboard's Quote
// and Batch screens, `tesouro ticket create`, `tesouro batch run` and the
// approvals inbox all build, check, send and read back a payment here, so
// that they cannot disagree with each other about what a payment is.
//
// A payment starts as an Intent: what the operator means, as a value. The
// account it acts on, what goes in and comes out (currency and method),
// which amount is fixed, where the output goes (a Destination for every
// output kind of service.md §7.1), the markup, the reference for the
// beneficiary and the external id that names the intent. Then, each step
// one function:
//
//   - Intent.Validate checks it locally, before any request;
//   - Intent.QuoteRequest is the quote it asks for;
//   - Required says, from a quote alone, which blocks its ticket needs;
//   - Intent.TicketRequest turns the intent and its quote into the
//     creation request (refusing a quote that prices another intent);
//   - Check and Needs decide whether an access may make it (the flags of
//     service.md §7.5), Usage whether the month's limits allow it;
//   - Send creates the ticket once: a ticket already held under the
//     external id is compared with the intent first (Match), a lost answer
//     is reconciled by the client, and the outcome is journaled (Entry);
//   - FromRequest reads a parked request back into an Intent, which the
//     approvals inbox shows.
//
// A ticket found under the external id is believed only when it is the
// same payment: a different intent under the same id is a *ConflictError
// naming both, never a success.
//
// The output kinds are a table (rails.go): adding one touches this package
// and the field list of the screen that asks for it.
package payment
