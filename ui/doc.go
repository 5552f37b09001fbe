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
//     number keys for screens, S for the account switcher.
//   - While a screen is Capturing (a form or text input has focus) every key
//     but ctrl+c goes to it, esc included.
//   - While the filter, the command line, a prompt, a confirmation or the
//     switcher is open, keys go only there.
//
// The / filter: screens that implement Filterable get a FilterMsg on every
// keystroke, and one with an empty query when it is cleared.
//
// Messages that are not keys are delivered to every screen, shown or not, so
// a result reaches the screen that asked for it; each screen drops what is
// not its own (by request id, instance id or tick id).
package ui
