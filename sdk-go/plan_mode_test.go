package lola_test

import (
	"errors"
	"testing"

	"github.com/lola-pm/lola/schema"
	lola "github.com/lola-pm/lola/sdk-go"
)

// Mode is permission bits only and agrees with Executable; anything else
// is refused as the host refuses it (plan.mode).
func TestModeOptionRefusesWhatTheHostRefuses(t *testing.T) {
	for _, c := range []struct {
		opts []lola.WriteOption
		ok   bool
	}{
		{[]lola.WriteOption{lola.Mode("0664")}, true},
		{[]lola.WriteOption{lola.Executable, lola.Mode("0750")}, true},
		{[]lola.WriteOption{lola.Executable, lola.Mode("4755")}, false},
		{[]lola.WriteOption{lola.Mode("0755")}, false},
		{[]lola.WriteOption{lola.Executable, lola.Mode("0644")}, false},
		{[]lola.WriteOption{lola.Mode("0o644")}, false},
	} {
		var p lola.Plan
		err := p.Write("a", "x", c.opts...)
		var be *lola.BuildError
		if c.ok != (err == nil) || !c.ok && (!errors.As(err, &be) || be.Rule != schema.RulePlanMode) {
			t.Errorf("%d options: %v", len(c.opts), err)
		}
	}
}
