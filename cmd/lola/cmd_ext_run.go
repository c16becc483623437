package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/lola-pm/lola/host/child"
	"github.com/lola-pm/lola/host/plan"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

func init() { extCommands = append(extCommands, newExtRunCmd) }

// Bounds of one `lola ext run`. The plan bounds are plan.DefaultLimits.
const (
	extRunDefaultTimeout = 30 * time.Second
	extRunGrace          = time.Second // cleanup after a kill; see host/child
	extRunStderrCap      = 64 << 10
	extRunRequestMax     = 16 << 20 // a --request file
)

type extRunFlags struct {
	root    string
	dryRun  bool
	timeout time.Duration
	request string
	json    bool
}

func newExtRunCmd() *cobra.Command {
	var f extRunFlags
	c := &cobra.Command{
		Use:   "run --root DIR --dry-run [--timeout D] [--request FILE] [--json] EXT",
		Short: "Run an extension and show the plan it returns",
		Long: `Run the extension EXT once: send it a request on stdin, read the plan it
prints on stdout, and show that plan. The extension never touches the tree
under --root; only lola would, by applying the plan.

EXT is, for now, a native executable (a tier-2 extension, in any language).
It runs with a minimal environment, in an empty scratch directory, under
the host's limits:
  --timeout       the outer deadline from spawn; past it the extension's
                  process group is killed (default 30s)
  plan size       64 MiB, 100 000 intents, 16 MiB per string; one byte or
                  intent more and the extension is killed
  stderr          the first 64 KiB are kept as diagnostics, the rest is
                  read and discarded (a noisy log never costs the plan)

Without --request the request has an empty module list:
  {"protocol":1,"operation":"generate","modules":[]}
--request FILE sends FILE instead ("-" reads it from stdin); it must be a
request of protocol 1 (unknown fields refused).

Applying plans comes with the executor: today --dry-run is required, and
nothing under --root is read or written.

The plan is printed one intent per line (op, paths, content size and a
sha256 prefix, never the content itself); --json prints one object:
  {"extension": NAME, "tier": "native", "outcome": "dry-run"|"extension-failed",
   "child": {"outcome": ..., "exit_status": N, "elapsed_ms": N,
             "diagnostics": "...", "diagnostics_truncated": bool},
   "intents": [{"index": 0, "op": "write", "path": ..., "size": N, "sha256": ...}],
   "violations": [{"rule": "plan.too-large", "intents": [], "detail": "..."}]}

Exit status: 0 the plan was received and shown; 2 usage (bad flags, EXT
not an executable, bad request file, no --dry-run); 4 the extension failed
(non-zero exit, killed on the deadline or a plan bound, output that is not
a plan); 3 its plan was refused by a validation rule the decoder applies
(remote.method, remote.scheme, remote.url, remote.header).`,
		Example: `  # Show what an extension would do, without applying anything
  lola ext run --root . --dry-run ./my-target

  # The same, with a request file and a 5-second deadline, as JSON
  lola ext run --root ~/project --dry-run --timeout 5s --request req.json --json ./my-target

  # Pipe a request in
  echo '{"protocol":1,"operation":"install","modules":[]}' | lola ext run --root . --dry-run --request - ./my-target`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runExtRun(cmd, f, args[0])
		},
	}
	fl := c.Flags()
	fl.StringVar(&f.root, "root", "", "directory the plan would apply under (required)")
	fl.BoolVar(&f.dryRun, "dry-run", false, "show the plan without applying it (required for now)")
	fl.DurationVar(&f.timeout, "timeout", extRunDefaultTimeout, "outer deadline from spawn, e.g. 500ms, 10s")
	fl.StringVar(&f.request, "request", "", `request file to send ("-" for stdin); default: an empty module list`)
	fl.BoolVar(&f.json, "json", false, "print the result as one JSON object")
	_ = c.MarkFlagRequired("root")
	return c
}

