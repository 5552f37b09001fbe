//go:build !unix

package delivery

import "time"

// processCPU cannot be read here: the signers keep to BusyShare alone.
func processCPU() (time.Duration, bool) { return 0, false }
