package install

import (
	"context"

	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/extension"
)

// Stopped is where InstallAll stopped: the assistant whose install done
// refused, and the ones not reached after it.
type Stopped struct {
	At         string
	NotReached []string
}

// InstallAll installs o.Module for every assistant target lola knows
// (extension.DefaultTargets: all but copilot-cli, as today's Lola does
// when it cannot ask), one after the other, each root picked as today's
// Lola picks it without -a (openClawRootForAll: OpenClaw's is PROJECT when
// given, hasProject, else its workspace). Unless o.DryRun the installs
// share one audit correlation id.
//
// done receives each install's report and error as it ends and says what
// the caller makes of it; the first non-nil return stops the rest and is
// returned, with where the run stopped. Any other error (the targets
// cannot be listed, a correlation id cannot be drawn, a root cannot be
// picked) is returned as it arose, before that assistant's install ran.
func InstallAll(ctx context.Context, o Options, hasProject bool, done func(Report, error) error) (*Stopped, error) {
	all, err := extension.DefaultTargets(o.Home)
	if err != nil {
		return nil, err
	}
	if !o.DryRun {
		if o.Correlation, err = audit.NewCorrelation(); err != nil {
			return nil, err
		}
	}
	for i, a := range all {
		oa := o
		oa.Assistant = a
		if err := openClawRootForAll(&oa, a, hasProject); err != nil {
			return nil, err
		}
		rep, err := Install(ctx, oa)
		if derr := done(rep, err); derr != nil {
			return &Stopped{At: a, NotReached: all[i+1:]}, derr
		}
	}
	return nil, nil
}
