package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/lola-pm/lola/host/apply"
	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/capability"
	"github.com/lola-pm/lola/host/child"
	"github.com/lola-pm/lola/host/exitcode"
	"github.com/lola-pm/lola/host/extension"
	"github.com/lola-pm/lola/host/pathrule"
	"github.com/lola-pm/lola/host/pipeline"
	"github.com/lola-pm/lola/host/plan"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/host/remote"
	"github.com/lola-pm/lola/host/shim"
	"github.com/lola-pm/lola/schema"
)

func init() { extCommands = append(extCommands, newExtRunCmd) }

// Bounds of one `lola ext run` beyond the host's own. The plan bounds are
// plan.DefaultLimits; the child's stderr cap and grace are host/pipeline's.
const (
	extRunDefaultTimeout = 30 * time.Second
	extRunRequestMax     = 16 << 20 // a --request file
)

type extRunFlags struct {
	root        string
	dryRun      bool
	trustNative bool
	timeout     time.Duration
	request     string
	caps        string
	fs          string
	home        string
	json        bool
	verbose     bool
}

func newExtRunCmd() *cobra.Command {
	var f extRunFlags
	c := &cobra.Command{
		Use:   "run --root DIR [--dry-run] [--timeout D] [--request FILE] [--caps LIST] [--json] [-v] EXT",
		Short: "Run an extension and validate, log and apply the plan it returns",
		Long: `Run the extension EXT once: send it a request on stdin, read the plan it
prints on stdout, then take that plan through every host check and apply it
atomically under --root (or, with --dry-run, show what would change).
The extension never touches the tree itself; only lola does, by applying
the plan.

EXT is a tier-1 module (a .wasm file, run by the confined shim: Landlock
and seccomp on Linux, wazero with no filesystem, environment, argv or
network, under a memory ceiling and its own clock) or a tier-2 native
executable (any language, trusted rather than confined: it runs with a
minimal environment, in an empty scratch directory). Limits:
  --timeout       the outer deadline from spawn; past it the extension's
                  process group is killed (default 30s; for a .wasm module
                  the shim's own clock, which covers reading, compiling
                  and running the module, ends a tenth earlier, at least
                  250ms and at most 2s, so its clean "timeout" diagnostic
                  comes first)
  plan size       64 MiB, 100 000 intents, 16 MiB per string; one byte or
                  intent more and the extension is killed
  stderr          the first 64 KiB are kept as diagnostics, the rest is
                  read and discarded (a noisy log never costs the plan)

--caps grants capabilities (net.http for fetch intents, net.git for clone
intents; comma-separated; default none). A plan using one that was not
granted is rejected whole (capability.missing).

Without --request the request has an empty module list:
  {"protocol":1,"operation":"generate","modules":[]}
--request FILE sends FILE instead ("-" reads it from stdin); it must be a
request of protocol 1 (unknown fields refused). For an extension with a
manifest, a request without "current" gets the current content of the
files the manifest names as managed (e.g. CLAUDE.md), read beneath --root.

EXT may also be an extension directory (with lola-extension.yaml) or the
name of an extension lola knows (lola ext ls): it then runs with its
manifest's capabilities and path grant.

The extension's own stderr (its log lines, a stray print, a panic's
message and location) is shown beneath the report when the run fails, and
on success only with -v (--verbose); a successful run that wrote some says
how many lines -v would show. --json always carries it as
child.diagnostics.

--dry-run shows the plan and the tree diff it would cause and changes
nothing: it creates nothing under --root (see 'lola plan apply --help' for
the note it prints on a filesystem it cannot identify without writing).
A native extension is refused under --dry-run: it runs trusted and
may act on its own before lola sees its plan, so a dry run could not promise
that nothing happened. --trust-native runs it anyway, to see its plan.

The plan is printed one intent per line (op, paths, content size and a
sha256 prefix, never the content itself); --json prints one object:
  {"extension": NAME, "tier": "wasm/tier1"|"native/tier2",
   "outcome": "committed"|"rolled-back"|"rollback-failed"|"rejected"|"dry-run"|"extension-failed",
   "child": {"outcome": ..., "exit_status": N, "elapsed_ms": N,
             "diagnostics": "...", "diagnostics_truncated": bool},
   "shim": {"kind": "timeout"|"memory-limit"|..., "code": "..."},
   "intents": [{"index": 0, "op": "write", "path": ..., "size": N, "sha256": ...}],
   "violations": [{"rule": "plan.too-large", "intents": [], "detail": "..."}],
   "changes": [...], "correlation": "..."}

Exit status: 0 applied (or dry run); 2 usage (bad flags, EXT not an
extension, bad request file, a native extension under --dry-run without
--trust-native); 3 the plan was rejected (nothing applied); 4 the
extension failed (non-zero exit, a limit, output that is not a plan;
nothing applied); 5 applied then rolled back (the tree is pre-plan); 6
rollback failed (the tree is in neither state).`,
		Example: `  # Show what a tier-1 extension would do, without applying anything
  lola ext run --root . --dry-run ./dist/my-target.wasm

  # Apply its plan, with a request file and a 5-second deadline, as JSON
  lola ext run --root ~/project --timeout 5s --request req.json --json ./dist/my-target.wasm

  # A native extension's plan, accepting that it runs unconfined
  lola ext run --root . --dry-run --trust-native ./dist/my-target

  # A source extension that may fetch
  lola ext run --root . --caps net.http ./dist/my-source.wasm`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runExtRun(cmd, f, args[0])
		},
	}
	fl := c.Flags()
	fl.StringVar(&f.root, "root", "", "directory the plan applies under (required)")
	fl.BoolVar(&f.dryRun, "dry-run", false, "show the plan and the tree diff; apply nothing")
	fl.BoolVar(&f.trustNative, "trust-native", false, "allow --dry-run to run a native (unconfined) extension")
	fl.DurationVar(&f.timeout, "timeout", extRunDefaultTimeout, "outer deadline from spawn, e.g. 500ms, 10s")
	fl.StringVar(&f.request, "request", "", `request file to send ("-" for stdin); default: an empty module list`)
	fl.StringVar(&f.caps, "caps", "", "capabilities to grant: net.http, net.git (comma-separated)")
	fl.StringVar(&f.fs, "fs", pathrule.Auto, "path-equality relation: auto, bytes, darwin, hfsplus, windows, darwin-case-sensitive")
	fl.StringVar(&f.home, "home", "", "Lola's state directory (default $LOLA_HOME, else ~/.lola)")
	fl.BoolVar(&f.json, "json", false, "print the result as one JSON object")
	fl.BoolVarP(&f.verbose, "verbose", "v", false, "show the extension's stderr (its log) on success too; a failure always shows it")
	_ = c.MarkFlagRequired("root")
	return c
}

