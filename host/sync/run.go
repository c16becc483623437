package sync

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/extension"
	"github.com/lola-pm/lola/host/install"
	"github.com/lola-pm/lola/host/market"
	"github.com/lola-pm/lola/host/modsource"
	"github.com/lola-pm/lola/host/module"
	"github.com/lola-pm/lola/host/pipeline"
	"github.com/lola-pm/lola/host/version"
	"github.com/lola-pm/lola/schema"
)

// Options configures Run.
type Options struct {
	// Base carries what every install shares (Home, Config, Remote, Warn,
	// ...); Module, Assistant, Scope, Project and Correlation are set per
	// step.
	Base    install.Options
	Project string // absolute
	// Assistants overrides every line's (the CLI's -a); empty: the line's
	// #assistant=, else every target extension lola knows.
	Assistants []string
	DryRun     bool
	Market     *market.Registry // nil: @MARKET references fail
}

// Outcome of one step.
type Outcome string

// Step outcomes.
const (
	Installed    Outcome = "installed"
	Skipped      Outcome = "already installed"
	WouldInstall Outcome = "would install"
)

// Step is one module for one assistant.
type Step struct {
	Req       Requirement
	Module    string
	Assistant string
	Outcome   Outcome
	Version   string // the version checked, when known
	Unchecked bool   // the line has a specifier but the version is unknown
	Report    install.Report
	// Err is the step's error; for an install whose pipeline ran (its
	// plan rejected, or rolled back) it is nil and Report.Result says how
	// it ended, as install.Install reports it.
	Err error
}

// Result reports a run.
type Result struct {
	Correlation audit.Correlation
	Done        []Step
	// Failed are the steps that failed, in order: a line whose module
	// could not be resolved (Assistant empty), or one install. The run
	// went on past each.
	Failed []Step
}

// ErrFailed is returned when at least one step failed; Result.Failed
// names each, and every other step ran.
var ErrFailed = errors.New("some lines were not synced")

// ErrVersion: no version the line admits is available.
var ErrVersion = errors.New("no version matching")

// Run processes reqs in order.
func Run(ctx context.Context, o Options, reqs []Requirement) (Result, error) {
	var res Result
	store, err := module.OpenStore(o.Base.Home)
	if err != nil {
		return res, err
	}
	all, err := extension.DefaultTargets(o.Base.Home)
	if err != nil {
		return res, err
	}
	if !o.DryRun {
		if res.Correlation, err = audit.NewCorrelation(); err != nil {
			return res, err
		}
	}
	reg, err := install.ReadRegistry(o.Base.Home)
	if err != nil {
		return res, err
	}
	for _, r := range reqs {
		assistants := o.Assistants
		if len(assistants) == 0 {
			assistants = r.Assistants
		}
		if len(assistants) == 0 {
			assistants = all
		}
		s := Step{Req: r}
		if err := ctx.Err(); err != nil { // interrupted: the rest are not run, and say so
			s.Err = fmt.Errorf("not run: %w", err)
			res.Failed = append(res.Failed, s)
			continue
		}
		name, ver, hooks, err := o.resolve(ctx, store, r)
		s.Module, s.Version, s.Unchecked = name, ver, !r.Spec.IsZero() && ver == ""
		if err != nil {
			s.Err = err
			res.Failed = append(res.Failed, s)
			continue
		}
		for _, a := range assistants {
			s.Assistant, s.Report, s.Outcome, s.Err = a, install.Report{}, "", nil
			if recs := reg.Find(name, a, string(schema.ScopeProject), o.Project); len(recs) > 0 && admitsRecorded(r.Spec, recs[0].Version) {
				s.Outcome = Skipped
				res.Done = append(res.Done, s)
				continue
			}
			if o.DryRun {
				s.Outcome = WouldInstall
				res.Done = append(res.Done, s)
				continue
			}
			in := o.Base
			in.Module, in.Assistant, in.Scope, in.Project = name, a, schema.ScopeProject, o.Project
			in.Correlation, in.Version = res.Correlation, ver
			in.CatalogPreInstall, in.CatalogPostInstall = hooks.PreInstall, hooks.PostInstall
			rep, err := install.Install(ctx, in)
			s.Report = rep
			s.Err = err // nil when the pipeline ran: Report.Result says how it ended
			if err != nil || rep.Result == nil || rep.Result.Outcome != pipeline.OutcomeCommitted {
				res.Failed = append(res.Failed, s)
				continue
			}
			s.Outcome = Installed
			res.Done = append(res.Done, s)
		}
	}
	if len(res.Failed) > 0 {
		return res, fmt.Errorf("%w: %d", ErrFailed, len(res.Failed))
	}
	return res, nil
}

