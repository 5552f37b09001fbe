// Package ui is the dashboard's shell: the root model (Root) with its modes,
// the header, tabs, footer, help, command line, prompts, confirmations,
// toasts and the account switcher, the theme, and the one place where the
// window is divided (Layout). Screens live in views/ and implement Screen;
// ui knows nothing about HTTP; it asks the service only what Client
// declares (the access and the accounts).
//
// How keys reach a screen:
//   - In normal mode q, ?, : and ctrl+c are always the root's. Any other key
//     an enabled binding of the active screen's KeyMap answers to goes to the
//     screen (so a screen that binds esc to close its detail pane gets esc);
//     what is left is global: / filter, esc back, tab / shift+tab and the
//     number row for screens (1 to 9, 0, - and =), S for the account
//     switcher. In help, q closes help as ? and esc do.
//   - While a confirmation is open, ↓, PgDn and space scroll it and y
//     confirms only once every line has been on screen; any other key
//     cancels.
//   - While a screen is Capturing (a form or text input has focus) every key
//     but ctrl+c goes to it, esc included.
//   - While the filter, the command line, a prompt, a confirmation or the
//     switcher is open, keys go only there.
//
// The / filter: screens that implement Filterable get a FilterMsg on every
// keystroke, and one with an empty query when it is cleared.
//
// Messages that are not keys are delivered to every screen, shown or not, so
// a result reaches the screen that asked for it. What is not a screen's own,
// or no longer wanted, is dropped one way (call.go): whatever a screen
// waits for is a request (Req: an id, the account, the session) answered by
// a Result. A service call is made with Call, Fetch or Settle; a timer whose
// firing may go stale (a poll, a periodic refresh, the pause of a debounce)
// is armed with After; a value a screen hands itself through the root (a
// confirmation's yes, a prompt's text) is sent with Answer. The root drops
// the answers of every session but the current one (Session.Owns); a screen
// takes an answer only when the Slot awaiting it does (Slot.Take), or, for
// answers it takes in any order (several writes under way), when its
// session owns it. A reload, a new filter or a re-armed poll is a new
// request that replaces the one its slot awaited, and a change that voids
// what was awaited cancels the slot: nothing else (no counter, no session
// pointer, no value echoed back) decides that an answer is stale. Only the
// widgets' own tickers (a countdown, a spinner) and the root's toasts are
// told apart by an id.
package ui
