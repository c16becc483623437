package main

import (
	"fmt"
	"os"
	"os/signal"
	"time"

	"github.com/spf13/cobra"

	"github.com/lola-pm/lola/host/capability"
	"github.com/lola-pm/lola/host/exitcode"
	"github.com/lola-pm/lola/host/extrun"
	"github.com/lola-pm/lola/host/pathrule"
	"github.com/lola-pm/lola/host/pipeline"
)

func init() { extCommands = append(extCommands, newExtRunCmd) }

// extRunDefaultTimeout is --timeout's default. The plan bounds are
// plan.DefaultLimits; the child's stderr cap and grace are host/pipeline's;
// a --request file's, host/extrun's.
const extRunDefaultTimeout = 30 * time.Second

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
request of protocol 1 of at most 64 MiB, the shim's own request bound
(unknown fields refused). For an extension with a
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
nothing applied), or its pin or trust refused it (nothing ran); 5 applied then rolled back (the tree is pre-plan); 6
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
		return exitcode.Wrap(exitcode.Usage, fmt.Errorf("ext run: --timeout must be positive, not %s", f.timeout))
	}
	if f.fs != pathrule.Auto {
		if _, err := pathrule.ParseEquality(f.fs); err != nil {
			return exitcode.Wrap(exitcode.Usage, fmt.Errorf("ext run: --fs: %w", err))
		}
	}
	if st, err := os.Stat(f.root); err != nil || !st.IsDir() {
		return exitcode.Wrap(exitcode.Usage, fmt.Errorf("ext run: --root %s is not a directory", f.root))
	}
	var caps *capability.Set
	if f.caps != "" {
		c, err := capability.ParseSet(f.caps)
		if err != nil {
			return exitcode.Wrap(exitcode.Usage, fmt.Errorf("ext run: --caps: %w", err))
		}
		caps = &c
	}
	st, err := openState(f.home)
	if err != nil {
		return exitcode.Wrap(exitcode.Usage, fmt.Errorf("ext run: %w", err))
	}
	out, errOut := cmd.OutOrStdout(), cmd.ErrOrStderr()
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
	defer stop()
	res, err := extrun.Run(ctx, extrun.Options{
		Extension: arg, Root: f.root, Home: st.home, Config: st.cfg, Caps: caps,
		RequestFile: f.request, Stdin: cmd.InOrStdin(), DryRun: f.dryRun, TrustNative: f.trustNative,
		Timeout: f.timeout, FS: f.fs, ExtraEnv: extRunTestEnv,
		Notify: func(n extrun.Notice) { printExtRunNotice(errOut, n, f.json) },
		Warn:   func(s string) { fmt.Fprintln(errOut, "lola: warning:", s) },
	})
	if res.Report == nil {
		return exitcode.Wrap(exitcode.Of(err), err)
	}
	if f.json {
		if err := writeJSON(out, res.Report); err != nil {
			return exitcode.Wrap(exitcode.Internal, err)
		}
	} else {
		printExtRunReport(out, *res.Report)
		extRunGuestLog(errOut, res.Target.Name, *res.Launched, pipeline.ShowGuestLog(res.Applied, f.verbose))
		if res.Applied != nil && res.Applied.Outcome == pipeline.OutcomeDryRun {
			printTreeDiff(out, res.Applied.Changes, res.Applied.RelationNote)
		}
	}
	if res.Applied == nil {
		return exitcode.Wrap(exitcode.Of(err), err)
	}
	return pipelineExit(exitcode.Of(err), *res.Applied, f.root, f.json, errOut)
}

// extRunTestEnv is appended to the extension's environment; only tests set
// it (so that a test binary re-executed as the shim knows to act as lola).
var extRunTestEnv []string