func runExtRun(cmd *cobra.Command, f extRunFlags, arg string) error {
	if !f.dryRun {
		return withCode(exitUsage, errors.New("ext run: applying a plan is not available yet; rerun with --dry-run to see the plan without applying it"))
	}
	if f.timeout <= 0 {
		return withCode(exitUsage, fmt.Errorf("ext run: --timeout must be positive, not %s", f.timeout))
	}
	if st, err := os.Stat(f.root); err != nil || !st.IsDir() {
		return withCode(exitUsage, fmt.Errorf("ext run: --root %s is not a directory", f.root))
	}
	ext, err := resolveExtRunTarget(arg)
	if err != nil {
		return withCode(exitUsage, fmt.Errorf("ext run: %w", err))
	}
	req, err := loadExtRunRequest(f.request, cmd.InOrStdin())
	if err != nil {
		return withCode(exitUsage, fmt.Errorf("ext run: --request: %w", err))
	}

	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
	defer stop()
	res, err := ext.run(ctx, req, f.timeout)
	if err != nil {
		return withCode(exitInternal, fmt.Errorf("ext run: %w", err))
	}

	rep := newExtRunReport(ext, res)
	out := cmd.OutOrStdout()
	if f.json {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return withCode(exitInternal, err)
		}
	} else {
		rep.printHuman(out)
		extRunPrintDiagnostics(cmd.ErrOrStderr(), ext.name, res)
	}
	if res.Outcome == child.OutcomePlanReceived {
		return nil
	}
	return withCode(extRunExitCode(res), extRunFailure(ext.name, res))
}

// extRunExitCode maps a failed run to the closed set of exit codes.
//
// A child's stdout that plan.Decode refuses under a plan.* rule (malformed,
// unknown field, too large, too many intents, field too large, ...) exits 4,
// not 3. Exit 3 says the host understood a plan and refused it under its
// rules, so the fix is a different plan; bytes that never became a plan are
// the extension failing the protocol, like a crash, and the bounds that kill
// a child are the limits 4 is for. (`lola plan validate` refuses the same
// bytes with 3: there the file itself is the plan under review.) The
// decoder also applies the lexical remote rules (remote.method, ...): a plan
// refused by those was a well-formed plan the policy rejects, so it is 3.
func extRunExitCode(res child.Result) int {
	if res.Outcome == child.OutcomePlanRefused {
		vs := rejection.All(res.Err)
		policy := len(vs) > 0
		for _, v := range vs {
			if strings.HasPrefix(v.Rule.String(), "plan.") {
				policy = false
			}
		}
		if policy {
			return exitRejected
		}
	}
	return exitExtension
}

