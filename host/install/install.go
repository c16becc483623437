package install

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/lola-pm/lola/host/apply"
	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/child"
	"github.com/lola-pm/lola/host/config"
	"github.com/lola-pm/lola/host/extension"
	"github.com/lola-pm/lola/host/hook"
	"github.com/lola-pm/lola/host/internal/errpath"
	"github.com/lola-pm/lola/host/module"
	"github.com/lola-pm/lola/host/pathrule"
	"github.com/lola-pm/lola/host/pipeline"
	"github.com/lola-pm/lola/host/plan"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// job is one install or uninstall, resolved: nothing has run yet.
type job struct {
	o       *Options
	op      schema.Operation
	scope   schema.Scope
	root    string // absolute
	project string // absolute project path; "" for scope user
	mod     *module.Module
	ext     *extension.Extension
	req     schema.Request
	hooks   []hook.Invocation // install only: pre then post, those declared
	created []string          // directories the applied plan created
	rep     Report
	// owned is what lola owns under the root (ownership.go); managed the
	// target's managed files, which are shared by design.
	owned   owned
	managed map[string]bool
	guard   *guard
	// written is path -> sha256 of what the committed plan wrote.
	written map[string]string
	// replaced are the links replaced with consent for this install;
	// managedLinks those found at managed files while preparing.
	replaced     []ReplacedLink
	managedLinks []Symlink
	// applied is the plan the pipeline applied (narrowed, for uninstall).
	applied *plan.Plan
	// present is the managed files that existed when the request was
	// built; managedAdded and managedGone those the committed plan created
	// and those absent after it (managedrecord.go).
	present                   map[string]bool
	managedAdded, managedGone []string
	// signature is how the target's artifact was vouched for, for the
	// audit record (extension.RunPin.Describe).
	signature string
	// instructions is the instructions text handed to the target when
	// --append-context replaced the module's (contextApplied).
	instructions   []byte
	contextApplied bool
	// prev is installed.yml's record of this same install before it ran
	// again (nil for a first install).
	prev *Record
}

// Install installs o.Module for o.Assistant (see the package doc). The
// error is nil when the pipeline ran: check Report.Result's outcome
// (committed, dry-run, rejected, rolled-back, rollback-failed). A non-nil
// error means nothing was applied, except when Report.Applied() is true
// (the tree is installed and only the installed.yml update failed).
func Install(ctx context.Context, o Options) (Report, error) {
	j, err := prepare(&o, schema.OperationInstall)
	if err != nil {
		return j.rep, err
	}
	return j.install(ctx)
}

// Uninstall removes what Install wrote for o.Module and o.Assistant in
// the scope and project, by running the target's uninstall operation on the
// same module files, then removes the installed.yml record. Hooks do not
// run. o.PreInstall and o.PostInstall are ignored.
//
// When no extension of the assistant's name exists any more (it was
// removed with lola ext rm --force), the uninstall goes by the record
// instead (byrecord.go).
func Uninstall(ctx context.Context, o Options) (Report, error) {
	o.PreInstall, o.PostInstall = "", ""
	j, err := prepare(&o, schema.OperationUninstall)
	var gone *targetGoneError
	if errors.As(err, &gone) {
		return j.uninstallByRecord(ctx, gone)
	}
	if err != nil {
		return j.rep, err
	}
	return j.uninstall(ctx)
}

