package keystore

import (
	"os"
	"testing"

	"github.com/tesouro-treasury/tesouro/internal/sstest"
)

// TestMain gives the integration tests a real, private Secret Service.
func TestMain(m *testing.M) { os.Exit(sstest.Run(m)) }
