// Package sandbox is a strict emulator of the whole conversion-and-payments
// service: quotes, tickets and their lifecycle, beneficiaries, sub-accounts,
// multi-signature operations, webhooks, compliance records and end-of-day
// trades, with the authentication and authorization rules of the real
// service.
//
// It is an http.Handler (Server.Handler) that the dashboard embeds
// in-process, that the tests drive over real HTTP, and that
// `tesouro sandbox` serves for integrators. Every rule of spec/service.md
// §4–§6 and §7.5 is enforced (rules.go, replay.go: the permission flag of
// each kind of ticket, a signature accepted once, the login lockout, a
// beneficiary kept while a pending operation pays it): bad input is a 4xx
// naming the problem, never a 5xx.
// The clock is injectable (Config.Now), so the lifecycle of tickets and
// operations advances from that clock and tests with a fake clock are
// deterministic. Demo data is deterministic for a seed.
//
// Its state is a SQLite database (package store): a file with
// Config.StatePath, a private in-memory database otherwise, through the
// same code. Tickets, ledger moves and events are rows only; accounts,
// their small collections, webhook attempts and operations are also kept
// in memory for reads. A write is answered only once committed.
//
// # Adding an endpoint
//
// Register it in a route hook with r.handle(method, pattern, authAccess,
// handler); collection paths match with and without a trailing slash, and a
// handler is func(c *call) error. On authAccess routes c.who is the caller;
// c.scope() resolves ?subAccountId= to the operated account (400 for a
// malformed id, 404 for a foreign one, 403 ACCOUNT_BLACKLISTED) and must be
// called with s.mu held. Every account owns its records, so scoping is by
// construction; c.writable() refuses viewOnly and frozen accesses before
// any write.
//
// Read input with c.query, c.queryUnix, c.queryRFC3339, c.queryBool,
// c.pathUUID and decodeBody (a 400 naming the field). Reply
// with c.reply(status, value), which writes after the handler returns and
// its locks are released: reply with copies, never pointers into the store.
// Return badRequest, notFound, forbidden, conflict or errf for the error
// body of spec/service.md §4. Use c.now (s.now() outside a request), never
// time.Now.
//
// Reads take s.mu.RLock. In-memory collections are read directly;
// listPage serves a page of one of them (newest first) and
// c.createdWindow reads the createdAfter/createdBefore window. Rows are
// read through the store's typed reads (ticketPage, loadTicket with
// writing false: the read pool).
//
// Writes take s.mu.Lock and defer s.mu.Unlock: everything written while
// it is held is one transaction, which Unlock commits before the handler
// returns, so the reply is sent only after the commit (a failed commit
// makes the sandbox answer 500 to everything until restarted, since memory
// and file no longer agree). Inside, read rows with writing true (the
// write transaction, which sees its own writes), and store what changes:
// insertTicket or saveTicket (one row) for a ticket, s.move for any
// balance change (never assign a balance), recordTicketEvent for a
// transition, saveAttempt, saveOperation, saveSession, saveAccount, and
// s.changed(acct) after changing one of an account's small collections
// (beneficiaries, webhooks, trades, compliance records). A new kind of row
// is a new table in a new step at the end of the store's migrations, with
// its write as one typed method of the store.
package sandbox
