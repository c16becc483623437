package extrun

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/capability"
	"github.com/lola-pm/lola/host/child"
	"github.com/lola-pm/lola/host/config"
	"github.com/lola-pm/lola/host/exitcode"
	"github.com/lola-pm/lola/host/extension"
	"github.com/lola-pm/lola/host/pipeline"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/host/remote"
	"github.com/lola-pm/lola/schema/lexical"
)

// Options is one run.
type Options struct {
	// Extension is EXT as the user gave it: an extension directory, the
	// name of an extension lola knows, a .wasm module or a native
	// executable.
	Extension string
	// Root is the directory the plan applies under; the caller has
	// checked that it is one.
	Root string
	// Home is $LOLA_HOME, absolute: extensions, lock file, audit log,
	// cache, credentials.
	Home string
	// Config is config.yaml as loaded from Home; nil means the defaults.
	Config *config.Config
	// Caps is --caps: nil when not given. An extension with a manifest
	// refuses it (its manifest declares its capabilities).
	Caps *capability.Set
	// RequestFile is --request: "" for the empty generate request
	// (DefaultRequest), "-" for Stdin, else a file (LoadRequest).
	RequestFile string
	Stdin       io.Reader
	// DryRun checks everything and applies nothing; a native extension is
	// refused under it unless TrustNative.
	DryRun, TrustNative bool
	// Timeout is the outer deadline from spawn (pipeline.Launch.Timeout).
	Timeout time.Duration
	// FS is the path-equality relation (pipeline.Options.FS).
	FS string
	// ExtraEnv is appended to the extension's environment (tests only).
	ExtraEnv []string
	// Notify, when set, is told what a person running the extension
	// should know as the run goes (see Notice).
	Notify func(Notice)
	// Warn receives non-fatal problems of the apply; nil discards them.
	Warn func(string)
}

// Result is what one run did. Fields of steps not reached are zero.
type Result struct {
	// Target is what EXT resolved to (after a manifest beside a bare
	// artifact was adopted).
	Target extension.RunTarget
	// Launched is the extension's run; nil when it did not run.
	Launched *pipeline.Launched
	// Applied is what the pipeline did with the plan; nil when no plan
	// reached it.
	Applied *pipeline.Result
	// Report is the --json object; nil when there is nothing to report
	// (the run was refused before it ran, or failed before its plan
	// reached the pipeline for a reason of the host's, not the extension's).
	Report *Report
}

// NoticeKind says what a Notice tells.
type NoticeKind uint8

// The notices.
const (
	// NoticeAdopted: the bare artifact Name is Manifest's Tier artifact
	// and runs with that manifest (capabilities, path grant).
	NoticeAdopted NoticeKind = iota + 1
	// NoticeBare: no manifest declares the bare artifact Name: it runs
	// with no capability but the ones given, and no path grant beyond
	// the root.
	NoticeBare
	// NoticeVouched: how the artifact Name runs as was vouched for
	// (Vouched: host/extension.RunPin.Describe).
	NoticeVouched
)

// Notice is one thing Run tells as it goes, before any report.
type Notice struct {
	Kind     NoticeKind
	Name     string         // the extension or artifact, as reports name it
	Manifest string         // NoticeAdopted: the manifest's extension name
	Tier     extension.Tier // NoticeAdopted: the tier it declares the artifact as
	Vouched  string         // NoticeVouched
}