// prepare resolves everything an operation needs and runs nothing.
func prepare(o *Options, op schema.Operation) (*job, error) {
	j := &job{o: o, op: op, scope: o.Scope}
	if j.scope == "" {
		j.scope = schema.ScopeProject
	}
	j.rep = Report{Operation: op, Module: o.Module, Assistant: o.Assistant, Scope: j.scope}
	if o.Config == nil {
		o.Config = config.Default()
	}
	if o.Home == "" || !filepath.IsAbs(o.Home) {
		return j, fmt.Errorf("%w: the Lola home must be an absolute path", ErrUsage)
	}
	switch j.scope {
	case schema.ScopeProject:
		abs, err := ProjectDir(o.Project)
		if err != nil {
			return j, err
		}
		j.root, j.project = abs, abs
	case schema.ScopeUser:
		home := o.UserHome
		if home == "" {
			h, err := os.UserHomeDir()
			if err != nil {
				return j, fmt.Errorf("%w: scope user needs a home directory", ErrUsage)
			}
			home = h
		}
		abs, err := filepath.Abs(home)
		if err != nil {
			return j, fmt.Errorf("%w: home directory: %v", ErrUsage, err)
		}
		j.root = abs
	default:
		return j, fmt.Errorf("%w: scope %q (project or user)", ErrUsage, string(j.scope))
	}
	j.rep.Root = j.root
	if lolaHomeWithin(o.Home, j.root) != "" {
		// Lola's home holds the module store, installed.yml and the audit
		// log: a target must never plan against it (it would write, and an
		// uninstall delete, lola's own copy of the module).
		return j, fmt.Errorf("%w: the %s directory lies inside lola's home ($LOLA_HOME), which holds the module store; choose a directory outside it", ErrUsage, j.scope)
	}

	name, err := module.ParseName(o.Module)
	if err != nil {
		return j, fmt.Errorf("%w: %v", ErrUsage, err)
	}
	store, err := module.OpenStore(o.Home)
	if err != nil {
		return j, err
	}
	if j.mod, err = store.Get(name); err != nil {
		if errors.Is(err, module.ErrNotFound) {
			return j, fmt.Errorf("%w: %s", ErrModuleNotFound, name)
		}
		return j, err
	}

	if !extension.ValidName(o.Assistant) {
		return j, fmt.Errorf("%w: %q is not an assistant name", ErrUnknownAssistant, o.Assistant)
	}
	cat, err := extension.Discover(o.Home)
	if err != nil {
		return j, err
	}
	if j.ext, err = cat.Lookup(o.Assistant); err != nil {
		var broken extension.Problem
		if op == schema.OperationUninstall && !errors.As(err, &broken) {
			return j, &targetGoneError{err}
		}
		return j, fmt.Errorf("%w: %v", ErrUnknownAssistant, err)
	}
	if j.ext.Kind() != extension.KindTarget {
		return j, fmt.Errorf("%w: extension %s is a %s extension, not an assistant target", ErrUnknownAssistant, j.ext.Name(), j.ext.Kind())
	}
	j.rep.Target, j.rep.TargetTier = j.ext.Name(), j.ext.AuditTier()

	if op == schema.OperationInstall {
		if err := j.resolveHooks(); err != nil {
			return j, err
		}
	}

	j.managed = map[string]bool{}
	for _, p := range j.ext.Manifest().Managed() {
		j.managed[p.String()] = true
	}
	reg, err := ReadRegistry(o.Home)
	if err != nil {
		return j, err
	}
	j.owned = ownedFiles(reg, string(j.scope), j.project)
	if op == schema.OperationInstall {
		want := Record{Module: j.mod.Name().String(), Assistant: o.Assistant, Scope: string(j.scope), ProjectPath: j.project}
		for _, r := range reg.Find(want.Module, want.Assistant, want.Scope, "") {
			if r.sameInstall(want) {
				r := r
				j.prev = &r
			}
		}
	}
	j.guard = &guard{root: j.root, owned: j.owned, managed: j.managed, home: lolaHomeWithin(j.root, o.Home), force: o.Force && op == schema.OperationInstall}
	var brought []string
	if op == schema.OperationInstall {
		brought = j.mod.Layout().MCPs
	}
	j.guard.parts = partsFor(reg, cat, o.Assistant, j.managed, string(j.scope), j.project, brought)

	m, err := j.mod.Schema(module.DefaultBounds())
	if err != nil {
		return j, err
	}
	if op == schema.OperationInstall {
		if err := j.applyAppendContext(&m); err != nil {
			return j, err
		}
	}
	j.req = schema.Request{
		Protocol: 1, Operation: op, Assistant: o.Assistant, Scope: j.scope,
		Modules: []schema.Module{m},
	}
	j.guard.sourceWrite = sourceWriteBits(j.req)
	var managed []string
	for _, p := range j.ext.Manifest().Managed() {
		managed = append(managed, p.String())
	}
	// A managed file (or a directory above it) that is a symbolic link is
	// left out of the request (never read through): the target sees it as
	// absent. Whether the plan writes it, and so whether the user is asked
	// about it at all, is decided on the plan (scopeManagedLinks).
	j.managedLinks = linksOn(j.root, managed, true)
	current, err := j.currentFiles()
	if err != nil {
		return j, fmt.Errorf("extension %s: %w", j.ext.Name(), err)
	}
	j.setCurrent(current)
	return j, nil
}

// symlinkRefusal is the path.symlink refusal of links found without
// consent, naming each link and how to consent.
func symlinkRefusal(links []Symlink, op schema.Operation) error {
	var set rejection.Set
	for _, l := range links {
		how := "lola install --replace-symlinks replaces it (audited; lola uninstall restores it)"
		if op != schema.OperationInstall {
			how = "lola does not act through it; put back what the install left there first"
		}
		set.Add(rejection.New(schema.RulePathSymlink, l.Path+" is a symbolic link; "+how))
	}
	return set.Err()
}

