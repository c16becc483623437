package exttest

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/capability"
	"github.com/lola-pm/lola/host/child"
	"github.com/lola-pm/lola/host/extension"
	"github.com/lola-pm/lola/host/fsroot"
	"github.com/lola-pm/lola/host/pathrule"
	"github.com/lola-pm/lola/host/pipeline"
	"github.com/lola-pm/lola/host/plan"
	"github.com/lola-pm/lola/schema"
)

// Options configures one Run.
type Options struct {
	// Ext is the loaded extension under test; its testdata/ holds the cases.
	Ext *extension.Extension
	// Update writes each accepted plan as its case's golden instead of
	// comparing (both tiers must still agree).
	Update bool
	// Timeout bounds each run of the extension.
	Timeout time.Duration
	// CacheDir is the shim's compilation cache ("" for none).
	CacheDir string
	// ExtraEnv is appended to the extension's environment (tests only).
	ExtraEnv []string
}

// Result is one case run in one tier.
type Result struct {
	Case string // the file stem of testdata/<Case>.request.json
	Tier audit.Tier
	// Err is why the case failed; nil when it passed.
	Err error
	// Diff is the golden's difference from the plan, when that failed it.
	Diff string
	// Wrote reports that Update wrote the golden.
	Wrote bool
}

// ErrNoCases: testdata/ holds no *.request.json, so there is nothing to test.
var ErrNoCases = errors.New("no testdata/*.request.json cases")

// ErrNoArtifact: neither tier of the extension is built.
var ErrNoArtifact = errors.New("no built artifact (lola ext build)")

// Run runs every case in every built tier and returns one Result per case
// and tier, cases in lexical order. The error is for what stops the whole
// run (no cases, no artifact, an unreadable testdata/).
func Run(ctx context.Context, o Options) ([]Result, error) {
	e := o.Ext
	cases, err := filepath.Glob(filepath.Join(e.Dir(), "testdata", "*.request.json"))
	if err != nil {
		return nil, err
	}
	if len(cases) == 0 {
		return nil, ErrNoCases
	}
	sort.Strings(cases)
	type built struct {
		path string
		tier audit.Tier
	}
	var tiers []built
	for _, t := range []extension.Tier{extension.Tier1, extension.Tier2} {
		if a, ok := e.Artifact(t); ok && a.Present() && a.HostPath() != "" {
			tiers = append(tiers, built{a.HostPath(), extension.AuditTier(t, e.Kind())})
		}
	}
	if len(tiers) == 0 {
		return nil, ErrNoArtifact
	}
	var out []Result
	for _, reqPath := range cases {
		name := strings.TrimSuffix(filepath.Base(reqPath), ".request.json")
		golden := filepath.Join(e.Dir(), "testdata", name+".plan.json")
		req, err := readRequest(reqPath)
		if err != nil {
			for _, t := range tiers {
				out = append(out, Result{Case: name, Tier: t.tier, Err: err})
			}
			continue
		}
		var first []byte // the first tier's plan, which an update writes
		for _, t := range tiers {
			r := Result{Case: name, Tier: t.tier}
			got, err := runOne(ctx, o, t.path, t.tier, req)
			switch {
			case err != nil:
				r.Err = err
			case o.Update && first == nil:
				first = got
				// The plan's text is the module's: the golden is written by
				// descriptor, atomically, never through a symbolic link.
				if err := fsroot.WriteFileBeneath(e.Dir(), "testdata/"+name+".plan.json", 0o644, got); err != nil {
					r.Err = fmt.Errorf("writing the golden testdata/%s.plan.json: %w", name, err)
				} else {
					r.Wrote = true
				}
			case o.Update:
				if d := Diff("tier "+tierName(tiers[0].tier)+" plan", "tier "+tierName(t.tier)+" plan", string(first), string(got)); d != "" {
					r.Err, r.Diff = errors.New("the tiers return different plans"), d
				}
			default:
				want, err := os.ReadFile(golden)
				if errors.Is(err, os.ErrNotExist) {
					r.Err = fmt.Errorf("no golden testdata/%s.plan.json: review the plan and create it with `lola ext test --update`", name)
					break
				}
				if err != nil {
					r.Err = fmt.Errorf("reading the golden: %w", errors.Unwrap(err))
					break
				}
				if d := Diff("testdata/"+name+".plan.json (golden)", "plan", string(want), string(got)); d != "" {
					r.Err, r.Diff = errors.New("the plan differs from the golden (`lola ext test --update` rewrites it)"), d
				}
			}
			out = append(out, r)
		}
	}
	return out, nil
}

func tierName(t audit.Tier) string {
	if t.Native() {
		return "2"
	}
	return "1"
}

// runOne launches the artifact once and holds its plan to every host rule
// under every relation; it returns the plan in golden form.
func runOne(ctx context.Context, o Options, artifact string, tier audit.Tier, req schema.Request) ([]byte, error) {
	e := o.Ext
	caps := e.Capabilities()
	l, err := pipeline.RunExtension(ctx, pipeline.Launch{
		Name: e.Name(), Version: e.Version(), Tier: tier, Artifact: artifact, Caps: caps,
		Timeout: o.Timeout, CacheDir: o.CacheDir, ExtraEnv: o.ExtraEnv,
	}, req)
	if err != nil {
		return nil, err
	}
	if l.Child.Outcome != child.OutcomePlanReceived {
		msg := "the extension returned no plan: " + l.Child.Outcome.String()
		if l.Shim != nil {
			msg += " (" + l.Shim.Outcome.Error() + ")"
		} else if l.Child.Err != nil {
			msg += ": " + l.Child.Err.Error()
		}
		if d := bytes.TrimSpace(l.Child.Diagnostics); len(d) > 0 {
			msg += "\nits diagnostics:\n" + string(d)
		}
		return nil, errors.New(msg)
	}
	if err := holdToRules(ctx, e.Manifest(), tier, l.Layers(), l.Plan(), req.Current); err != nil {
		return nil, err
	}
	return Golden(l.Plan())
}

