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
package sandbox
