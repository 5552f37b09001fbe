//go:build !race

package tickets

const raceEnabled = false
