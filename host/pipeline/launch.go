package pipeline

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/capability"
	"github.com/lola-pm/lola/host/child"
	"github.com/lola-pm/lola/host/plan"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/host/shim"
	"github.com/lola-pm/lola/schema"
)

// Launch is one extension to run.
type Launch struct {
	Name, Version string
	// Tier is audit.TierWasm (Artifact is a .wasm module run through the
	// shim) or audit.TierNative (Artifact is a native executable).
	Tier audit.Tier
	// Artifact is the module or executable, an absolute path.
	Artifact string
	Caps     capability.Set
	// Timeout is the outer deadline from spawn. Zero means the default:
	// child.DefaultDeadline for tier 2; for tier 1 the shim's own, computed
	// from its limits so that the shim's clean timeout diagnostic always
	// fires first, its clock raised for the request's size
	// (shim.Limits.ForRequest: 20 s, and 2 s for each MiB of request). A tier-1 Timeout is split the same way
	// (shim.Limits.WithOuterDeadline) and must leave the module at least
	// shim.MinTimeout.
	Timeout time.Duration
	// Exe is the lola executable the shim re-executes (tier 1); empty
	// means the running executable.
	Exe string
	// CacheDir is the shim's compilation cache; empty means none.
	CacheDir string
	// ExtraEnv is appended to the child's environment: for tests only
	// (e.g. the switch that makes a test binary act as lola).
	ExtraEnv []string
	// Pin, when set, is the sha256 the artifact's bytes must have (the
	// lock file's, host/extension.PinFor). The artifact is then copied
	// into a private directory while it is hashed, and the copy runs: a
	// mismatch refuses the launch with extension.changed (ErrChanged)
	// before anything runs.
	Pin *[32]byte
	// Expect, when set, is the sha256 a tier-1 shim must report for the
	// bytes it read: the host's own copy of an artifact whose true bytes
	// it holds in memory (a built-in embedded in lola, written to a
	// private file for the shim). Unlike Pin, nothing is copied again:
	// the shim hashes what it compiles, and a run that reports another
	// digest, or none, never yields its plan (extension.changed).
	Expect *[32]byte
}

// Launched is what an extension run produced.
type Launched struct {
	tier  audit.Tier
	Child child.Result
	// Shim is the tier-1 shim's structured report (nil for tier 2, or when
	// the shim wrote none).
	Shim *shim.Report
}

// ArtifactSum is the SHA-256 of the tier-1 module bytes the shim read and
// ran, as the shim reported them before compiling a byte: the digest of
// exactly what ran, without the host reading the artifact a second time.
// ok is false for tier 2, or when the shim stopped before reading the
// module whole; the caller then hashes the file (ArtifactSum).
func (l Launched) ArtifactSum() (sum [sha256.Size]byte, ok bool) {
	if l.tier != audit.TierWasm || l.Shim == nil || !l.Shim.HasModule {
		return sum, false
	}
	return l.Shim.Module, true
}

// Plan is the plan the extension returned, or nil.
func (l Launched) Plan() *plan.Plan { return l.Child.Plan }

// NativeStderrCap is how much of a tier-2 extension's stderr is kept as
// diagnostics (the shim sets its own, so its report survives).
const NativeStderrCap = 64 << 10

// nativeEnvKeys are the host variables a native extension inherits: what a
// program needs to find tools and speak the locale, nothing that tends to
// hold a credential.
var nativeEnvKeys = []string{"PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR", "SYSTEMROOT", "TEMP", "TMP"}

