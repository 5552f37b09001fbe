// Package quote is the quote builder, the screen an operator spends the day
// in: price a conversion, watch the quote's 15 seconds run out, turn it into
// a ticket with exactly the blocks the quote needs, confirm what will move
// and for whom, then follow the ticket (PIX code as a QR, live status) until
// it is paid, fails or expires.
//
// The flow is a small state machine (form → details → confirm → sending →
// result). Every request runs through ui.Fetch, captures what it needs by
// value, and is awaited by its own ui.Slot (the quote, the creation, the
// status read, the funding, the picker's list): an answer to an older
// request, or to another account's screen, is dropped before it can change
// what the screen shows or which externalId it holds. The money rules of the product live here: the quote
// and the ticket carry the operated account, an expired quote is never sent
// (checked with the session clock right before sending), and the externalId
// is made once per intent so a retry can be reconciled instead of duplicated.
package quote
