// Package sandbox is a strict, in-memory emulator of the whole
// conversion-and-payments service: quotes, tickets and their lifecycle,
// beneficiaries, sub-accounts, multi-signature operations, webhooks,
// compliance records and end-of-day trades, with the authentication and
// authorization rules of the real service.
//
// It is an http.Handler (Server.Handler) that the dashboard embeds
// in-process, that the tests drive over real HTTP, and that
// `tesouro sandbox` serves for integrators. Every rule of spec/service.md
// §4–§6 is enforced: bad input is a 4xx naming the problem, never a 5xx.
// The clock is injectable (Config.Now), so the lifecycle of tickets and
// operations advances from that clock and tests with a fake clock are
// deterministic. Demo data is deterministic for a seed.
//
// # Adding an endpoint
//
// Register it in a route hook with r.handle(method, pattern, authAccess,
// handler); collection paths match with and without a trailing slash, and a
// handler is func(c *call) error. On authAccess routes c.who is the caller;
// c.scope() resolves ?subAccountId= to the operated account (400 for a
// malformed id, 404 for a foreign one, 403 ACCOUNT_BLACKLISTED) and must be
// called with s.mu held (RLock for reads, Lock for writes). Every account
// owns its records, so scoping is by construction; c.writable() refuses
// viewOnly and frozen accesses before any write.
//
// Read input with c.query, c.queryUnix, c.queryRFC3339, c.queryBool,
// c.queryUUID, c.pathUUID and decodeBody (a 400 naming the field). Reply
// with c.reply(status, value), which writes after the handler returns and
// its locks are released: reply with copies, never pointers into the store.
// Return badRequest, notFound, forbidden, conflict or errf for the error
// body of spec/service.md §4. listPage serves a page of one of an account's
// collections (newest first, copies made under the read lock), and
// c.createdWindow reads the createdAfter/createdBefore window. Use c.now
// (s.now() outside a request), never time.Now, and call s.changed() after a
// change so that --state saves it.
package sandbox
