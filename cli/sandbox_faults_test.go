package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A bad --faults is a usage error found before anything is created: no
// state file, no credentials file, exit 2 naming the fault.
func TestSandboxRefusesABadFaultsSpecBeforeStarting(t *testing.T) {
	e := newProfileEnv(t)
	dir := t.TempDir()
	state, creds := filepath.Join(dir, "state.db"), filepath.Join(dir, "creds.json")
	for _, spec := range []string{"bogus=1", "drop=2", "latency=soon", "error500"} {
		code, out, errOut := e.run("", "sandbox", "--addr", "127.0.0.1:0", "--faults", spec, "--state", state, "--credentials-out", creds)
		if code != exitUsage || out != "" || !strings.Contains(errOut, "--faults") {
			t.Errorf("--faults %s: exit %d, stdout %q, stderr %q; want exit 2 naming the faults", spec, code, out, errOut)
		}
	}
	for _, p := range []string{state, creds} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s exists after refused starts (%v)", p, err)
		}
	}
}
