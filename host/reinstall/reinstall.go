// Package reinstall is `lola update`: it runs again, from the store's
// current module content, the installs $LOLA_HOME/installed.yml records,
// each through its own target extension as one whole plan (host/install),
// all under one audit correlation id.
//
// Guarantees:
//   - One plan per install, each validated whole and applied atomically
//     (install.Install); the installs run one after the other in
//     installed.yml's order.
//   - One install's failure never stops the others: each install is one
//     plan of its own, so a failed one is as its outcome says (nothing
//     applied, or rolled back), is reported in Result.Failed with its
//     error, and the run goes on to the next; Run then returns ErrFailed,
//     so the command exits non-zero, after every install had its turn.
//     (Today's Lola's update goes on past a failure too. A run that
//     stopped instead would leave every later install on the old content
//     for one broken module, and a user switching with thirty modules
//     would see thirty "not updated" lines for one cause.)
//   - An install whose project directory no longer exists is not run and
//     is reported as Stale (it cannot be reached; nothing is changed).
//   - Every audit record of the run carries Result.Correlation.
//   - An install recorded with append_context (lola install
//     --append-context) installs the same references again; a path gone
//     since is warned of and the instructions are not installed, as for
//     lola install.
//   - What the new version no longer has (a skill, command or agent the
//     old record lists and the new one does not), and every file the old
//     record lists that the new plan did not write (a target extension
//     updated to write elsewhere: lola ext update runs the installs of
//     the target it updated through here), is removed: the files lola
//     recorded writing, when they still hold exactly what lola wrote, as
//     one more audited plan under the same correlation; a file
//     changed since is kept and reported (Done.Stale). So are the MCP
//     servers it no longer brings, from the assistant's MCP configuration:
//     removed when they hold the value lola recorded writing, else kept
//     and reported (mcpstale.go).
//
// Non-guarantees: only files the record lists are ever stale (a record
// written by today's Lola lists none); a file is judged by the sha256
// lola recorded, so one another module's install rewrote with the same
// bytes counts as this install's. A dry run does not compute them.
package reinstall

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"github.com/lola-pm/lola/host/apply"
	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/install"
	"github.com/lola-pm/lola/host/pipeline"
	"github.com/lola-pm/lola/schema"
)

// Filter selects installs; empty fields match all.
type Filter struct {
	Module    string
	Assistant string
}

// Done is one install that ran.
type Done struct {
	Record install.Record
	Report install.Report
	Err    error // install.Install's error (nil when the pipeline ran)
	Stale  Stale // what the new version no longer has, removed or kept
}

// Result reports a run.
type Result struct {
	Correlation audit.Correlation
	Done        []Done           // committed (or dry-run) installs, in order
	Failed      []Done           // installs that failed, in order (Err says why, or Report.Result)
	Stale       []install.Record // project directory gone: not run
}

// ErrFailed is returned when at least one install failed; Result.Failed
// names each, and every other install ran.
var ErrFailed = errors.New("some installs were not updated")

// Run reinstalls every install matching f. base carries what every install
// shares (Home, Config, Remote, Warn, DryRun, ...); its Module, Assistant,
// Scope and Project are taken from each record. A nil error with no Done
// and no Stale means nothing matched.
func Run(ctx context.Context, base install.Options, f Filter) (Result, error) {
	var res Result
	reg, err := install.ReadRegistry(base.Home)
	if err != nil {
		return res, err
	}
	var todo []install.Record
	for _, r := range reg.All() {
		if (f.Module == "" || r.Module == f.Module) && (f.Assistant == "" || r.Assistant == f.Assistant) {
			todo = append(todo, r)
		}
	}
	if len(todo) == 0 {
		return res, nil
	}
	if !base.DryRun {
		if res.Correlation, err = audit.NewCorrelation(); err != nil {
			return res, err
		}
	}
	for _, r := range todo {
		if err := ctx.Err(); err != nil { // interrupted: the rest are not run, and say so
			res.Failed = append(res.Failed, Done{Record: r, Err: fmt.Errorf("not run: %w", err)})
			continue
		}
		o := base
		o.Module, o.Assistant, o.Scope = r.Module, r.Assistant, schema.Scope(r.Scope)
		o.Project, o.Correlation = "", res.Correlation
		// The install is run again as it was asked for: its
		// --append-context paths with it (today's Lola's update does so).
		o.AppendContext = r.AppendContext
		o.Version, o.Ref = r.Version, r.Ref
		if o.Scope != schema.ScopeUser {
			o.Project = r.ProjectPath
			if st, err := os.Stat(r.ProjectPath); r.ProjectPath == "" || err != nil || !st.IsDir() {
				res.Stale = append(res.Stale, r)
				continue
			}
		}
		rep, err := install.Install(ctx, o)
		d := Done{Record: r, Report: rep, Err: err}
		if err == nil && (rep.Result == nil || !succeeded(rep.Result.Outcome)) {
			err = fmt.Errorf("the plan was %s", outcomeOf(rep))
		}
		if err != nil {
			res.Failed = append(res.Failed, d)
			continue
		}
		if !base.DryRun && rep.Record != nil {
			if d.Stale, err = cleanStale(ctx, base.Home, rep.Root, r, *rep.Record, rep.Result.Changes, res.Correlation); err != nil {
				d.Err = fmt.Errorf("removing what the module no longer has: %w", err)
				res.Failed = append(res.Failed, d)
				continue
			}
		}
		res.Done = append(res.Done, d)
	}
	if len(res.Failed) > 0 {
		return res, fmt.Errorf("%w: %d of %d", ErrFailed, len(res.Failed), len(todo)-len(res.Stale))
	}
	return res, nil
}

func cleanStale(ctx context.Context, home, root string, old, cur install.Record, changes []apply.Change, c audit.Correlation) (Stale, error) {
	servers := staleServers(old, cur.MCPs)
	stale := staleOf(old, cur, changes)
	if len(stale) == 0 && len(servers) == 0 {
		return Stale{}, nil
	}
	log, err := audit.Open(filepath.Join(home, audit.FileName))
	if err != nil {
		return Stale{}, err
	}
	defer log.Close()
	log.Correlate(c)
	st, err := removeStale(ctx, root, home, old, cur, stale, log)
	if err != nil {
		return st, err
	}
	removed, kept, err := removeStaleServers(ctx, root, home, old, cur.MCPs, log)
	for _, s := range removed {
		if !slices.Contains(st.Servers, s.Name) {
			st.Servers = append(st.Servers, s.Name)
		}
	}
	sort.Strings(st.Servers)
	st.KeptServers = kept
	return st, err
}

func succeeded(o pipeline.Outcome) bool {
	return o == pipeline.OutcomeCommitted || o == pipeline.OutcomeDryRun
}

func outcomeOf(rep install.Report) string {
	if rep.Result == nil {
		return "not produced"
	}
	return rep.Result.Outcome.String()
}