// currentFiles reads the managed files as they are now, leaving out
// those on a managed link not replaced (see scopeManagedLinks).
func (j *job) currentFiles() ([]schema.File, error) {
	if len(j.managedLinks) == 0 {
		return j.ext.CurrentFiles(j.root)
	}
	return j.ext.CurrentFilesExcept(j.root, func(rel string) bool {
		for _, l := range j.managedLinks {
			if rel == l.Path || strings.HasPrefix(rel, l.Path+"/") {
				return true
			}
		}
		return false
	})
}

// scopeManagedLinks decides, for an install, about the links found on
// managed files, before anything runs (a pre-install hook included), as
// the consent always was. Only a link the plan writes (at its path or
// beneath it) is in scope: the target is run once on the request (built
// with the linked files absent) to see its plan, and a link that plan
// leaves alone is never asked about, never replaced, and stays a link
// (CLAUDE.md -> AGENTS.md with a module that has no instructions). A link
// in scope is replaced with consent (Options.ReplaceSymlinks, or
// ConfirmSymlinks answering yes; a managed file's by a copy of what it
// pointed at) and the request is rebuilt with that file's content;
// without consent the install is refused (path.symlink), naming the
// links. The plan the install applies comes from a later run; a link it
// writes that was not in scope here is refused then (refuseManagedLinks).
func (j *job) scopeManagedLinks(ctx context.Context, log *audit.Log) error {
	if len(j.managedLinks) == 0 {
		return nil
	}
	p, _, err := j.launch(ctx, j.req)
	if err != nil {
		return err
	}
	j.rep.Launched = nil
	touched, left := j.linksWritten(p)
	if len(touched) == 0 {
		return nil
	}
	if !j.o.ReplaceSymlinks && (j.o.ConfirmSymlinks == nil || !j.o.ConfirmSymlinks(touched)) {
		j.rep.Symlinks = touched
		return symlinkRefusal(touched, j.op)
	}
	replaced, err := replaceSymlinks(j.root, log, j.rep.Correlation, touched)
	if err != nil {
		return err
	}
	j.replaced = append(j.replaced, replaced...)
	j.rep.Replaced = append(j.rep.Replaced, touched...)
	j.managedLinks = left
	current, err := j.currentFiles()
	if err != nil {
		j.undoReplaced(log)
		return fmt.Errorf("extension %s: %w", j.ext.Name(), err)
	}
	j.setCurrent(current)
	return nil
}

// linksWritten splits the managed links not replaced into those plan p
// acts on (writes, renames or deletes, at or beneath) and the rest.
func (j *job) linksWritten(p *plan.Plan) (touched, left []Symlink) {
	written := map[string]bool{}
	for _, l := range linksOn(j.root, planPaths(p, true), false) {
		written[l.Path] = true
	}
	for _, l := range j.managedLinks {
		if written[l.Path] {
			touched = append(touched, l)
		} else {
			left = append(left, l)
		}
	}
	return touched, left
}

// refuseManagedLinks refuses plan p when it writes a managed link still in
// place: one an install did not have in scope (its plan changed since),
// or any for an uninstall or a dry run, which never replace a link. An
// uninstall is refused for any link on a path its plan acts on (a delete
// included), managed or not: lola acts through none.
func (j *job) refuseManagedLinks(p *plan.Plan) error {
	if j.op == schema.OperationUninstall {
		if links := linksOn(j.root, planPaths(p, true), false); len(links) > 0 {
			j.rep.Symlinks = links
			return symlinkRefusal(links, j.op)
		}
		return nil
	}
	if touched, _ := j.linksWritten(p); len(touched) > 0 {
		j.rep.Symlinks = touched
		return symlinkRefusal(touched, j.op)
	}
	return nil
}

// resolveHooks loads lola.yaml's hooks, lets the CLI's win, and resolves
// each script inside the module.
func (j *job) resolveHooks() error {
	decl, err := hook.LoadDeclared(j.mod.ContentDir())
	if err != nil {
		return fmt.Errorf("%w: %v", ErrHookInvalid, err)
	}
	for p, script := range map[hook.Point]string{hook.PreInstall: j.o.CatalogPreInstall, hook.PostInstall: j.o.CatalogPostInstall} {
		if decl.Script(p) == "" {
			decl = decl.With(p, script)
		}
	}
	decl = decl.With(hook.PreInstall, j.o.PreInstall).With(hook.PostInstall, j.o.PostInstall)
	for _, p := range hook.Points() {
		script := decl.Script(p)
		if script == "" {
			continue
		}
		s, err := hook.Resolve(p, j.mod.Dir(), j.mod.ContentDir(), script)
		if err != nil {
			return fmt.Errorf("%w: %v", ErrHookInvalid, err)
		}
		inv := hook.Invocation{
			Script: s, ModuleName: j.mod.Name().String(), ModulePath: j.mod.Dir(),
			ProjectPath: j.project, Assistant: j.o.Assistant, Scope: j.scope,
			Deadline: j.o.HookDeadline, Environ: j.o.Environ,
		}
		j.hooks = append(j.hooks, inv)
		j.rep.Hooks = append(j.rep.Hooks, HookRun{Point: p, Script: script, Describe: inv.Describe()})
	}
	return nil
}

