// Package modrm is `lola mod rm`: it removes a module from the store
// after uninstalling every install $LOLA_HOME/installed.yml records of it,
// as today's Lola's `mod rm` uninstalls a module from all its locations
// before deleting it, so that no install is left that lola can no longer
// uninstall (an uninstall plan is made from the module's files).
//
// Guarantees:
//   - Refuse by default: while installs are recorded, nothing is done
//     unless Options.Uninstall says so (the CLI's --force, or a yes at its
//     prompt); the refusal is *install.InUseError, naming them.
//   - With Options.Confirm, nothing is done until it has answered nil for
//     the installs recorded at that moment (none, too: today's Lola asks
//     before removing even a module installed nowhere); its error is
//     returned as it is, with the store and installed.yml untouched.
//   - Each install is uninstalled as `lola uninstall` does it
//     (install.Uninstall): one plan through its own target extension,
//     validated whole and applied atomically, only what lola wrote
//     removed. All share one audit correlation id (Result.Correlation).
//   - The first uninstall that fails stops the run: the ones before it
//     stay uninstalled (and unrecorded), the failed one is as its outcome
//     says, the ones after it are untouched and listed in
//     Result.Remaining, and the module stays in the store, so that
//     `lola mod rm` can be run again once the cause is fixed.
//   - An install whose project directory is gone cannot be reached: its
//     record is dropped (Result.Stale) and nothing else is touched.
//   - The module leaves the store (install.RemoveModule) only when no
//     install of it is recorded any more.
package modrm

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/install"
	"github.com/lola-pm/lola/host/module"
	"github.com/lola-pm/lola/host/pipeline"
	"github.com/lola-pm/lola/schema"
)

// Options configures Remove.
type Options struct {
	// Base carries what every uninstall shares (Home, Config, Trust,
	// Remote, Warn, ...); Module, Assistant, Scope, Project and
	// Correlation are set per install.
	Base install.Options
	// Uninstall consents to uninstalling the recorded installs first.
	Uninstall bool
	// Confirm, when set, is asked once the module is known to exist,
	// with the installs recorded of it (possibly none), before anything
	// changes; nil is consent to uninstall them and remove the module, an
	// error stops Remove with that error (ErrCancelled for a no). It is
	// how the CLI asks at a terminal and refuses without one.
	Confirm func(installs []install.Record) error
}

// ErrCancelled is a Confirm's answer for a no: nothing was removed.
var ErrCancelled = errors.New("mod rm cancelled")

// Done is one install uninstalled.
type Done struct {
	Record install.Record
	Report install.Report
}

// Result reports a removal.
type Result struct {
	Correlation audit.Correlation
	Done        []Done
	Failed      *Done            // the uninstall that stopped the run
	FailedErr   error            // its error (nil when the plan ran but did not commit)
	Remaining   []install.Record // installs after the failure, untouched
	Stale       []install.Record // project directory gone: record dropped
	Removed     bool             // the module left the store
}

// ErrStopped wraps the failure that stopped a removal; the module is
// still in the store.
var ErrStopped = errors.New("mod rm stopped")

// Remove uninstalls every recorded install of name (with o.Uninstall),
// then removes name from the store.
func Remove(ctx context.Context, store *module.Store, name module.Name, o Options) (Result, error) {
	var res Result
	home := o.Base.Home
	if _, err := store.Get(name); err != nil {
		return res, err
	}
	reg, err := install.ReadRegistry(home)
	if err != nil {
		return res, err
	}
	recs := reg.Find(name.String(), "", "", "")
	if o.Confirm != nil {
		if err := o.Confirm(recs); err != nil {
			return res, err
		}
		o.Uninstall = true
	}
	if len(recs) > 0 && !o.Uninstall {
		return res, &install.InUseError{Module: name.String(), Installs: recs}
	}
	if len(recs) > 0 {
		if res.Correlation, err = audit.NewCorrelation(); err != nil {
			return res, err
		}
	}
	for i, r := range recs {
		if r.Scope != string(schema.ScopeUser) {
			if st, err := os.Stat(r.ProjectPath); r.ProjectPath == "" || err != nil || !st.IsDir() {
				if err := dropRecord(home, r); err != nil {
					return res, err
				}
				res.Stale = append(res.Stale, r)
				continue
			}
		}
		u := o.Base
		u.Module, u.Assistant, u.Scope, u.Project = r.Module, r.Assistant, schema.Scope(r.Scope), ""
		if u.Scope != schema.ScopeUser {
			u.Project = r.ProjectPath
		}
		u.Correlation, u.DryRun = res.Correlation, false
		rep, err := install.Uninstall(ctx, u)
		d := Done{Record: r, Report: rep}
		if err == nil && (rep.Result == nil || rep.Result.Outcome != pipeline.OutcomeCommitted) {
			outcome := "not produced"
			if rep.Result != nil {
				outcome = rep.Result.Outcome.String()
			}
			err = fmt.Errorf("the uninstall plan was %s", outcome)
			res.Failed, res.Remaining = &d, recs[i+1:]
			return res, fmt.Errorf("%w at %s for %s: %w", ErrStopped, r.Module, r.Assistant, err)
		}
		if err != nil {
			res.Failed, res.FailedErr, res.Remaining = &d, err, recs[i+1:]
			return res, fmt.Errorf("%w at %s for %s: %w", ErrStopped, r.Module, r.Assistant, err)
		}
		res.Done = append(res.Done, d)
	}
	if err := install.RemoveModule(store, home, name, false); err != nil {
		return res, err
	}
	res.Removed = true
	return res, nil
}

// dropRecord removes r from installed.yml.
func dropRecord(home string, r install.Record) error {
	return install.UpdateRegistry(home, func(reg *install.Registry) error {
		reg.Remove(r)
		return nil
	})
}