// holdToRules runs every host check on p for the extension of manifest m,
// under every path-equality relation: a dry run of pipeline.Apply (nothing
// applied) on a scratch root holding only the request's current managed
// files (so a compare-and-swap write, if_content, is checked against what
// the extension was handed), with m's capabilities and declared path
// grant (no user configuration narrows it).
func holdToRules(ctx context.Context, m *extension.Manifest, tier audit.Tier, layers []audit.Layer, p *plan.Plan, current []schema.File) error {
	id, err := audit.NewExtension(m.Name(), m.Version())
	if err != nil {
		return err
	}
	caps := m.Capabilities()
	for _, eq := range pathrule.Equalities() {
		g := capability.GrantPaths(m.Paths(), nil, m.Name(), eq)
		who := pipeline.Proposer{Extension: id, Tier: tier, Caps: &caps, Paths: &g, Layers: layers}
		root, err := os.MkdirTemp("", "lola-ext-test-")
		if err != nil {
			return err
		}
		if err := seedCurrent(root, current); err != nil {
			os.RemoveAll(root)
			return err
		}
		pr, err := pipeline.Apply(ctx, root, p, who, pipeline.Options{FS: eq.Name(), DryRun: true})
		os.RemoveAll(root)
		if err != nil {
			return fmt.Errorf("under --fs %s: %w", eq.Name(), err)
		}
		if pr.Outcome != pipeline.OutcomeDryRun {
			return fmt.Errorf("the host refuses the plan under --fs %s: %w", eq.Name(), pr.Err)
		}
	}
	return nil
}

// CheckPlan holds the plan bytes an extension emitted to everything the
// host checks before applying them, for the extension of manifest m (no
// artifact needs to be built): strict decoding within the host's default
// limits, then every rule under every relation, as Run does. It is what
// sdk-go/lolatest calls, so an in-process golden passes only a plan the
// host accepts.
func CheckPlan(ctx context.Context, m *extension.Manifest, planJSON []byte) error {
	return CheckPlanFor(ctx, m, nil, planJSON)
}

// CheckPlanFor is CheckPlan on a scratch root holding the request's
// current managed files, as the request that produced the plan handed
// them over: a plan's compare-and-swap writes (if_content) are checked
// against them.
func CheckPlanFor(ctx context.Context, m *extension.Manifest, current []schema.File, planJSON []byte) error {
	p, err := plan.Decode(bytes.NewReader(planJSON), plan.DefaultLimits())
	if err != nil {
		return fmt.Errorf("the host refuses the plan: %w", err)
	}
	return holdToRules(ctx, m, extension.AuditTier(extension.Tier1, m.Kind()), nil, p, current)
}

// seedCurrent writes the request's current files beneath the scratch
// root, by descriptor (fsroot), each path held to the path rules.
func seedCurrent(root string, current []schema.File) error {
	if len(current) == 0 {
		return nil
	}
	r, err := fsroot.Open(root)
	if err != nil {
		return err
	}
	defer r.Close()
	for _, f := range current {
		pp, err := pathrule.Parse(f.Path)
		if err != nil {
			return fmt.Errorf("current file %q: %w", f.Path, err)
		}
		body := []byte(f.Content)
		if f.Encoding == schema.EncodingBase64 {
			if body, err = base64.StdEncoding.DecodeString(f.Content); err != nil {
				return fmt.Errorf("current file %s: content is not base64", pp.String())
			}
		}
		comps := strings.Split(pp.String(), "/")
		d, owned := r.Dir(), false
		for _, c := range comps[:len(comps)-1] {
			nd, err := d.OpenDir(c)
			if errors.Is(err, fs.ErrNotExist) {
				nd, err = d.MkdirOpen(c, 0o755)
			}
			if owned {
				d.Close()
			}
			if err != nil {
				return err
			}
			d, owned = nd, true
		}
		err = d.ReplaceFile(comps[len(comps)-1], 0o644, body)
		if owned {
			d.Close()
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// requestMax bounds a case's request file.
const requestMax = 16 << 20

// readRequest reads a case's request strictly (unknown fields refused, one
// object, protocol 1), as `lola ext run --request` does.
func readRequest(p string) (schema.Request, error) {
	f, err := os.Open(p)
	if err != nil {
		return schema.Request{}, fmt.Errorf("cannot open %s", filepath.Base(p))
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, requestMax+1))
	if err != nil || len(b) > requestMax {
		return schema.Request{}, fmt.Errorf("%s: unreadable or larger than %d bytes", filepath.Base(p), requestMax)
	}
	var req schema.Request
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		return schema.Request{}, fmt.Errorf("%s is not a request: %v", filepath.Base(p), err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return schema.Request{}, fmt.Errorf("%s: trailing data after the object", filepath.Base(p))
	}
	if req.Protocol != schema.Protocol {
		return schema.Request{}, fmt.Errorf("%s: protocol %d; this lola speaks %d", filepath.Base(p), req.Protocol, schema.Protocol)
	}
	if req.Modules == nil {
		req.Modules = []schema.Module{}
	}
	return req, nil
}
