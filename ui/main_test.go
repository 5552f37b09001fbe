package ui

import (
	"io"
	"log"
	"os"
	"testing"
)

// TestMain silences the debug log, which the dashboard sends to a file only
// with --debug.
func TestMain(m *testing.M) {
	log.SetOutput(io.Discard)
	os.Exit(m.Run())
}