func (j *job) install(ctx context.Context) (Report, error) {
	if j.o.DryRun {
		return j.dryRun(ctx)
	}
	log, err := j.openCorrelatedLog()
	if err != nil {
		return j.rep, err
	}
	defer log.Close()
	// The target's pin and the trust policy are checked before anything
	// runs — a pre-install hook included — and a refusal is audited: an
	// artifact that changed or that the policy no longer vouches for is a
	// security event. launch checks again, for the bytes it runs.
	if err := j.checkPin(log); err != nil {
		return j.rep, err
	}
	if err := j.scopeManagedLinks(ctx, log); err != nil {
		return j.rep, err
	}

	if i := j.hookIndex(hook.PreInstall); i >= 0 {
		if !j.runHook(ctx, log, i) {
			j.undoReplaced(log)
			return j.rep, fmt.Errorf("%w (%s)", ErrPreInstallFailed, hookFailure(j.rep.Hooks[i].Child))
		}
		// The hook may have changed a managed file (CLAUDE.md, say): the
		// target plans against the tree as it is now, not as it was when
		// the request was first built.
		current, err := j.currentFiles()
		if err != nil {
			j.undoReplaced(log)
			return j.rep, fmt.Errorf("extension %s: %w", j.ext.Name(), err)
		}
		j.setCurrent(current)
	}
	if err := j.runTargetAndApply(ctx, log); err != nil || !j.rep.Applied() {
		j.undoReplaced(log)
		return j.rep, err
	}
	rec := j.record()
	rec.Version, rec.Ref = j.o.Version, j.o.Ref
	rec.CreatedDirs = j.created
	rec.Files = j.written
	rec.ReplacedSymlinks = j.replaced
	if i := j.hookIndex(hook.PostInstall); i >= 0 {
		if !j.runHook(ctx, log, i) {
			j.o.warn(fmt.Sprintf("post-install hook of %s failed (%s); the install is kept", j.mod.Name(), hookFailure(j.rep.Hooks[i].Child)))
		}
	}
	err = UpdateRegistry(j.o.Home, func(reg *Registry) error {
		for _, old := range reg.Find(rec.Module, rec.Assistant, rec.Scope, "") {
			if old.sameInstall(rec) {
				// A reinstall finds the first install's directories in
				// place: keep its list, so the uninstall still removes them.
				rec.CreatedDirs = mergeSorted(old.CreatedDirs, rec.CreatedDirs)
				rec.Files = mergeFiles(old.Files, rec.Files)
				rec.ReplacedSymlinks = append(append([]ReplacedLink(nil), old.ReplacedSymlinks...), rec.ReplacedSymlinks...)
			}
		}
		settleCreated(reg, rec.Scope, rec.ProjectPath, j.managedGone, j.managedAdded, func() { reg.Put(rec) })
		return nil
	})
	if err != nil {
		return j.rep, fmt.Errorf("installed, but %w", err)
	}
	j.rep.Record = &rec
	return j.rep, nil
}

// installedRecord is installed.yml's record of this install, or
// ErrNotInstalled.
func (j *job) installedRecord() (*Record, error) {
	reg, err := ReadRegistry(j.o.Home)
	if err != nil {
		return nil, err
	}
	want := Record{Module: j.mod.Name().String(), Assistant: j.o.Assistant, Scope: string(j.scope), ProjectPath: j.project}
	found := reg.Find(want.Module, want.Assistant, want.Scope, "")
	for i := range found {
		if found[i].sameInstall(want) {
			return &found[i], nil
		}
	}
	return nil, fmt.Errorf("%w: %s for %s (%s scope)", ErrNotInstalled, want.Module, want.Assistant, want.Scope)
}