// extRunFailure is the one-line message for a run that produced no plan.
func extRunFailure(name string, res child.Result) error {
	var what string
	switch res.Outcome {
	case child.OutcomeKilledDeadline, child.OutcomeKilledStdoutBound:
		what = "was killed"
	case child.OutcomePlanRefused:
		what = "returned no plan lola accepts"
		if extRunExitCode(res) == exitRejected {
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
	if res.Err != nil {
		what += ": " + res.Err.Error()
	}
	return fmt.Errorf("extension %s %s (nothing applied)", name, what)
}

// extRunTier says how an extension runs. Tier-1 modules (.wasm, through the
// hidden __extension-host shim) and extension directories with manifests
// join here: resolveExtRunTarget recognises them and extRunTarget.run dispatches.
type extRunTier uint8

const (
	extRunTierNative extRunTier = iota + 1 // tier 2: a native executable, trusted, run through host/child
)

func (t extRunTier) String() string {
	switch t {
	case extRunTierNative:
		return "native"
	}
	return "tier(" + strconv.Itoa(int(t)) + ")"
}

type extRunTarget struct {
	name string // base name: what messages and reports show
	path string // absolute; never shown
	tier extRunTier
}

// resolveExtRunTarget classifies EXT. Only native executables run today.
func resolveExtRunTarget(arg string) (extRunTarget, error) {
	abs, err := filepath.Abs(arg)
	if err != nil {
		return extRunTarget{}, err
	}
	name := filepath.Base(abs)
	st, err := os.Stat(abs)
	if err != nil {
		return extRunTarget{}, fmt.Errorf("extension %s: no such file", arg)
	}
	switch {
	case st.IsDir():
		return extRunTarget{}, fmt.Errorf("extension %s is a directory: extensions with manifests are not supported by ext run yet; pass the executable", arg)
	case strings.EqualFold(filepath.Ext(abs), ".wasm"):
		return extRunTarget{}, fmt.Errorf("extension %s is a tier-1 module: running .wasm modules is not supported by ext run yet", arg)
	case !st.Mode().IsRegular():
		return extRunTarget{}, fmt.Errorf("extension %s is not a regular file", arg)
	case runtime.GOOS != "windows" && st.Mode().Perm()&0o111 == 0:
		return extRunTarget{}, fmt.Errorf("extension %s is not executable (chmod +x it)", arg)
	}
	return extRunTarget{name: name, path: abs, tier: extRunTierNative}, nil
}

// run runs the extension once under the given outer deadline. The error is
// the host's own failure (no scratch directory); the extension's failures
// are in the Result.
func (e extRunTarget) run(ctx context.Context, req []byte, timeout time.Duration) (child.Result, error) {
	switch e.tier {
	case extRunTierNative:
		return extRunNative(ctx, e, req, timeout)
	}
	return child.Result{}, fmt.Errorf("tier %s cannot run", e.tier)
}

// extRunNative runs a tier-2 extension: its own process group, an empty
// scratch working directory (so a relative path cannot land in the
// project), and only extRunEnv of the host's environment (so tokens in the
// host's environment do not leak to it).
func extRunNative(ctx context.Context, e extRunTarget, req []byte, timeout time.Duration) (child.Result, error) {
	work, err := os.MkdirTemp("", "lola-ext-run-")
	if err != nil {
		return child.Result{}, errors.New("cannot create a scratch directory")
	}
	defer os.RemoveAll(work)
	spec, err := child.NewSpec(child.Config{
		Path:      e.path,
		Env:       extRunEnv(),
		Dir:       work,
		Stdin:     req,
		Deadline:  timeout,
		Grace:     extRunGrace,
		StderrCap: extRunStderrCap,
		Stdout:    child.StdoutPlan,
		Limits:    plan.DefaultLimits(),
	})
	if err != nil {
		return child.Result{}, err
	}
	return child.Run(ctx, spec), nil
}

// extRunEnvKeys are the host variables a native extension inherits: what a
// program needs to find tools and speak the locale, nothing that tends to
// hold a credential.
var extRunEnvKeys = []string{"PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR", "SYSTEMROOT", "TEMP", "TMP"}

func extRunEnv() []string {
	env := []string{}
	for _, k := range extRunEnvKeys {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	return env
}

// loadExtRunRequest returns the request bytes to send: the empty generate request
// by default, else the file (or stdin for "-"), checked as a protocol-1
// request and re-encoded in canonical form.
func loadExtRunRequest(name string, stdin io.Reader) ([]byte, error) {
	if name == "" {
		return json.Marshal(schema.Request{Protocol: 1, Operation: schema.OperationGenerate, Modules: []schema.Module{}})
	}
	var r io.Reader
	if name == "-" {
		r = stdin
	} else {
		fh, err := os.Open(name)
		if err != nil {
			return nil, fmt.Errorf("cannot open %s", name)
		}
		defer fh.Close()
		r = fh
	}
	b, err := io.ReadAll(io.LimitReader(r, extRunRequestMax+1))
	if err != nil {
		return nil, fmt.Errorf("cannot read %s", name)
	}
	if len(b) > extRunRequestMax {
		return nil, fmt.Errorf("larger than %d bytes", extRunRequestMax)
	}
	var req schema.Request
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		return nil, fmt.Errorf("not a request: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("not a request: trailing data after the object")
	}
	if req.Protocol != 1 {
		return nil, fmt.Errorf("protocol %d; this lola speaks 1", req.Protocol)
	}
	switch req.Operation {
	case schema.OperationInstall, schema.OperationUninstall, schema.OperationGenerate:
	default:
		return nil, fmt.Errorf("unknown operation %q", req.Operation)
	}
	if req.Modules == nil {
		req.Modules = []schema.Module{}
	}
	return json.Marshal(req)
}

// extRunReport is the result of one ext run, as --json prints it.
type extRunReport struct {
	Extension  string            `json:"extension"`
	Tier       string            `json:"tier"`
	Outcome    string            `json:"outcome"` // dry-run | extension-failed
	Child      extRunChild       `json:"child"`
	Intents    []extRunIntent    `json:"intents"`
	Violations []extRunViolation `json:"violations,omitempty"`
	Error      string            `json:"error,omitempty"`
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

func newExtRunReport(e extRunTarget, res child.Result) extRunReport {
	rep := extRunReport{
		Extension: e.name,
		Tier:      e.tier.String(),
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
	if res.Outcome == child.OutcomePlanReceived {
		rep.Outcome = "dry-run"
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
		r.URL, r.Dest = extRunRedactURL(in.Fetch.URL), in.Fetch.Dest
		for k := range in.Fetch.Headers {
			r.Headers = append(r.Headers, k)
		}
		sort.Strings(r.Headers)
	case in.Clone != nil:
		r.URL, r.Dest, r.Ref, r.Depth = extRunRedactURL(in.Clone.URL), in.Clone.Dest, in.Clone.Ref, in.Clone.Depth
	}
	return r
}

// extRunRedactURL hides what in a URL can be a credential: userinfo and query
// values (signed URLs carry tokens there).
func extRunRedactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "(unparsable url)"
	}
	if u.User != nil {
		u.User = url.User("redacted")
	}
	if u.RawQuery != "" {
		q := u.Query()
		for k := range q {
			q[k] = []string{"redacted"}
		}
		u.RawQuery = q.Encode()
	}
	u.Fragment, u.RawFragment = "", ""
	return u.String()
}

// printHuman prints the report for people: a heading, then one line per
// intent, every plan string shown safely (quoted if it could mislead).
func (rep extRunReport) printHuman(w io.Writer) {
	if rep.Outcome != "dry-run" {
		fmt.Fprintf(w, "extension %s (%s): %s after %dms, no plan\n", extRunShown(rep.Extension), rep.Tier, rep.Child.Outcome, rep.Child.ElapsedMS)
		for _, v := range rep.Violations {
			fmt.Fprintf(w, "  %s: %s\n", v.Rule, extRunShown(v.Detail))
		}
		return
	}
	fmt.Fprintf(w, "extension %s (%s): plan of %d intent%s, dry run, nothing applied\n",
		extRunShown(rep.Extension), rep.Tier, len(rep.Intents), extRunPlural(len(rep.Intents)))
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

// extRunPrintDiagnostics shows the extension's stderr, which is untrusted bytes:
// every line is prefixed and control characters are escaped, so it cannot
// pose as lola's own output or drive the terminal.
func extRunPrintDiagnostics(w io.Writer, name string, res child.Result) {
	if len(res.Diagnostics) == 0 {
		return
	}
	note := ""
	if res.DiagnosticsTruncated {
		note = ", truncated"
	}
	fmt.Fprintf(w, "extension %s stderr%s:\n", extRunShown(name), note)
	for _, line := range strings.SplitAfter(string(res.Diagnostics), "\n") {
		if line == "" {
			continue
		}
		fmt.Fprintf(w, "  | %s\n", extRunEscape(strings.TrimSuffix(line, "\n")))
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