// admitsRecorded: an install recorded without a version satisfies any
// line (nothing to compare); one with a version must be admitted.
func admitsRecorded(s version.Spec, recorded string) bool {
	if s.IsZero() || recorded == "" {
		return true
	}
	v, err := version.Parse(recorded)
	return err == nil && s.Admits(v)
}

// resolve makes the line's module present in the store (unless a dry
// run) and returns its name and, when a catalog says it, its version,
// checked against the line's specifier.
func (o Options) resolve(ctx context.Context, store *module.Store, r Requirement) (string, string, market.Hooks, error) {
	if isURL(r.Ref) || (strings.Contains(r.Ref, "@") && strings.Contains(r.Ref, ":") && !strings.HasPrefix(r.Ref, "@")) {
		name, err := o.resolveURL(ctx, store, r)
		return name, "", market.Hooks{}, err
	}
	name, ver, hit, err := o.resolveName(ctx, store, r)
	var hooks market.Hooks
	if hit != nil && hit.Entry.Hooks != nil {
		hooks = *hit.Entry.Hooks
	}
	return name, ver, hooks, err
}

// resolveName resolves a store name or @MARKET/NAME line; hit is the
// catalog entry the version came from, when one did.
func (o Options) resolveName(ctx context.Context, store *module.Store, r Requirement) (string, string, *market.Hit, error) {
	sp := market.ParseSpec(r.Ref)
	if sp.Ref != "" {
		return "", "", nil, fmt.Errorf("%s: pin a git ref in a URL line or the catalog, not with @", r.Ref)
	}
	name, err := module.ParseName(sp.Module)
	if err != nil {
		return "", "", nil, err
	}
	var hit *market.Hit
	if o.Market != nil {
		if sp.Market != "" {
			h, err := o.Market.Lookup(sp.Market, name.String())
			if err != nil {
				return "", "", nil, err
			}
			hit = &h
		} else if hits, err := o.Market.Search(name.String()); err == nil {
			for _, h := range hits {
				if h.Entry.Name == name.String() {
					h := h
					hit = &h
					break
				}
			}
		}
	} else if sp.Market != "" {
		return "", "", nil, fmt.Errorf("%s: no marketplaces", r.Ref)
	}
	ver := ""
	if hit != nil {
		ver = hit.Entry.Version
	}
	if ver != "" && !r.Spec.IsZero() {
		v, err := version.Parse(ver)
		if err != nil || !r.Spec.Admits(v) {
			return "", "", nil, fmt.Errorf("%s: %w %s (the catalog offers %s)", name, ErrVersion, r.Spec, ver)
		}
	}
	// The entry's hooks apply to a module from that marketplace: the line
	// names it, or the module is fetched from it now; not to a store
	// module of the same name from elsewhere.
	fromMarket := sp.Market != ""
	_, inStore := store.Get(name)
	if inStore == nil && fromMarket && hit != nil {
		// As lola install @MARKET/NAME: the line names the catalog, so the
		// module installed must be the entry's; one of that name from
		// another source is refused before anything runs.
		if err := market.CheckStoreSource(o.Base.Home, name, *hit); err != nil {
			return "", "", nil, err
		}
	}
	if inStore == nil || o.DryRun || o.Market == nil {
		if !fromMarket {
			hit = nil
		}
		return name.String(), ver, hit, nil // not in the store: the install reports it not found
	}
	res, err := o.Market.Resolve(ctx, store, o.Base.Home, sp, o.Base.Remote)
	if err != nil {
		return "", "", nil, err
	}
	if res.Fetched == nil && !fromMarket {
		hit = nil
	}
	return res.Module, ver, hit, nil
}

func (o Options) resolveURL(ctx context.Context, store *module.Store, r Requirement) (string, error) {
	src, err := module.ParseSource(r.Ref)
	if err != nil {
		return "", err
	}
	name, err := module.DeriveName(r.Ref)
	if err != nil {
		return "", err
	}
	if _, err := store.Get(name); err == nil {
		rec, rerr := modsource.Read(o.Base.Home, name)
		if rerr != nil || rec.Source != src.Location() || rec.Ref != r.GitRef {
			return "", fmt.Errorf("%s: %w", name, market.ErrOtherSource)
		}
		return name.String(), nil
	}
	if o.DryRun {
		return name.String(), nil
	}
	added, err := store.Add(ctx, src, module.AddOptions{Name: name, Content: r.Subdirectory, Ref: r.GitRef, Cloner: o.Base.Remote})
	if err != nil {
		return "", err
	}
	if err := modsource.Write(o.Base.Home, name, modsource.Of(src, r.GitRef, r.Subdirectory, added)); err != nil {
		return "", err
	}
	return name.String(), nil
}
