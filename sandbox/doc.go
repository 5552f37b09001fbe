// Package sandbox is a strict emulator of the whole conversion-and-payments
// service: quotes, tickets and their lifecycle, beneficiaries, sub-accounts,
// multi-signature operations, webhooks, compliance records and end-of-day
// trades, with the authentication and authorization rules of the real
// service.
//
// It is an http.Handler (Server.Handler) that the dashboard embeds
// in-process, that the tests drive over real HTTP, and that
// `tesouro sandbox` serves for integrators. Every rule of spec/service.md
// §4–§6 and §7.5 is enforced: bad input is a 4xx naming the problem, never
// a 5xx. The clock is injectable (Config.Now), so the lifecycle of tickets
// and operations advances from that clock and tests with a fake clock are
// deterministic. Demo data is deterministic for a seed.
//
// Its rooms: package store owns the SQLite database (a file with
// Config.StatePath, a private in-memory database otherwise, through the
// same code); package engine owns the service's rules, with its own types,
// over the store; package demo makes the deterministic demo data through
// the engine; this package serves them over HTTP: routes, decoding
// and validation of requests, signatures, replay, the wire shapes and the
// error → status mapping.
//
// # Adding an endpoint
//
// Register it in routeAll with r.handle(method, pattern, authAccess,
// handler); collection paths match with and without a trailing slash, and a
// handler is func(c *call) error, in the file of its resource. On
// authAccess routes c.who is the caller, and c.caller() is what the engine
// is asked for (the access, ?subAccountId=, the clock reading). Read input
// with c.query, c.queryUnix, c.queryTimeEither, c.queryBool, c.pathUUID and
// decodeBody (a 400 naming the field), check it, then call the engine's
// operation, which takes its lock, checks the rules and commits before it
// returns. Reply with c.reply(status, value) from what it returned, made
// into the wire shape here. Return badRequest or errf for a refusal of the
// request itself, or the engine's *engine.Refusal as it comes (its kind
// is the status). Use c.now, never time.Now.
package sandbox
