package ui

// Mode says where keys go. Only normal mode runs global actions; in every
// other mode the keys belong to one input, so "q" or "?" typed into a filter,
// a command or a form can never quit or open help by accident.
type Mode int

// Modes of the root model.
const (
	ModeNormal  Mode = iota // global keys, then the active screen
	ModeFilter              // typing the / filter of the active screen
	ModeCommand             // typing a : command
	ModePrompt              // a confirmation, a one-line prompt or the account switcher
	ModeForm                // the active screen's form or input has focus
	ModeHelp                // full help is shown
)

func (m Mode) String() string {
	switch m {
	case ModeNormal:
		return "normal"
	case ModeFilter:
		return "filter"
	case ModeCommand:
		return "command"
	case ModePrompt:
		return "prompt"
	case ModeForm:
		return "form"
	case ModeHelp:
		return "help"
	}
	return "unknown"
}