func nativeEnv() []string {
	env := []string{}
	for _, k := range nativeEnvKeys {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	return env
}

// EncodeRequest is the bytes RunExtension sends an extension for req, in
// both tiers: what `lola ext request` prints, so that a golden test feeds
// an extension exactly what lola does.
func EncodeRequest(req schema.Request) ([]byte, error) { return json.Marshal(req) }

// RunExtension runs l once on req and returns what it produced. It never
// touches a root: the plan, if any, is for Apply. A tier-2 extension runs
// in an empty scratch directory with only nativeEnvKeys of the host's
// environment; a tier-1 module runs in the confined shim with none.
func RunExtension(ctx context.Context, l Launch, req schema.Request) (Launched, error) {
	if !filepath.IsAbs(l.Artifact) {
		return Launched{}, errors.New("pipeline: the artifact path must be absolute")
	}
	body, err := EncodeRequest(req)
	if err != nil {
		return Launched{}, err
	}
	if l.Pin != nil {
		copyPath, dir, err := pinnedCopy(l.Name, l.Artifact, *l.Pin, l.Tier == audit.TierNative)
		if err != nil {
			return Launched{}, err
		}
		defer os.RemoveAll(dir)
		l.Artifact = copyPath
	}
	switch l.Tier {
	case audit.TierWasm:
		out, err := runModule(ctx, l, body)
		// The shim reports the digest of the bytes it read, before
		// compiling any: with a pin, they must be the pinned bytes too
		// (the copy was hashed; this holds the shim to it). The plan of
		// a mismatch is never returned.
		if sum, ok := out.ArtifactSum(); err == nil && l.Pin != nil && ok && sum != *l.Pin {
			return Launched{}, changedErr(l.Name)
		}
		if err == nil && l.Expect != nil && out.Child.Plan != nil {
			if sum, ok := out.ArtifactSum(); !ok || sum != *l.Expect {
				return Launched{}, changedErr(l.Name)
			}
		}
		return out, err
	case audit.TierNative:
		return runNative(ctx, l, body)
	}
	return Launched{}, fmt.Errorf("pipeline: tier %q does not return a plan", l.Tier)
}

// moduleLimits are the shim's limits for a run of l on a request of n
// bytes: a Timeout is the outer deadline and gives the module the rest of
// it as its own clock; without one the clock is the default's raised for
// the request's size (shim.Limits.ForRequest: 20 s and 2 s per MiB).
func moduleLimits(l Launch, n int) (shim.Limits, error) {
	if l.Timeout > 0 {
		return shim.DefaultLimits().WithOuterDeadline(l.Timeout)
	}
	return shim.DefaultLimits().ForRequest(int64(n)), nil
}

// runModule runs a tier-1 module through the shim under moduleLimits.
func runModule(ctx context.Context, l Launch, body []byte) (Launched, error) {
	limits, err := moduleLimits(l, len(body))
	if err != nil {
		return Launched{}, err
	}
	args, err := shim.NewArgs(l.Artifact, l.Caps.List(), limits, l.CacheDir)
	if err != nil {
		return Launched{}, err
	}
	var inv shim.Invocation
	if l.Exe != "" {
		inv, err = shim.NewInvocation(l.Exe, args)
	} else {
		inv, err = shim.SelfInvocation(args)
	}
	if err != nil {
		return Launched{}, err
	}
	inv.Env = append(inv.Env, l.ExtraEnv...)
	res, rep, err := shim.RunModule(ctx, inv, body, plan.DefaultLimits())
	out := Launched{tier: audit.TierWasm, Child: res}
	if err == nil {
		out.Shim = &rep
		if rep.Outcome.Kind == shim.KindPlanTooLarge {
			// The shim refused the declared length before copying a byte;
			// name it by the same rule a tier-2 plan of that size meets.
			out.Child.Err = errors.Join(rejection.New(schema.RulePlanTooLarge, rep.Outcome.Detail), res.Err)
		}
	}
	return out, nil
}

// runNative runs a tier-2 executable in an empty scratch directory with
// only nativeEnvKeys of the host's environment.
func runNative(ctx context.Context, l Launch, body []byte) (Launched, error) {
	work, err := os.MkdirTemp("", "lola-ext-")
	if err != nil {
		return Launched{}, errors.New("pipeline: cannot create a scratch directory")
	}
	defer os.RemoveAll(work)
	deadline := l.Timeout
	if deadline <= 0 {
		deadline = child.DefaultDeadline
	}
	spec, err := child.NewSpec(child.Config{
		Path: l.Artifact, Env: append(nativeEnv(), l.ExtraEnv...), Dir: work, Stdin: body,
		Deadline: deadline, Grace: child.DefaultGrace, StderrCap: NativeStderrCap,
		Stdout: child.StdoutPlan, Limits: plan.DefaultLimits(),
	})
	if err != nil {
		return Launched{}, err
	}
	return Launched{tier: audit.TierNative, Child: child.Run(ctx, spec)}, nil
}