func (j *job) uninstall(ctx context.Context) (Report, error) {
	rec, err := j.installedRecord()
	if err != nil {
		return j.rep, err
	}
	j.rep.Record = rec
	// Uninstall deletes only what this install wrote: a file another
	// module's install wrote over since (with other content) stays.
	j.owned = owned{}
	j.owned.addRecord(*rec)
	j.guard.owned = j.owned
	j.guard.parts = ownedBy(*rec, j.managed, j.guard.parts.created)
	// A server is lola's to remove only with the value it recorded.
	j.guard.parts.proof = rec
	if (rec.Files == nil || len(unvalued(rec)) > 0) && !(j.o.DryRun && j.ext.Tier().Native()) {
		// Recorded by today's Lola (or a lola before ownership records):
		// what the target's install would write now is taken as lola's,
		// so an unchanged file (or server) goes and an edited one stays.
		if err := j.legacyOwnership(ctx, rec); err != nil {
			return j.rep, err
		}
	}
	if j.o.DryRun {
		return j.dryRun(ctx)
	}
	log, err := j.openCorrelatedLog()
	if err != nil {
		return j.rep, err
	}
	defer log.Close()
	if err := j.runTargetAndApply(ctx, log); err != nil || !j.rep.Applied() {
		return j.rep, err
	}
	return j.rep, j.settleUninstall(rec, log)
}

// settleUninstall is what follows an uninstall's committed plan: the
// directories the install created go once empty, the links it replaced
// come back, and the record leaves installed.yml.
func (j *job) settleUninstall(rec *Record, log *audit.Log) error {
	RemoveEmptyDirs(j.root, rec.CreatedDirs)
	if len(rec.ReplacedSymlinks) > 0 {
		left := restoreSymlinks(j.root, log, j.rep.Correlation, rec.ReplacedSymlinks)
		for _, l := range rec.ReplacedSymlinks {
			if !containsLink(left, l) {
				j.rep.Restored = append(j.rep.Restored, Symlink{Path: l.Path, Target: l.Target, Parent: l.Dir})
			}
		}
		for _, l := range left {
			j.o.warn(fmt.Sprintf("%s was a symbolic link to %s before lola replaced it; it still holds files, so it was not restored", l.Path, l.Target))
		}
	}
	err := UpdateRegistry(j.o.Home, func(reg *Registry) error {
		settleCreated(reg, rec.Scope, rec.ProjectPath, j.managedGone, nil, func() { reg.Remove(*rec) })
		return nil
	})
	if err != nil {
		return fmt.Errorf("uninstalled, but %w", err)
	}
	return nil
}

// dryRun runs a tier-1 target (confined, so it cannot act) and checks its
// plan without applying it; a tier-2 target is refused without running.
// Hooks are only described.
func (j *job) dryRun(ctx context.Context) (Report, error) {
	if j.ext.Tier().Native() {
		return j.rep, fmt.Errorf("%w (extension %s; build it for tier 1: lola ext build --tier 1)", ErrNativeDryRun, j.ext.Name())
	}
	err := j.runTargetAndApply(ctx, nil)
	if err == nil && j.op == schema.OperationInstall && j.applied != nil {
		rec := j.record()
		j.rep.Record = &rec
	}
	return j.rep, err
}

func (j *job) openCorrelatedLog() (*audit.Log, error) {
	log, err := audit.Open(filepath.Join(j.o.Home, audit.FileName))
	if err != nil {
		return nil, err
	}
	c := j.o.Correlation
	if c.IsZero() {
		if c, err = audit.NewCorrelation(); err != nil {
			log.Close()
			return nil, err
		}
	}
	log.Correlate(c)
	j.rep.Correlation = c
	return log, nil
}

func (j *job) hookIndex(p hook.Point) int {
	for i, h := range j.rep.Hooks {
		if h.Point == p {
			return i
		}
	}
	return -1
}

// runHook runs hook i, records its run in the audit log under the
// install's correlation, and reports success. A run that cannot be logged
// counts as failed: the log is written before anything is applied.
func (j *job) runHook(ctx context.Context, log *audit.Log, i int) bool {
	inv := j.hooks[i]
	j.o.progress("running " + inv.Script.Point().String() + " hook " + inv.Script.Path())
	res, err := hook.Run(ctx, inv)
	if err != nil {
		res = child.Result{Outcome: child.OutcomeStartFailed, ExitStatus: -1, Err: err}
	}
	j.rep.Hooks[i].Ran, j.rep.Hooks[i].Child = true, res
	id, err := audit.NewExtension(inv.Identity(), "")
	id = id.WithSignature(hook.Signature)
	if err != nil {
		j.o.warn("hook run not logged: " + err.Error())
		return false
	}
	if _, err := log.Run(j.rep.Correlation, audit.RunRecord{
		Extension: id, Tier: audit.TierHook, Layers: pipeline.NativeLayers(res.Containment),
		Result: runResult(res.Outcome), ExitStatus: res.ExitStatus, Elapsed: res.Elapsed,
	}); err != nil {
		j.o.warn("hook run not logged: " + err.Error())
		return false
	}
	return res.Outcome == child.OutcomeCompleted
}

