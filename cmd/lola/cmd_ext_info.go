package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/capability"
	"github.com/lola-pm/lola/host/child"
	"github.com/lola-pm/lola/host/config"
	"github.com/lola-pm/lola/host/exitcode"
	"github.com/lola-pm/lola/host/extension"
	"github.com/lola-pm/lola/host/pathrule"
	"github.com/lola-pm/lola/schema"
)

func init() { extCommands = append(extCommands, newExtInfoCmd) }

func newExtInfoCmd() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "info [--json] EXT",
		Short: "Show an extension's tier, artifacts, capabilities, path grants and confinement",
		Long: `Show what lola knows about the extension EXT before running it:
  - name, version, kind and source (builtin, home, or dir);
  - the tier it runs in (tier1, a WASI module confined by the shim, is
    preferred when built; otherwise tier2, a native executable, trusted
    rather than confined) and each declared artifact with its size;
  - its granted capabilities (exactly those its manifest declares);
  - its path grants: the prefixes its manifest declares and the effective
    grant, narrowed by config.yaml's extensions.<name>.paths when set (the
    narrowest overlap: neither side can widen it). No declared path means
    no path is granted: every plan that touches a path is rejected;
  - the confinement layers this host's kernel provides for tier 1 (Landlock
    ABI version, seccomp), or "none: wazero only" where there is no OS layer.

EXT is an extension name (built-in, or installed under $LOLA_HOME/extensions)
or a directory holding lola-extension.yaml. An argument containing a "/" (or
"." / "..") is a directory; write ./NAME for a directory in the current one.

The effective grant is judged under this platform's default path-equality
relation; a run judges it under the relation of the root it applies to.

--json prints one object:
  {"name", "version", "kind", "source", "tier", "audit_tier",
   "artifacts": [{"tier", "path", "built", "size"}],
   "capabilities": [...],
   "paths": {"declared": [...], "effective": [...], "narrowed": bool, "relation": ...},
   "confinement": {"os", "landlock_abi", "seccomp", "layers": [...], "note", "tier2_containment"}}

Exit status: 0 shown; 2 EXT is not a loadable extension, $LOLA_HOME or
config.yaml is unusable.`,
		Example: `  # A built-in or installed extension, by name
  lola ext info claude-code

  # An extension directory you are developing
  lola ext info ./my-target

  # Machine-readable, e.g. the effective path grant
  lola ext info --json my-target | jq .paths.effective`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runExtInfo(cmd, args[0], asJSON) },
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the report as one JSON object")
	return c
}

type extInfoArtifact struct {
	Tier  extension.Tier `json:"tier"`
	Path  string         `json:"path"`
	Built bool           `json:"built"`
	Size  int64          `json:"size"`
}

type extInfoPaths struct {
	Declared  []string `json:"declared"`
	Effective []string `json:"effective"`
	Narrowed  bool     `json:"narrowed"`
	Relation  string   `json:"relation"`
}

type extInfoConfinement struct {
	OS          string        `json:"os"`
	LandlockABI int           `json:"landlock_abi"`
	Seccomp     bool          `json:"seccomp"`
	Layers      []audit.Layer `json:"layers"`
	Note        string        `json:"note,omitempty"`
	// Tier2 is how a native (tier-2) extension's descendants are contained
	// on this host: cgroup-v2, subreaper, job-object or process-group.
	Tier2 child.Containment `json:"tier2_containment"`
}

type extInfoReport struct {
	Name         string              `json:"name"`
	Version      string              `json:"version"`
	Kind         extension.Kind      `json:"kind"`
	Source       extension.Source    `json:"source"`
	Tier         extension.Tier      `json:"tier"`
	AuditTier    audit.Tier          `json:"audit_tier"`
	Artifacts    []extInfoArtifact   `json:"artifacts"`
	Capabilities []schema.Capability `json:"capabilities"`
	Paths        extInfoPaths        `json:"paths"`
	Confinement  extInfoConfinement  `json:"confinement"`
	Pin          *extPinJSON         `json:"pin,omitempty"`
}

// extInfoIsDir reports whether arg names a directory rather than an
// extension: it has a separator, or is "." or "..".
func extInfoIsDir(arg string) bool {
	return arg == "." || arg == ".." || strings.ContainsRune(arg, '/') || strings.ContainsRune(arg, filepath.Separator)
}

func runExtInfo(cmd *cobra.Command, arg string, asJSON bool) error {
	home, err := config.Home()
	if err != nil {
		return exitcode.Wrap(exitcode.Usage, fmt.Errorf("ext info: %w", err))
	}
	var ext *extension.Extension
	if extInfoIsDir(arg) {
		ext, err = extension.Load(arg)
		if err != nil {
			return exitcode.Wrap(exitcode.Usage, fmt.Errorf("ext info: %s: %w", arg, err))
		}
	} else {
		_, cat, err := extCatalog()
		if err != nil {
			return err
		}
		ext, err = cat.Lookup(arg)
		if err != nil {
			if st, serr := os.Stat(arg); serr == nil && st.IsDir() {
				err = fmt.Errorf("%w; to inspect the directory %s here, write ./%s", err, arg, arg)
			}
			return exitcode.Wrap(exitcode.Usage, fmt.Errorf("ext info: %w", err))
		}
	}
	cfg, err := config.Load(home)
	if err != nil {
		return exitcode.Wrap(exitcode.Usage, fmt.Errorf("ext info: %w", err))
	}
	rep := newExtInfoReport(ext, cfg, pathrule.Platform(), extension.ProbeConfinement())
	out := cmd.OutOrStdout()
	if asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return exitcode.Wrap(exitcode.Internal, err)
		}
		return nil
	}
	extInfoHuman(out, rep)
	return nil
}

