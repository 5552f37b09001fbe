// Package sandbox is a strict emulator of the whole conversion-and-payments
// service: quotes, tickets and their lifecycle, beneficiaries, sub-accounts,
// multi-signature operations, webhooks, compliance records and end-of-day
// trades, with the authentication and authorization rules of the real
// service. It is what the dashboard embeds in-process, what the tests
// drive over real HTTP, and what `tesouro sandbox` serves for integrators.
//
// This package is the small façade they use: a Config, New (a Server,
// whose Handler serves the interface), Start and StartTLS (a Running
// sandbox on an address), StartInProcess (one that only its own client,
// Running.HTTPClient, reaches over in-memory pipes: the dashboard's),
// Close, and the Credentials of the demo accesses.
// The house behind it has a room for each concern, and its imports run one
// way, from the surfaces down to the database:
//
//   - httpapi serves the interface over HTTP: routes, decoding and
//     validation of requests, signatures, replay, the wire shapes and the
//     error → status mapping, one file per resource;
//   - delivery sends the signed webhook deliveries, and faults injects the
//     failures of --faults into requests;
//   - team is team administration: API keys and their IP allow-lists,
//     TOTP second factors, invitations, passwords, sign-ups and the
//     outbox; it changes the engine's accesses through the engine's lock;
//   - demo makes the deterministic demo data of a seed, through the engine;
//   - engine is the service's rules over the store: pricing, tickets and
//     their lifecycle, the ledger, limits, permissions, multi-signature
//     operations, payment sessions and webhook events;
//   - records is the contract's records as the service keeps and shows
//     them, the vocabulary the rooms above share;
//   - store owns the SQLite database: a file with Config.StatePath, a
//     private in-memory database otherwise, through the same code.
//
// Every rule of spec/service.md §4–§6 and §7.5 is enforced: bad input is a
// 4xx naming the problem, never a 5xx. The clock is injectable
// (Config.Now), so the lifecycle of tickets and operations advances from
// that clock and tests with a fake clock are deterministic. Demo data is
// deterministic for a seed. CONTRIBUTING.md says which file of each room
// an endpoint touches.
package sandbox