func hookFailure(r child.Result) string {
	switch r.Outcome {
	case child.OutcomeExitNonZero:
		if r.ExitStatus >= 0 {
			return fmt.Sprintf("exit status %d", r.ExitStatus)
		}
		return "terminated by a signal"
	case child.OutcomeKilledDeadline:
		return "killed at its deadline"
	case child.OutcomeKilledStdoutBound:
		return "killed for too much output"
	case child.OutcomeStartFailed:
		if r.Err != nil {
			return "could not start: " + r.Err.Error()
		}
		return "could not start"
	case child.OutcomeCanceled:
		return "interrupted"
	}
	return r.Outcome.String()
}

// checkPin refuses a target whose pin or signature verdict does not hold
// (host/extension.PinFor) and records the refusal in log.
func (j *job) checkPin(log *audit.Log) error {
	rp, err := j.ext.PinFor(j.ext.Tier(), j.o.Trust)
	if err == nil && rp.Pinned {
		// The artifact is hashed here too, so one swapped since it was
		// pinned is refused before a hook runs, in either tier (the shim
		// hashes a tier-1 module again as it reads it, and launch the
		// copy it runs): a refused install runs nothing at all.
		err = checkArtifactSum(j.ext, rp.Sum)
	}
	if err == nil || len(rejection.All(err)) == 0 {
		return refused(err)
	}
	id, ierr := j.ext.AuditIdentity()
	if ierr != nil {
		return errors.Join(refused(err), ierr)
	}
	caps := j.ext.Capabilities()
	if _, lerr := log.Rejected(audit.Rejection{Extension: id, Tier: j.ext.AuditTier(), Capabilities: caps.List(), Err: err}); lerr != nil {
		return errors.Join(refused(err), fmt.Errorf("the refusal could not be audited: %w", lerr))
	}
	return refused(err)
}

// checkArtifactSum refuses e's artifact unless its bytes hash to want
// (extension.changed). launch checks again on the copy it runs.
func checkArtifactSum(e *extension.Extension, want [32]byte) error {
	a, _ := e.Artifact(e.Tier())
	f, err := os.Open(a.HostPath())
	if err != nil {
		return fmt.Errorf("extension %s: its artifact cannot be read", e.Name())
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return fmt.Errorf("extension %s: its artifact cannot be read", e.Name())
	}
	if !bytes.Equal(h.Sum(nil), want[:]) {
		return fmt.Errorf("extension %s: %w", e.Name(), rejection.New(schema.RuleExtensionChanged,
			"its artifact differs from the one pinned when it was added; nothing ran (lola ext update reinstalls it from its source)"))
	}
	return nil
}

// launch runs the target on req and returns its plan.
func (j *job) launch(ctx context.Context, req schema.Request) (*plan.Plan, []byte, error) {
	art, err := targetArtifact(j.ext)
	if err != nil {
		return nil, nil, err
	}
	defer art.cleanup()
	caps := j.ext.Capabilities()
	// An added target runs only as pinned; a linked native one only when
	// signed or opted in for its present bytes (host/extension.PinFor).
	rp, err := j.ext.PinFor(j.ext.Tier(), j.o.Trust)
	if err != nil {
		return nil, nil, refused(err)
	}
	j.signature = rp.Describe()
	var pin *[32]byte
	if rp.Pinned {
		pin = &rp.Sum
	}
	j.o.progress(fmt.Sprintf("running %s (%s)", j.ext.Name(), j.ext.AuditTier()))
	l, err := pipeline.RunExtension(ctx, pipeline.Launch{
		Name: j.ext.Name(), Version: j.ext.Version(), Tier: j.ext.AuditTier(), Artifact: art.path,
		Caps: caps, Timeout: j.o.Timeout, Exe: j.o.Exe, CacheDir: filepath.Join(j.o.Home, config.CacheDir),
		ExtraEnv: j.o.ExtraEnv, Pin: pin, Expect: art.expect(),
	}, req)
	if err != nil {
		return nil, nil, err
	}
	j.rep.Launched = &l
	if l.Child.Outcome != child.OutcomePlanReceived {
		// Why names the limit hit (with its figure) or how the target
		// ended; its stderr is the report's (Launched), printed apart.
		return nil, nil, fmt.Errorf("%w (%s: %s)", ErrTargetFailed, j.ext.Name(), l.Why())
	}
	sum, err := art.digest(l)
	if err != nil {
		return nil, nil, fmt.Errorf("extension %s: %w", j.ext.Name(), err)
	}
	return l.Child.Plan, sum, nil
}