func newExtInfoReport(e *extension.Extension, cfg *config.Config, eq pathrule.Equality, conf extension.Confinement) extInfoReport {
	_, narrowed := cfg.Extension(e.Name())
	grant := capability.GrantPaths(e.Paths(), cfg, e.Name(), eq)
	rep := extInfoReport{
		Name: e.Name(), Version: e.Version(), Kind: e.Kind(), Source: e.Source(),
		Tier: e.Tier(), AuditTier: e.AuditTier(),
		Artifacts:    []extInfoArtifact{},
		Capabilities: e.Capabilities().List(),
		Paths: extInfoPaths{
			Declared:  e.Paths().Strings(),
			Effective: grant.Strings(),
			Narrowed:  narrowed,
			Relation:  eq.Name(),
		},
		Confinement: extInfoConfinement{OS: conf.OS, LandlockABI: conf.LandlockABI, Seccomp: conf.Seccomp, Layers: conf.Layers, Note: conf.Note, Tier2: child.CurrentContainment()},
	}
	rep.Pin = extPinOf(e)
	if rep.Capabilities == nil {
		rep.Capabilities = []schema.Capability{}
	}
	if rep.Paths.Declared == nil {
		rep.Paths.Declared = []string{}
	}
	if rep.Paths.Effective == nil {
		rep.Paths.Effective = []string{}
	}
	for _, a := range e.Artifacts() {
		rep.Artifacts = append(rep.Artifacts, extInfoArtifact{Tier: a.Tier(), Path: a.Path().String(), Built: a.Present(), Size: a.Size()})
	}
	return rep
}

func extInfoHuman(out io.Writer, r extInfoReport) {
	p := func(label, format string, a ...any) {
		fmt.Fprintf(out, "%-14s "+format+"\n", append([]any{label + ":"}, a...)...)
	}
	p("name", "%s", shown(r.Name))
	p("version", "%s", shown(r.Version))
	p("kind", "%s", r.Kind)
	p("source", "%s", r.Source)
	if r.Pin != nil {
		p("from", "%s", shownText(r.Pin.From))
		if r.Pin.Manifest != "" {
			p("manifest", "sha256:%s", r.Pin.Manifest)
		}
		for _, a := range r.Pin.Artifacts {
			v := (extension.RunPin{Verdict: a.Verdict, Signer: a.Signer}).Describe()
			p("pin", "%s %s sha256:%s (%s)", a.Tier, shownText(a.Path), a.SHA256, v)
		}
	} else if r.Source == extension.SourceHome {
		p("pin", "none: not added with lola ext add (a native artifact is refused)")
	}
	trust := "confined by the shim"
	if r.Tier.Native() {
		trust = "native: trusted rather than confined"
	}
	p("tier", "%s (%s; audited as %s)", r.Tier, trust, r.AuditTier)
	fmt.Fprintln(out, "artifacts:")
	width := 0
	for _, a := range r.Artifacts {
		width = max(width, len(shownText(a.Path)))
	}
	for _, a := range r.Artifacts {
		state := fmt.Sprintf("%d bytes", a.Size)
		if !a.Built {
			state = "not built"
		}
		fmt.Fprintf(out, "  %-6s %-*s  %s\n", a.Tier, width, shownText(a.Path), state)
	}
	p("capabilities", "%s", extInfoList(capStrings(r.Capabilities), "none"))
	p("paths", "declared: %s", extInfoList(r.Paths.Declared, "none (no path is granted)"))
	how := "no user narrowing"
	if r.Paths.Narrowed {
		how = "narrowed by config.yaml extensions." + r.Name + ".paths"
	}
	fmt.Fprintf(out, "%-14s effective: %s (%s; relation %s)\n", "", extInfoList(r.Paths.Effective, "none (every touched path is rejected)"), how, r.Paths.Relation)
	c := r.Confinement
	layers := make([]string, len(c.Layers))
	for i, l := range c.Layers {
		layers[i] = l.String()
	}
	var kernel string
	if c.OS == "linux" {
		kernel = fmt.Sprintf("landlock ABI %d, seccomp %s", c.LandlockABI, map[bool]string{true: "yes", false: "no"}[c.Seccomp])
	} else {
		kernel = "none: wazero only"
	}
	p("tier-1 layers", "%s (%s on this host: %s)", strings.Join(layers, ", "), c.OS, kernel)
	if c.Note != "" {
		fmt.Fprintf(out, "%-14s %s\n", "", c.Note)
	}
	p("tier-2 kill", "%s (how a native extension's descendants are ended on this host)", c.Tier2)
}

func capStrings(cs []schema.Capability) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = string(c)
	}
	return out
}

func extInfoList(ss []string, none string) string {
	if len(ss) == 0 {
		return none
	}
	return strings.Join(ss, ", ")
}
