package ui

import (
	"testing"

	"github.com/tesouro-treasury/tesouro/ui/clocktest"
)

// TestPulseFiresOnlyWhileSomethingIsUnderWay: the footer's pulse, armed
// along with any command, delivers a message (a redraw) when it fires
// while the connection is being made or a request is in flight, and
// nothing otherwise (a countdown's tick armed it: an idle window is not
// drawn again for it); it can be armed again after either.
func TestPulseFiresOnlyWhileSomethingIsUnderWay(t *testing.T) {
	clk := clocktest.New(clocktest.Epoch)
	r := New(Options{Clock: clk})
	fire := func() any {
		t.Helper()
		cmd := r.armPulse()
		if cmd == nil {
			t.Fatal("the pulse could not be armed")
		}
		return cmd().(clocktest.Timer).Fire()
	}
	if msg := fire(); msg != nil {
		t.Fatalf("an idle pulse delivered %T", msg)
	}
	r.connecting = true
	if _, ok := fire().(pulseMsg); !ok {
		t.Fatal("no pulse while connecting")
	}
	r.Update(pulseMsg{}) // the root takes it and re-arms while busy
	r.connecting = false
	r.pulseArmed.Store(false)
	s := &Session{}
	r.session = s
	s.inFlight.Add(1)
	if _, ok := fire().(pulseMsg); !ok {
		t.Fatal("no pulse with a request in flight")
	}
}