// legacyOwnership is for an uninstall whose record carries no "files"
// map, or claims MCP servers without recording their values (written by
// today's Lola): it asks the target what its install would write now and
// counts each such file whose content is exactly that as lola's, and each
// such server, in a managed JSON file, with the value it would write
// there. A file or server that differs (edited, or from another module
// version) is not, and is kept. Files are added only for a record
// without "files" (one with it proves its own).
func (j *job) legacyOwnership(ctx context.Context, rec *Record) error {
	req := j.req
	req.Operation = schema.OperationInstall
	p, _, err := j.launch(ctx, req)
	if err != nil {
		return err
	}
	j.rep.Launched = nil
	missing := unvalued(rec)
	proof := *rec
	proof.MCPValues = map[string]map[string]string{}
	for f, vs := range rec.MCPValues {
		proof.MCPValues[f] = maps.Clone(vs)
	}
	for i, in := range p.Intents() {
		if in.Write == nil {
			continue
		}
		pp, err := pathrule.Parse(in.Write.Path)
		if err != nil {
			continue
		}
		body, err := p.Body(i)
		if err != nil {
			continue
		}
		switch {
		case j.managed[pp.String()] && isJSON(pp.String()) && len(missing) > 0:
			for name, d := range serverDigests(body, missing) {
				proof.recordValue(pp.String(), name, d)
			}
		case !j.managed[pp.String()] && rec.Files == nil:
			j.owned.add(pp.String(), hashHex(body))
		}
	}
	// A managed JSON file the install would leave alone already holds
	// what it would write there (a target writes a managed file only to
	// change it): its servers' values there are the install's.
	if len(missing) > 0 {
		written := map[string]bool{}
		for _, in := range p.Intents() {
			if in.Write != nil {
				written[in.Write.Path] = true
			}
		}
		for _, f := range j.req.Current {
			if !j.managed[f.Path] || !isJSON(f.Path) || written[f.Path] {
				continue
			}
			body := []byte(f.Content)
			if f.Encoding == schema.EncodingBase64 {
				b, err := base64.StdEncoding.DecodeString(f.Content)
				if err != nil {
					continue
				}
				body = b
			}
			for name, d := range serverDigests(body, missing) {
				if _, ok := proof.MCPValues[f.Path][name]; !ok {
					proof.recordValue(f.Path, name, d)
				}
			}
		}
	}
	j.guard.parts.proof = &proof
	return nil
}

// unvalued is the servers rec claims without a value recorded in any
// file (today's Lola's records, or lola's before mcp_values).
func unvalued(rec *Record) map[string]bool {
	out := map[string]bool{}
	for _, n := range rec.MCPs {
		if !rec.hasValue(n) {
			out[n] = true
		}
	}
	return out
}

