package pipeline

import (
	"testing"
	"time"
)

// Without a Timeout, a tier-1 run of a 28 MB request (a 20 MiB module's)
// gets the clock raised for it, 76 s, not the 20 s that stopped a Go
// target half-way; a user's Timeout is the outer deadline as before.
func TestModuleLimitsFollowTheRequest(t *testing.T) {
	l, err := moduleLimits(Launch{}, 28<<20)
	if err != nil || l.Timeout() != 76*time.Second {
		t.Fatalf("clock %s (%v), want 76s", l.Timeout(), err)
	}
	l, err = moduleLimits(Launch{}, 100)
	if err != nil || l.Timeout() != 20*time.Second {
		t.Fatalf("clock %s (%v), want 20s", l.Timeout(), err)
	}
	l, err = moduleLimits(Launch{Timeout: 5 * time.Second}, 28<<20)
	if err != nil || l.OuterDeadline() > 5*time.Second || l.Timeout() > 5*time.Second {
		t.Fatalf("with --timeout 5s: clock %s, outer %s (%v)", l.Timeout(), l.OuterDeadline(), err)
	}
}