// Run runs the extension o names once and takes its plan through the
// pipeline (see the package doc). The error, nil on success, is an
// *exitcode.Error; Result says how far the run got.
func Run(ctx context.Context, o Options) (Result, error) {
	var res Result
	fail := func(code int, err error) (Result, error) { return res, exitcode.Wrap(code, err) }
	notify := o.Notify
	if notify == nil {
		notify = func(Notice) {}
	}
	cfg := o.Config
	if cfg == nil {
		cfg = config.Default()
	}

	ext, err := extension.ResolveRun(o.Extension, o.Home)
	if err != nil {
		return fail(exitcode.Usage, fmt.Errorf("ext run: %w", err))
	}
	if ext.Cleanup != nil {
		defer ext.Cleanup()
	}
	ext = adoptManifest(ext, notify)
	res.Target = ext
	caps := capability.Set{}
	if o.Caps != nil {
		caps = *o.Caps
	}
	if ext.Manifest != nil {
		if o.Caps != nil {
			return fail(exitcode.Usage, fmt.Errorf("ext run: %s has a manifest, which declares its capabilities; --caps is for bare artifacts", lexical.Printable(ext.Name, lexical.LineEcho)))
		}
		caps = ext.Manifest.Capabilities()
	}
	if o.DryRun && ext.Tier.Native() && !o.TrustNative {
		return fail(exitcode.Usage, fmt.Errorf("ext run: %s is a native (tier-2) extension: it runs unconfined and may act before lola sees its plan, so --dry-run cannot promise nothing happens; add --trust-native to run it anyway, or build it for tier 1 (lola ext build --tier 1)", lexical.Printable(ext.Name, lexical.LineEcho)))
	}
	req, err := LoadRequest(o.RequestFile, o.Stdin)
	if err != nil {
		return fail(exitcode.Usage, fmt.Errorf("ext run: --request: %w", err))
	}
	if ext.Manifest != nil && len(req.Current) == 0 {
		// Hand over the managed files as they are under the root, as an
		// install does; a managed file that is a symlink refuses the run.
		if req.Current, err = ext.Manifest.CurrentFiles(o.Root); err != nil {
			if len(rejection.All(err)) > 0 {
				return fail(exitcode.Rejected, fmt.Errorf("ext run: %w", err))
			}
			return fail(exitcode.Internal, fmt.Errorf("ext run: %w", err))
		}
	}

	pin, runPin, err := resolvePin(ext, o.Home, cfg)
	if err != nil {
		return res, refusePin(ext, caps, o.Home, err)
	}
	launched, err := pipeline.RunExtension(ctx, pipeline.Launch{
		Name: ext.Name, Tier: ext.Tier, Artifact: ext.Path, Caps: caps,
		Timeout: o.Timeout, CacheDir: filepath.Join(o.Home, config.CacheDir), ExtraEnv: o.ExtraEnv, Pin: pin, Expect: ext.Expect,
	}, req)
	if errors.Is(err, pipeline.ErrChanged) {
		return res, refusePin(ext, caps, o.Home, err)
	}
	if d := runPin.Describe(); d != "" {
		notify(Notice{Kind: NoticeVouched, Name: ext.Name, Vouched: d})
	}
	if err != nil {
		return fail(exitcode.Usage, fmt.Errorf("ext run: %w", err))
	}
	res.Launched = &launched
	rep := newReport(ext, launched)
	if launched.Child.Outcome != child.OutcomePlanReceived {
		res.Report = &rep
		return fail(exitcode.ForChild(launched.Child), failure(ext.Name, launched))
	}

	who, err := proposer(ext, caps, launched, runPin, cfg)
	if err != nil {
		return fail(exitcode.Internal, fmt.Errorf("ext run: %w", err))
	}
	opts := pipeline.Options{FS: o.FS, DryRun: o.DryRun, Home: o.Home, Warn: o.Warn}
	if !o.DryRun {
		if opts.Log, err = audit.Open(filepath.Join(o.Home, audit.FileName)); err != nil {
			return fail(exitcode.Internal, fmt.Errorf("ext run: %w", err))
		}
		defer opts.Log.Close()
		if opts.Remote, err = remoteClient(o.Home, cfg); err != nil {
			return fail(exitcode.Usage, fmt.Errorf("ext run: %w", err))
		}
	}
	pr, err := pipeline.Apply(ctx, o.Root, launched.Child.Plan, who, opts)
	if err != nil {
		if errors.Is(err, pipeline.ErrRelationMismatch) {
			err = fmt.Errorf("--fs %s: %w", o.FS, err)
		}
		return fail(exitcode.ForApply(err), fmt.Errorf("ext run: %w", err))
	}
	rep.withPipeline(pr)
	res.Report, res.Applied = &rep, &pr
	return res, outcomeErr(pr)
}

// remoteClient is the fetch/clone client config.yaml, the credentials and
// the cache under home configure.
func remoteClient(home string, cfg *config.Config) (*remote.Client, error) {
	o, err := remote.OptionsFromHome(home, cfg, remote.DefaultLimits())
	if err != nil {
		return nil, err
	}
	return remote.New(o)
}

// outcomeErr is the failure of an apply that did not commit (nil for a
// commit or a dry run): the rejection set, or what rolled the plan back
// (and what made the rollback fail), with the outcome's exit code.
func outcomeErr(pr pipeline.Result) error {
	code := exitcode.ForOutcome(pr.Outcome)
	if code == exitcode.OK {
		return nil
	}
	err := pr.Err
	if pr.RollbackErr != nil {
		err = errors.Join(err, pr.RollbackErr)
	}
	if err == nil {
		err = errors.New("the plan was " + pr.Outcome.String())
	}
	return exitcode.Wrap(code, fmt.Errorf("ext run: %s: %w", pr.Outcome, err))
}