// runTargetAndApply runs the target on the request and takes its plan
// through the pipeline (log nil: dry run): an uninstall's plan narrowed to
// the files lola owns, an install's after the consented symlink
// replacements, both under the conflict.unowned guard.
func (j *job) runTargetAndApply(ctx context.Context, log *audit.Log) error {
	p, sum, err := j.launch(ctx, j.req)
	if err != nil {
		return err
	}
	if err := j.refuseManagedLinks(p); err != nil {
		return err
	}
	if j.op == schema.OperationUninstall {
		np, kept, err := narrowUninstall(j.root, p, j.owned, j.managed)
		if err != nil {
			return fmt.Errorf("uninstall: %w", errpath.Strip(err))
		}
		p, j.rep.Kept = np, kept
		if np, kept, err = j.narrowServers(p); err != nil {
			return fmt.Errorf("uninstall: %w", errpath.Strip(err))
		}
		p, j.rep.Kept = np, append(j.rep.Kept, kept...)
	}
	if links := findSymlinks(j.root, p); len(links) > 0 && j.op == schema.OperationInstall {
		if log != nil && (j.o.ReplaceSymlinks || j.o.ConfirmSymlinks != nil && j.o.ConfirmSymlinks(links)) {
			replaced, err := replaceSymlinks(j.root, log, j.rep.Correlation, links)
			if err != nil {
				j.undoReplaced(log)
				return err
			}
			j.replaced = append(j.replaced, replaced...)
			j.rep.Replaced = append(j.rep.Replaced, links...)
		} else {
			j.rep.Symlinks = links // the path rules refuse the plan: say why and how
		}
	}
	id, err := j.ext.AuditIdentity()
	if err != nil {
		return err
	}
	var art [32]byte
	copy(art[:], sum)
	caps := j.ext.Capabilities()
	// The grant is judged bytewise, the strictest relation: a path beneath
	// a prefix bytewise is beneath it under every relation, so no
	// filesystem's folding can widen it.
	grant := j.ext.PathGrant(j.o.Config, pathrule.Bytes)
	who := pipeline.Proposer{Extension: id.WithArtifact(art).WithSignature(j.signature), Tier: j.ext.AuditTier(), Caps: &caps, Paths: &grant, Layers: j.rep.Launched.Layers()}
	fs := j.o.FS
	if fs == "" {
		fs = pathrule.Auto
	}
	if log != nil {
		j.o.progress(fmt.Sprintf("applying %d intents under the root", p.Len()))
		j.created = createdDirs(j.root, p)
	}
	guard := func(changes []apply.Change, p *plan.Plan) error {
		if err := j.guard.check(changes, p); err != nil {
			return err
		}
		if len(j.guard.forced) > 0 && log != nil {
			// Audited before anything is applied: the log names what
			// --force took over even if the apply then fails.
			if _, err := log.Override(j.rep.Correlation, audit.OverrideRecord{Action: audit.OverrideForce, Paths: j.guard.forced}); err != nil {
				return fmt.Errorf("the --force override could not be audited: %w", err)
			}
		}
		j.rep.Forced = append([]string(nil), j.guard.forced...)
		return nil
	}
	res, err := pipeline.Apply(ctx, j.root, p, who, pipeline.Options{
		FS: fs, DryRun: log == nil, Log: log, Home: j.o.Home, Remote: j.o.Remote, Warn: j.o.Warn, Guard: guard,
	})
	if err != nil {
		j.undoReplaced(log)
		return err
	}
	// A write of exactly what is on disk changes nothing: say so.
	j.guard.netUnchanged(res.Changes, p)
	j.rep.Result = &res
	j.applied = p
	if res.Outcome == pipeline.OutcomeCommitted || res.Outcome == pipeline.OutcomeDryRun {
		j.written = writtenFiles(res.Changes, p, j.managed, j.owned, j.prev != nil && j.prev.Files.IsZero())
	}
	if res.Outcome == pipeline.OutcomeCommitted {
		j.settleManaged(res.Changes)
	}
	if res.Outcome != pipeline.OutcomeCommitted {
		j.undoReplaced(log)
	}
	return nil
}

// undoReplaced puts back the links this install replaced, when its plan
// did not commit.
func (j *job) undoReplaced(log *audit.Log) {
	if len(j.replaced) == 0 {
		return
	}
	for _, l := range restoreSymlinks(j.root, log, j.rep.Correlation, j.replaced) {
		j.o.warn(fmt.Sprintf("the symbolic link %s (to %s) could not be put back", l.Path, l.Target))
	}
	j.replaced = nil
	j.rep.Replaced = nil
}

func mergeFiles(old, new map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range old {
		out[k] = v
	}
	for k, v := range new {
		out[k] = v
	}
	return out
}

func containsLink(ls []ReplacedLink, l ReplacedLink) bool {
	for _, x := range ls {
		if x == l {
			return true
		}
	}
	return false
}

func mergeSorted(a, b []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range append(append([]string(nil), a...), b...) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

// record is the installed.yml entry of this install: what the applied plan
// really wrote (recordFromPlan), in today's Lola's shape.
//
// With --append-context the instructions looked for are the reference
// lines, and the paths are recorded as given (append_context), so that
// lola update installs them again.
func (j *job) record() Record {
	text := j.instructions
	if !j.contextApplied {
		text = instructionsText(j.mod)
	}
	r := recordFromPlan(j.mod, j.o.Assistant, string(j.scope), j.project, j.applied, text, j.guard.prior, j.prev)
	keepUntouchedParts(&r, j.prev, j.mod.Layout(), j.applied, j.req.Current, text)
	if len(j.o.AppendContext) > 0 {
		r.AppendContext = append(stringList(nil), j.o.AppendContext...)
	}
	return r
}

// narrowServers is narrowServers (narrowmcp.go) under the job's root, for
// the record being uninstalled.
func (j *job) narrowServers(p *plan.Plan) (*plan.Plan, []KeptFile, error) {
	r, err := os.OpenRoot(j.root)
	if err != nil {
		return nil, nil, err
	}
	defer r.Close()
	return narrowServers(r, p, j.managed, j.guard.parts.proof)
}
