//go:build race

package tickets

// raceEnabled: the race detector multiplies memory, so memory budgets are
// not measured under it.
const raceEnabled = true