func runExtRun(cmd *cobra.Command, f extRunFlags, arg string) error {
	if f.timeout <= 0 {
		return withCode(exitUsage, fmt.Errorf("ext run: --timeout must be positive, not %s", f.timeout))
	}
	if f.fs != pathrule.Auto {
		if _, err := pathrule.ParseEquality(f.fs); err != nil {
			return withCode(exitUsage, fmt.Errorf("ext run: --fs: %w", err))
		}
	}
	if st, err := os.Stat(f.root); err != nil || !st.IsDir() {
		return withCode(exitUsage, fmt.Errorf("ext run: --root %s is not a directory", f.root))
	}
	caps, err := capability.ParseSet(f.caps)
	if err != nil {
		return withCode(exitUsage, fmt.Errorf("ext run: --caps: %w", err))
	}
	st, err := openState(f.home)
	if err != nil {
		return withCode(exitUsage, fmt.Errorf("ext run: %w", err))
	}
	ext, err := extension.ResolveRun(arg, st.home)
	if err != nil {
		return withCode(exitUsage, fmt.Errorf("ext run: %w", err))
	}
	ext = extRunAdoptManifest(ext, cmd.ErrOrStderr())
	if ext.Manifest != nil {
		if f.caps != "" {
			return withCode(exitUsage, fmt.Errorf("ext run: %s has a manifest, which declares its capabilities; --caps is for bare artifacts", extRunShown(ext.Name)))
		}
		caps = ext.Manifest.Capabilities()
	}
	if f.dryRun && ext.Tier.Native() && !f.trustNative {
		return withCode(exitUsage, fmt.Errorf("ext run: %s is a native (tier-2) extension: it runs unconfined and may act before lola sees its plan, so --dry-run cannot promise nothing happens; add --trust-native to run it anyway, or build it for tier 1 (lola ext build --tier 1)", extRunShown(ext.Name)))
	}
	req, err := loadExtRunRequest(f.request, cmd.InOrStdin())
	if err != nil {
		return withCode(exitUsage, fmt.Errorf("ext run: --request: %w", err))
	}
	if ext.Manifest != nil && len(req.Current) == 0 {
		// Hand over the managed files as they are under the root, as an
		// install does; a managed file that is a symlink refuses the run.
		if req.Current, err = ext.Manifest.CurrentFiles(f.root); err != nil {
			if len(rejection.All(err)) > 0 {
				return withCode(exitRejected, fmt.Errorf("ext run: %w", err))
			}
			return withCode(exitInternal, fmt.Errorf("ext run: %w", err))
		}
	}

	pin, runPin, err := extRunPin(ext, st)
	if err != nil {
		return extRunPinRefused(ext, caps, st, err)
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
	defer stop()
	launched, err := pipeline.RunExtension(ctx, pipeline.Launch{
		Name: ext.Name, Tier: ext.Tier, Artifact: ext.Path, Caps: caps,
		Timeout: f.timeout, CacheDir: st.cacheDir(), ExtraEnv: extRunTestEnv, Pin: pin,
	}, req)
	if errors.Is(err, pipeline.ErrChanged) {
		return extRunPinRefused(ext, caps, st, err)
	}
	if d := runPin.Describe(); d != "" && !f.json {
		fmt.Fprintf(cmd.ErrOrStderr(), "lola: %s: %s\n", extRunShown(ext.Name), d)
	}
	if err != nil {
		return withCode(exitUsage, fmt.Errorf("ext run: %w", err))
	}
	res := launched.Child
	rep := newExtRunReport(ext, launched)
	out, errOut := cmd.OutOrStdout(), cmd.ErrOrStderr()
	emit := func(pr *pipeline.Result) error {
		if f.json {
			if err := writeJSON(out, rep); err != nil {
				return withCode(exitInternal, err)
			}
			return nil
		}
		rep.printHuman(out)
		extRunGuestLog(errOut, ext.Name, launched, pipeline.ShowGuestLog(pr, f.verbose))
		return nil
	}
	if res.Outcome != child.OutcomePlanReceived {
		if err := emit(nil); err != nil {
			return err
		}
		return withCode(exitcode.ForChild(res), extRunFailure(ext.Name, launched))
	}

	who, err := extRunProposer(ext, caps, launched, runPin, st)
	if err != nil {
		return withCode(exitInternal, fmt.Errorf("ext run: %w", err))
	}
	opts := pipeline.Options{FS: f.fs, DryRun: f.dryRun, Home: st.home, Warn: func(s string) { fmt.Fprintln(errOut, "lola: warning:", s) }}
	if !f.dryRun {
		if opts.Log, err = st.openAudit(); err != nil {
			return withCode(exitInternal, fmt.Errorf("ext run: %w", err))
		}
		defer opts.Log.Close()
		if opts.Remote, err = st.remoteClient(); err != nil {
			return withCode(exitUsage, fmt.Errorf("ext run: %w", err))
		}
	}
	pr, err := pipeline.Apply(ctx, f.root, res.Plan, who, opts)
	if err != nil {
		if errors.Is(err, pipeline.ErrRelationMismatch) {
			return withCode(exitUsage, fmt.Errorf("ext run: --fs %s: %w", f.fs, err))
		}
		return withCode(exitInternal, fmt.Errorf("ext run: %w", err))
	}
	rep.withPipeline(pr)
	if err := emit(&pr); err != nil {
		return err
	}
	if !f.json && pr.Outcome == pipeline.OutcomeDryRun {
		printTreeDiff(out, pr.Changes, pr.RelationNote)
	}
	return pipelineExit(pr, f.json, errOut)
}

// extRunTestEnv is appended to the extension's environment; only tests set
// it (so that a test binary re-executed as the shim knows to act as lola).
var extRunTestEnv []string

// extRunProposer is who the audit log names and the checks hold the plan
// to: the extension's name (and version, from a manifest) with its
// artifact's hash, its tier, the granted capabilities, the confinement the
// shim reported, and — for an extension with a manifest — its effective
// path grant. The grant is compared bytewise, the strictest relation: a
// path beneath a prefix bytewise is beneath it under every relation, so no
// filesystem's folding can widen it. A bare artifact carries no path grant:
// the user chose both the root and the artifact. The identity names how
// the artifact was vouched for (signer, opt-in, unsigned) when it was
// pinned or linked.
func extRunProposer(ext extension.RunTarget, caps capability.Set, l pipeline.Launched, rp extension.RunPin, st *lolaState) (pipeline.Proposer, error) {
	var id audit.Extension
	var err error
	if ext.Manifest != nil {
		id, err = ext.Manifest.AuditIdentity()
	} else if id, err = audit.NewExtension(ext.Name, ""); err != nil {
		id, err = audit.NewExtension("extension", "")
	}
	if err != nil {
		return pipeline.Proposer{}, err
	}
	// A tier-1 run's digest is the shim's, of the bytes it ran; the file
	// is hashed only when there is none (tier 2).
	if sum, ok := l.ArtifactSum(); ok {
		id = id.WithArtifact(sum)
	} else if sum, err := pipeline.ArtifactSum(ext.Path); err == nil {
		id = id.WithArtifact(sum)
	}
	who := pipeline.Proposer{Extension: id.WithSignature(rp.Describe()), Tier: ext.Tier, Caps: &caps, Layers: l.Layers()}
	if ext.Manifest != nil {
		g := ext.Manifest.PathGrant(st.cfg, pathrule.Bytes)
		who.Paths = &g
	}
	return who, nil
}

// extRunFailure is the one-line message for a run that produced no plan.
func extRunFailure(name string, l pipeline.Launched) error {
	res := l.Child
	var what string
	switch res.Outcome {
	case child.OutcomeKilledDeadline, child.OutcomeKilledStdoutBound:
		what = "was killed"
	case child.OutcomePlanRefused:
		what = "returned no plan lola accepts"
		if exitcode.ForChild(res) == exitRejected {
			what = "returned a plan that was rejected"
		}
	case child.OutcomeExitNonZero:
		what = "failed"
	case child.OutcomeStartFailed:
		what = "could not be started"
	case child.OutcomeCanceled:
		what = "was interrupted"
	default:
		what = "ended with " + res.Outcome.String()
	}
	switch {
	case l.Shim != nil && l.Shim.Outcome.Kind != shim.KindOK:
		what += ": " + l.Shim.Outcome.Error()
	case res.Err != nil && l.Shim == nil:
		what += ": " + res.Err.Error()
		if res.Outcome == child.OutcomeExitNonZero && res.ExitStatus > 0 {
			if m := schema.GuestStatus(res.ExitStatus).Meaning(); m != "" {
				what += " (" + m + ", as the SDKs number it)"
			}
		}
	}
	return fmt.Errorf("extension %s %s (nothing applied)", extRunShown(name), what)
}

// loadExtRunRequest returns the request to send: the empty generate request
// by default, else the file (or stdin for "-"), checked as a protocol-1
// request.
func loadExtRunRequest(name string, stdin io.Reader) (schema.Request, error) {
	if name == "" {
		return schema.Request{Protocol: 1, Operation: schema.OperationGenerate, Modules: []schema.Module{}}, nil
	}
	var r io.Reader
	if name == "-" {
		r = stdin
	} else {
		f, err := os.Open(name)
		if err != nil {
			return schema.Request{}, fmt.Errorf("cannot open %s", filepath.Base(name))
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(io.LimitReader(r, extRunRequestMax+1))
	if err != nil {
		return schema.Request{}, fmt.Errorf("cannot read %s", name)
	}
	if len(b) > extRunRequestMax {
		return schema.Request{}, fmt.Errorf("larger than %d bytes", extRunRequestMax)
	}
	var req schema.Request
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		return schema.Request{}, fmt.Errorf("not a request: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return schema.Request{}, errors.New("not a request: trailing data after the object")
	}
	if req.Protocol != 1 {
		return schema.Request{}, fmt.Errorf("protocol %d; this lola speaks 1", req.Protocol)
	}
	switch req.Operation {
	case schema.OperationInstall, schema.OperationUninstall, schema.OperationGenerate:
	default:
		return schema.Request{}, fmt.Errorf("unknown operation %q", req.Operation)
	}
	if req.Modules == nil {
		req.Modules = []schema.Module{}
	}
	return req, nil
}

// extRunReport is the result of one ext run, as --json prints it.
type extRunReport struct {
	Extension   string                `json:"extension"`
	Tier        string                `json:"tier"`
	Outcome     string                `json:"outcome"`
	Child       extRunChild           `json:"child"`
	Shim        *extRunShim           `json:"shim,omitempty"`
	Intents     []extRunIntent        `json:"intents"`
	Violations  []extRunViolation     `json:"violations,omitempty"`
	Trigger     *rejection.IntentRef  `json:"trigger,omitempty"`
	Changes     []apply.Change        `json:"changes,omitempty"`
	Correlation string                `json:"correlation,omitempty"`
	Recovered   *planApplyRecoveryRep `json:"recovered,omitempty"`
	Error       string                `json:"error,omitempty"`
	// RelationNote: see planApplyReport.
	RelationNote string `json:"relation_note,omitempty"`
}

// extRunShim is what the tier-1 shim reported: which limit it hit, and the
// confinement it achieved.
type extRunShim struct {
	Kind        shim.Kind         `json:"kind"`
	Code        string            `json:"code"`
	Detail      string            `json:"detail,omitempty"`
	Confinement *shim.Confinement `json:"confinement,omitempty"`
}

type extRunChild struct {
	Outcome              child.Outcome `json:"outcome"`
	ExitStatus           *int          `json:"exit_status"` // null when killed by a signal or not reaped
	Reaped               bool          `json:"reaped"`
	ElapsedMS            int64         `json:"elapsed_ms"`
	Diagnostics          string        `json:"diagnostics"`
	DiagnosticsTruncated bool          `json:"diagnostics_truncated"`
}

type extRunIntent struct {
	Index      int      `json:"index"`
	Op         string   `json:"op"`
	Path       string   `json:"path,omitempty"`
	From       string   `json:"from,omitempty"`
	To         string   `json:"to,omitempty"`
	URL        string   `json:"url,omitempty"` // userinfo and query values redacted
	Dest       string   `json:"dest,omitempty"`
	Size       *int     `json:"size,omitempty"`   // decoded content bytes
	SHA256     string   `json:"sha256,omitempty"` // of the decoded content
	Encoding   string   `json:"encoding,omitempty"`
	Executable bool     `json:"executable,omitempty"`
	Headers    []string `json:"headers,omitempty"` // names only, never values
	Ref        string   `json:"ref,omitempty"`
	Depth      int      `json:"depth,omitempty"`
}

type extRunViolation struct {
	Rule    schema.Rule `json:"rule"`
	Intents []int       `json:"intents"`
	Detail  string      `json:"detail"`
}

func newExtRunReport(e extension.RunTarget, l pipeline.Launched) extRunReport {
	res := l.Child
	rep := extRunReport{
		Extension: e.Name,
		Tier:      e.Tier.String(),
		Outcome:   "extension-failed",
		Child: extRunChild{
			Outcome:              res.Outcome,
			Reaped:               res.Reaped,
			ElapsedMS:            res.Elapsed.Milliseconds(),
			Diagnostics:          string(res.Diagnostics),
			DiagnosticsTruncated: res.DiagnosticsTruncated,
		},
		Intents: []extRunIntent{},
	}
	if res.Reaped && res.ExitStatus >= 0 {
		s := res.ExitStatus
		rep.Child.ExitStatus = &s
	}
	if l.Shim != nil {
		rep.Shim = &extRunShim{Kind: l.Shim.Outcome.Kind, Code: l.Shim.Outcome.Code(), Confinement: l.Shim.Confinement}
		if l.Shim.Outcome.Kind != shim.KindOK {
			rep.Shim.Detail = l.Shim.Outcome.Error()
		}
	}
	if res.Outcome == child.OutcomePlanReceived {
		rep.Outcome = ""
		for i := 0; i < res.Plan.Len(); i++ {
			rep.Intents = append(rep.Intents, extRunDescribe(res.Plan, i))
		}
		return rep
	}
	for _, v := range rejection.All(res.Err) {
		rep.Violations = append(rep.Violations, extRunViolation{Rule: v.Rule, Intents: v.IntentIndices(), Detail: v.Detail})
	}
	if res.Err != nil {
		rep.Error = res.Err.Error()
	}
	return rep
}

// withPipeline records what the host did with the plan.
func (rep *extRunReport) withPipeline(pr pipeline.Result) {
	rep.Outcome = pr.Outcome.String()
	for _, v := range rejection.All(pr.Err) {
		if pr.Outcome == pipeline.OutcomeRejected {
			rep.Violations = append(rep.Violations, extRunViolation{Rule: v.Rule, Intents: v.IntentIndices(), Detail: v.Detail})
		}
	}
	rep.Trigger, rep.Changes, rep.RelationNote = pr.Trigger, pr.Changes, pr.RelationNote
	if !pr.Correlation.IsZero() {
		rep.Correlation = pr.Correlation.String()
	}
	if pr.Recovered.Kind != apply.RecoveryNone {
		rep.Recovered = &planApplyRecoveryRep{Kind: pr.Recovered.Kind, Staging: pr.Recovered.Staging}
	}
	if pr.Outcome != pipeline.OutcomeRejected && pr.Err != nil {
		rep.Error = pr.Err.Error()
	}
}

func extRunDescribe(p *plan.Plan, i int) extRunIntent {
	in := p.Intent(i)
	r := extRunIntent{Index: i, Op: string(in.Op())}
	switch {
	case in.Write != nil:
		r.Path, r.Executable = in.Write.Path, in.Write.Executable
		r.Encoding = string(in.Write.Encoding)
		if r.Encoding == "" {
			r.Encoding = string(schema.EncodingUTF8)
		}
		if body, err := p.Body(i); err == nil {
			n := len(body)
			sum := sha256.Sum256(body)
			r.Size, r.SHA256 = &n, hex.EncodeToString(sum[:])
		}
	case in.Delete != nil:
		r.Path = in.Delete.Path
	case in.Rename != nil:
		r.From, r.To = in.Rename.From, in.Rename.To
	case in.Fetch != nil:
		r.URL, r.Dest = remote.RedactURL(in.Fetch.URL), in.Fetch.Dest
		for k := range in.Fetch.Headers {
			r.Headers = append(r.Headers, k)
		}
		sort.Strings(r.Headers)
	case in.Clone != nil:
		r.URL, r.Dest, r.Ref, r.Depth = remote.RedactURL(in.Clone.URL), in.Clone.Dest, in.Clone.Ref, in.Clone.Depth
	}
	return r
}

// printHuman prints the report for people: a heading, then one line per
// intent, every plan string shown safely (quoted if it could mislead).
func (rep extRunReport) printHuman(w io.Writer) {
	if rep.Outcome == "extension-failed" {
		fmt.Fprintf(w, "extension %s (%s): %s after %dms, no plan\n", extRunShown(rep.Extension), rep.Tier, rep.Child.Outcome, rep.Child.ElapsedMS)
		if rep.Shim != nil && rep.Shim.Kind != shim.KindOK {
			fmt.Fprintf(w, "  shim: %s\n", extRunShown(rep.Shim.Detail))
		}
		for _, v := range rep.Violations {
			fmt.Fprintf(w, "  %s: %s\n", v.Rule, extRunShown(v.Detail))
		}
		return
	}
	fmt.Fprintf(w, "extension %s (%s): plan of %d intent%s, %s\n",
		extRunShown(rep.Extension), rep.Tier, len(rep.Intents), extRunPlural(len(rep.Intents)), extRunOutcomeText(rep.Outcome))
	for _, in := range rep.Intents {
		fmt.Fprintf(w, "  %-6s  ", in.Op)
		switch in.Op {
		case string(schema.OpWrite):
			fmt.Fprintf(w, "%s", extRunShown(in.Path))
			if in.Size != nil {
				fmt.Fprintf(w, "  %d B  sha256:%s", *in.Size, in.SHA256[:12])
			}
			if in.Encoding == string(schema.EncodingBase64) {
				fmt.Fprint(w, "  base64")
			}
			if in.Executable {
				fmt.Fprint(w, "  executable")
			}
		case string(schema.OpDelete):
			fmt.Fprint(w, extRunShown(in.Path))
		case string(schema.OpRename):
			fmt.Fprintf(w, "%s -> %s", extRunShown(in.From), extRunShown(in.To))
		case string(schema.OpFetch):
			fmt.Fprintf(w, "%s -> %s", extRunShown(in.URL), extRunShown(in.Dest))
			if len(in.Headers) > 0 {
				hs := make([]string, len(in.Headers))
				for i, h := range in.Headers {
					hs[i] = extRunShown(h)
				}
				fmt.Fprintf(w, "  headers: %s", strings.Join(hs, ", "))
			}
		case string(schema.OpClone):
			fmt.Fprintf(w, "%s -> %s", extRunShown(in.URL), extRunShown(in.Dest))
			if in.Ref != "" {
				fmt.Fprintf(w, "  ref %s", extRunShown(in.Ref))
			}
			if in.Depth > 0 {
				fmt.Fprintf(w, "  depth %d", in.Depth)
			}
		}
		fmt.Fprintln(w)
	}
}

func extRunOutcomeText(o string) string {
	switch o {
	case "dry-run":
		return "dry run, nothing applied"
	case "committed":
		return "applied"
	case "rejected":
		return "rejected, nothing applied"
	case "rolled-back":
		return "applied and rolled back"
	case "rollback-failed":
		return "ROLLBACK FAILED"
	}
	return o
}

// extRunPrintDiagnostics shows the extension's stderr, which is untrusted bytes:
// every line is prefixed and control characters are escaped, so it cannot
// pose as lola's own output or drive the terminal.
//
// A tier-1 module's stderr is the shim's: its structured lines are shown
// as the report (which limit, which confinement), so only the guest's own
// lines are printed here.
func extRunPrintDiagnostics(w io.Writer, name string, l pipeline.Launched) {
	lines, truncated := l.GuestLog()
	if len(lines) == 0 {
		return
	}
	note := ""
	if truncated {
		note = ", truncated"
	}
	fmt.Fprintf(w, "extension %s stderr%s:\n", extRunShown(name), note)
	for _, line := range lines {
		fmt.Fprintf(w, "  | %s\n", extRunEscape(line))
	}
}

// extRunGuestLog prints the extension's stderr when show is set (see
// pipeline.ShowGuestLog); otherwise, when there is some, one line saying
// how much -v would show.
func extRunGuestLog(w io.Writer, name string, l pipeline.Launched, show bool) {
	if show {
		extRunPrintDiagnostics(w, name, l)
		return
	}
	if lines, _ := l.GuestLog(); len(lines) == 1 {
		fmt.Fprintf(w, "lola: extension %s wrote 1 line to stderr (-v shows it)\n", extRunShown(name))
	} else if len(lines) > 1 {
		fmt.Fprintf(w, "lola: extension %s wrote %d lines to stderr (-v shows them)\n", extRunShown(name), len(lines))
	}
}

// extRunShown renders an untrusted string for a line of output: as is when it is
// plainly printable, quoted when a space, control character or invalid
// UTF-8 could make it misread.
func extRunShown(s string) string {
	if s == "" || !utf8.ValidString(s) || strings.IndexFunc(s, func(r rune) bool {
		return !unicode.IsGraphic(r) || unicode.IsSpace(r)
	}) >= 0 {
		return strconv.Quote(s)
	}
	return s
}

// extRunEscape replaces control characters (but tab) and invalid UTF-8
// with visible escapes.
func extRunEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r != '\t' && (unicode.IsControl(r) || r == '\u2028' || r == '\u2029'):
			if r < 0x100 {
				fmt.Fprintf(&b, `\x%02x`, r)
			} else {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func extRunPlural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
