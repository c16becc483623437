package install

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/lola-pm/lola/host/apply"
	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/pathrule"
	"github.com/lola-pm/lola/host/pipeline"
	"github.com/lola-pm/lola/host/plan"
	"github.com/lola-pm/lola/schema"
)

// ByRecordProposer is the name the audit log gives the plan of an
// uninstall made from installed.yml's record, when the target extension
// that wrote the install is gone.
const ByRecordProposer = "lola-uninstall-by-record"

// targetGoneError is prepare's answer for an uninstall whose assistant
// names no extension at all (not one that fails to load): Uninstall goes
// on by the record, or reports the lookup's error when there is none.
type targetGoneError struct{ lookup error }

func (e *targetGoneError) Error() string {
	return fmt.Sprintf("%v: %v", ErrUnknownAssistant, e.lookup)
}

func (e *targetGoneError) Unwrap() error { return ErrUnknownAssistant }

// uninstallByRecord uninstalls an install whose target extension was
// removed (lola ext rm --force). With no target to ask, the plan is
// lola's own, made from installed.yml's record alone: a delete of each
// file the record says lola wrote ("files") that still holds exactly what
// lola wrote there; a file edited since is kept and reported (Kept), as a
// target's uninstall keeps it, and the conflict.unowned guard holds the
// plan to the same rule again. The plan is validated, audited (proposer
// ByRecordProposer) and applied atomically through the pipeline, like any
// plan; then the install's empty created directories go, replaced links
// come back and the record leaves installed.yml, as after Uninstall.
//
// What the target wrote into managed files shared with the user
// (instructions blocks, MCP servers) has a shape only the target knows:
// it is left in place and named in a warning, with what to do about it.
// A record from today's Lola (no "files") says nothing lola could remove:
// uninstalling by it would only forget the install, leaving every file it
// wrote with no record left to find them by, so it is refused (the
// unknown-assistant error, with what to do) and installed.yml keeps it.
func (j *job) uninstallByRecord(ctx context.Context, gone *targetGoneError) (Report, error) {
	rec, err := j.installedRecord()
	if err != nil {
		// Nothing recorded for that name here: it is an unknown
		// assistant, as it always was.
		return j.rep, gone
	}
	if rec.Files == nil {
		return j.rep, fmt.Errorf("%w; installed.yml (written by an older Lola) does not say which files the install of %s wrote, so it cannot be uninstalled by its record: add the %s target extension again (lola ext add) and uninstall then", gone, rec.Module, j.o.Assistant)
	}
	j.rep.Record, j.rep.ByRecord = rec, true
	j.owned = owned{}
	j.owned.addRecord(*rec)
	j.managed = map[string]bool{}
	p, err := deletesOf(rec.Files)
	if err != nil {
		return j.rep, err
	}
	np, kept, err := narrowUninstall(j.root, p, j.owned, j.managed)
	if err != nil {
		return j.rep, fmt.Errorf("uninstall: %v", err)
	}
	j.rep.Kept = kept
	j.guard = &guard{root: j.root, owned: j.owned, managed: j.managed, home: lolaHomeWithin(j.root, j.o.Home)}
	id, err := audit.NewExtension(ByRecordProposer, "")
	if err != nil {
		return j.rep, err
	}
	var log *audit.Log
	if !j.o.DryRun {
		if log, err = j.openCorrelatedLog(); err != nil {
			return j.rep, err
		}
		defer log.Close()
	}
	fs := j.o.FS
	if fs == "" {
		fs = pathrule.Auto
	}
	res, err := pipeline.Apply(ctx, j.root, np, pipeline.Proposer{Extension: id, Tier: audit.TierPlanFile}, pipeline.Options{
		FS: fs, DryRun: j.o.DryRun, Log: log, Home: j.o.Home, Warn: j.o.Warn,
		Guard: func(changes []apply.Change, p *plan.Plan) error { return j.guard.check(changes, p) },
	})
	if err != nil {
		return j.rep, err
	}
	j.rep.Result = &res
	if res.Outcome != pipeline.OutcomeCommitted {
		return j.rep, nil
	}
	if left := sharedLeftBehind(*rec); left != "" {
		j.o.warn(fmt.Sprintf("the target extension %s is gone (lola ext rm --force), so %s was uninstalled by its record, which removes only the files lola wrote: %s stays, in a shape only %s knows; remove it by hand",
			j.o.Assistant, rec.Module, left, j.o.Assistant))
	}
	return j.rep, j.settleUninstall(rec, log)
}

// deletesOf is a plan deleting each path, in order.
func deletesOf(files map[string]string) (*plan.Plan, error) {
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	intents := make([]schema.Intent, len(paths))
	for i, p := range paths {
		intents[i] = schema.Intent{Delete: &schema.Delete{Path: p}}
	}
	b, err := json.Marshal(schema.Plan{Protocol: 1, Intents: intents})
	if err != nil {
		return nil, err
	}
	return plan.Decode(bytes.NewReader(b), plan.DefaultLimits())
}

// sharedLeftBehind names what a by-record uninstall cannot remove: the
// parts of shared files the target wrote. "" when there are none.
func sharedLeftBehind(rec Record) string {
	var parts []string
	if rec.HasInstructions {
		parts = append(parts, "its instructions block in the assistant's instructions file")
	}
	if len(rec.MCPs) > 0 {
		where := "the assistant's MCP configuration"
		if len(rec.MCPValues) > 0 {
			var files []string
			for f := range rec.MCPValues {
				files = append(files, f)
			}
			sort.Strings(files)
			where = strings.Join(files, ", ")
		}
		parts = append(parts, fmt.Sprintf("its MCP servers %s in %s", strings.Join(rec.MCPs, ", "), where))
	}
	return strings.Join(parts, "; ")
}
