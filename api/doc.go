// Package api is the typed client of the conversion-and-payments service:
// one Client, methods grouped by resource, typed requests and responses,
// a single *Error type for failures, and cursor pages with an iterator.
//
// Every call takes a context and is bounded by a timeout. Reads are retried
// with jittered backoff on 5xx and 429 (honouring Retry-After); writes are
// never retried blindly. Ticket creation carries an externalId and, when its
// answer is lost, is reconciled by looking the ticket up before anything is
// sent again, because the service does not deduplicate and a duplicate
// ticket moves money twice.
//
// The wire spelling of paths, envelope keys and the error body lives in
// wire.go, where the shapes the project had to decide are marked.
package api
