// Package quote is the quote builder, the screen an operator spends the day
// in: price a conversion, watch the quote's 15 seconds run out, turn it into
// a ticket with exactly what the quote needs, confirm what will move and for
// whom, then follow the ticket (PIX code as a QR, live status) until it is
// paid, fails or expires.
//
// Every payment is built by the payment core. One payment.Intent goes from
// stage to stage, each a small component with its size, its keys and its
// view: the form (entry) composes the intent, which is quoted
// (Intent.QuoteRequest); the details read payment.Required and the output's
// rail to ask for what the ticket needs and fill the intent in (where the
// output goes, who sends, the reference, the markup wallet, the external
// id); the confirmation shows that intent with its quote; and sending is
// payment.Send, which finds a ticket already held under the external id
// before it creates one and journals the outcome. Both forms run on the
// dashboard's form engine (views/internal/form).
//
// Every read runs through ui.Fetch, captures what it needs by value, and is
// awaited by its own ui.Slot: an answer to an older request, or to another
// account's screen, is dropped before it can change what the screen shows.
// The creation runs through ui.Settle: an account switch does not abandon
// it, and its outcome is told against its account. The money rules of the
// product hold here: the quote and the ticket carry the operated account,
// an expired quote is never sent (checked with the session clock right
// before sending), and the external id is made once per intent so a retry
// is reconciled instead of duplicated.
package quote
