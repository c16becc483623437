package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/lola-pm/lola/host/exitcode"
	"github.com/lola-pm/lola/host/extension"
	"github.com/spf13/cobra"
)

func init() { extCommands = append(extCommands, newExtBuildCmd) }

// extLanguage is everything `lola ext new` and `lola ext build` know about one
// extension language. Adding a language is one entry in extLanguages.
type extLanguage struct {
	name      string   // the --lang spelling
	template  string   // directory under templates/
	marker    string   // a file whose presence in DIR identifies the language
	toolchain []string // executables that must be on PATH to build
	// tier1 and tier2 return the commands that build the artifact at out
	// (relative to dir, where the commands run) in the extension directory
	// dir (absolute).
	tier1, tier2 func(dir, out string) ([]extBuildStep, error)
	// afterNew runs once in a freshly scaffolded directory (e.g. to write
	// go.sum); a failure is reported as a warning, not an error.
	afterNew func(dir string) []extBuildStep
	// beforeBuild runs once before the tiers are built (e.g. to refresh
	// a stale dependency); nil when the language needs nothing.
	beforeBuild func(dir string, diag io.Writer) error
}

// extBuildStep is one command run in dir with extra environment.
type extBuildStep struct {
	args []string
	env  []string
}

var extLanguages = []extLanguage{
	{
		name:      "go",
		template:  "go",
		marker:    "go.mod",
		toolchain: []string{"go"},
		tier1: func(dir, out string) ([]extBuildStep, error) {
			env, err := extGoWorkEnv(dir)
			return []extBuildStep{{
				args: []string{"go", "build", "-buildmode=c-shared", "-trimpath", "-ldflags=-s -w", "-o", out, "."},
				env:  append(env, "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0"),
			}}, err
		},
		tier2: func(dir, out string) ([]extBuildStep, error) {
			env, err := extGoWorkEnv(dir)
			return []extBuildStep{{
				args: []string{"go", "build", "-trimpath", "-ldflags=-s -w", "-o", out, "."},
				env:  append(env, "CGO_ENABLED=0"),
			}}, err
		},
		afterNew: func(dir string) []extBuildStep {
			env, _ := extGoWorkEnv(dir)
			return []extBuildStep{{args: []string{"go", "mod", "tidy"}, env: append(env, "GOFLAGS=-mod=mod")}}
		},
	},
	{
		// A standard cargo project (crates.io, rustup's wasm32-wasip1);
		// ext_build_rust.go says how a machine without those builds it,
		// without anything machine-specific in the project.
		name:      "rust",
		template:  "rust",
		marker:    "Cargo.toml",
		toolchain: []string{"cargo"},
		tier1: func(dir, out string) ([]extBuildStep, error) {
			stem, err := extCargoLibStem(dir)
			if err != nil {
				return nil, err
			}
			return extDetectRust().tier1Steps(stem, out)
		},
		tier2: func(dir, out string) ([]extBuildStep, error) {
			stem, err := extCargoLibStem(dir)
			return extDetectRust().tier2Steps(stem, out), err
		},
		afterNew: func(dir string) []extBuildStep {
			return extDetectRust().lockfileSteps()
		},
	},
	{
		// Tier 1 with asc and json-as from npm, tier 2 by wasm2c + gcc of
		// the same module (the SDK's build.sh), so both tiers run one code.
		name:      "assemblyscript",
		template:  "assemblyscript",
		marker:    "package.json",
		toolchain: []string{"npm", "wasm2c", "gcc"},
		tier1: func(dir, out string) ([]extBuildStep, error) {
			return extASBuild(out, ".wasm", "1")
		},
		tier2: func(dir, out string) ([]extBuildStep, error) {
			return extASBuild(out, "", "both")
		},
		afterNew: func(dir string) []extBuildStep {
			return []extBuildStep{{args: extNpmInstall}}
		},
		beforeBuild: extASRefreshSDK,
	},
}

// extCargoLibStem is the file stem cargo gives the crate in dir: its
// package name with dashes as underscores.
func extCargoLibStem(dir string) (string, error) {
	b, err := os.ReadFile(filepath.Join(dir, "Cargo.toml"))
	if err != nil {
		return "", errors.New("Cargo.toml cannot be read")
	}
	m := regexp.MustCompile(`(?m)^name\s*=\s*"([A-Za-z0-9_-]+)"`).FindSubmatch(b)
	if m == nil {
		return "", errors.New("Cargo.toml names no package")
	}
	return strings.ReplaceAll(string(m[1]), "-", "_"), nil
}

// extASBuild runs the SDK's build.sh (reached through the npm dependency)
// on the scaffold's entry, writing dist/<name><ext>; tier 2 also rebuilds
// the module it translates.
func extASBuild(out, ext, tiers string) ([]extBuildStep, error) {
	name := strings.TrimSuffix(filepath.Base(out), ext)
	return []extBuildStep{{args: []string{
		filepath.Join("node_modules", "@lola-pm", "sdk-assemblyscript", "build.sh"),
		filepath.Join("assembly", "extension.ts"), filepath.Dir(out), name, tiers,
	}}}, nil
}

func extLanguageNamed(name string) (*extLanguage, bool) {
	for i := range extLanguages {
		if extLanguages[i].name == name {
			return &extLanguages[i], true
		}
	}
	return nil, false
}

func extLanguageNames() string {
	names := make([]string, len(extLanguages))
	for i, l := range extLanguages {
		names[i] = l.name
	}
	return strings.Join(names, "|")
}

// extDetectLanguage picks the language whose marker file DIR holds.
func extDetectLanguage(dir string) (*extLanguage, error) {
	for i := range extLanguages {
		if _, err := os.Stat(filepath.Join(dir, extLanguages[i].marker)); err == nil {
			return &extLanguages[i], nil
		}
	}
	return nil, fmt.Errorf("cannot tell the extension's language: none of the marker files for %s is in the directory", extLanguageNames())
}

// checkToolchain names the first missing executable and how to install it.
func (l *extLanguage) checkToolchain() error {
	for _, tool := range l.toolchain {
		if _, err := exec.LookPath(tool); err != nil {
			return fmt.Errorf("the %s toolchain is missing: %q is not on PATH; `make setup` in the lola repository installs it", l.name, tool)
		}
	}
	return nil
}

// extGoWorkEnv returns GOWORK=off when dir lies under a go.work that does not
// use it (an extension scaffolded inside the lola checkout, say), so the
// extension builds as the standalone module it is.
func extGoWorkEnv(dir string) ([]string, error) {
	cmd := exec.Command("go", "env", "GOWORK")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return nil, nil // the build itself will report a broken toolchain
	}
	work := strings.TrimSpace(string(out))
	if work == "" || work == "off" {
		return nil, nil
	}
	edit := exec.Command("go", "work", "edit", "-json", work)
	edit.Dir = dir
	js, err := edit.Output()
	if err != nil {
		return []string{"GOWORK=off"}, nil
	}
	var wf struct{ Use []struct{ DiskPath string } }
	if err := json.Unmarshal(js, &wf); err != nil {
		return []string{"GOWORK=off"}, nil
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	for _, u := range wf.Use {
		p := u.DiskPath
		if !filepath.IsAbs(p) {
			p = filepath.Join(filepath.Dir(work), p)
		}
		if filepath.Clean(p) == abs {
			return nil, nil
		}
	}
	return []string{"GOWORK=off"}, nil
}

// extBuiltArtifact is one artifact `lola ext build` produced.
type extBuiltArtifact struct {
	Tier  int    `json:"tier"`
	Path  string `json:"path"` // relative to the extension directory
	Bytes int64  `json:"bytes"`
}

func newExtBuildCmd() *cobra.Command {
	var tier string
	var asJSON bool
	c := &cobra.Command{
		Use:   "build [--tier 1|2|both] [--json] DIR",
		Short: "Build an extension's tier-1 module and/or tier-2 executable",
		Long: `Build the extension in DIR (default ".") from one source, into the paths
its manifest (lola-extension.yaml) declares:
  artifacts.tier1  a WASI preview 1 reactor exporting the Lola ABI
                   (the scaffold's: dist/<name>.wasm)
  artifacts.tier2  a native executable, request on stdin, plan on stdout
                   (the scaffold's: dist/<name>)
The manifest is read as strictly as 'lola ext run' reads it: a misspelt
key (capabilites), an unknown capability or kind, an artifact path that is
absolute or holds '..' refuse the build before anything runs (exit 2).
--tier both builds every tier the manifest declares; --tier 1 or 2 one it
must declare. Renaming the extension does not move its artifacts: they
stay where the manifest says, so a build never leaves the old artifact in
place for a run to pick up. The language is detected from DIR (go:
go.mod, rust: Cargo.toml, assemblyscript: package.json). The recipes:
  go  tier 1: GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -trimpath -ldflags="-s -w"
      tier 2: CGO_ENABLED=0 go build -trimpath -ldflags="-s -w"
A missing toolchain is named in the error; ` + "`make setup`" + ` installs it.

A Sigstore bundle beside a rebuilt artifact (<artifact>.sigstore.json)
that signed other bytes is removed, and named: it can never vouch for the
new build, and left in place it would make 'lola ext add' and 'lola ext
link' refuse it with a digest mismatch. Sign the build again with 'lola ext
sign --key KEY DIR'. A bundle whose signed digest cannot be read is left
alone, with a warning.

Sizes are reported per artifact; --json prints
  {"name": NAME, "lang": LANG, "artifacts": [{"tier": 1, "path": "dist/NAME.wasm", "bytes": N}, ...],
   "removed_bundles": ["dist/NAME.sigstore.json", ...]}`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			m, err := extension.ReadManifest(dir)
			if err != nil {
				return exitcode.Wrap(exitcode.Usage, fmt.Errorf("ext build: %w", err))
			}
			arts, err := extBuildTargets(m, tier)
			if err != nil {
				return exitcode.Wrap(exitcode.Usage, fmt.Errorf("ext build: %w", err))
			}
			name := m.Name()
			lang, err := extDetectLanguage(dir)
			if err != nil {
				return exitcode.Wrap(exitcode.Usage, err)
			}
			if err := lang.checkToolchain(); err != nil {
				return exitcode.Wrap(exitcode.Internal, err)
			}
			built, err := extBuild(dir, lang, arts, cmd.ErrOrStderr())
			if err != nil {
				return exitcode.Wrap(exitcode.Internal, err)
			}
			stale, err := extRemoveStaleBundles(cmd, dir, built)
			if err != nil {
				return exitcode.Wrap(exitcode.Internal, err)
			}
			out := cmd.OutOrStdout()
			if asJSON {
				enc := json.NewEncoder(out)
				return enc.Encode(struct {
					Name           string             `json:"name"`
					Lang           string             `json:"lang"`
					Artifacts      []extBuiltArtifact `json:"artifacts"`
					RemovedBundles []string           `json:"removed_bundles"`
				}{name, lang.name, built, append([]string{}, stale.Removed...)})
			}
			for _, a := range built {
				fmt.Fprintf(out, "tier %d  %-28s %s (%d bytes)\n", a.Tier, a.Path, extHumanSize(a.Bytes), a.Bytes)
			}
			return nil
		},
	}
	c.Flags().StringVar(&tier, "tier", "both", "which tier to build: 1, 2 or both")
	c.Flags().BoolVar(&asJSON, "json", false, "print the result as one JSON object")
	return c
}

// extRemoveStaleBundles removes the bundles beside the rebuilt artifacts
// that signed other bytes (host/extension.RemoveStaleBundles says why
// removing, not only warning) and names each on stderr, with those whose
// digest could not be read.
func extRemoveStaleBundles(cmd *cobra.Command, dir string, built []extBuiltArtifact) (extension.StaleBundles, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return extension.StaleBundles{}, err
	}
	rels := make([]string, len(built))
	for i, a := range built {
		rels[i] = a.Path
	}
	st, err := extension.RemoveStaleBundles(abs, rels)
	diag := cmd.ErrOrStderr()
	for _, b := range st.Removed {
		fmt.Fprintf(diag, "lola: removed %s: it signed the previous build, not this one; sign again: lola ext sign --key KEY %s\n", shownText(b), shownText(dir))
	}
	for _, b := range st.Unjudged {
		fmt.Fprintf(diag, "lola: warning: %s was left as it is: what it signs cannot be read, so it may not match this build\n", shownText(b))
	}
	return st, err
}

// extBuildTarget is one artifact to build: its tier (1 or 2) and the
// path the manifest declares for it, relative to the extension directory.
type extBuildTarget struct {
	tier int
	rel  string
}

// extBuildTargets is what --tier asks of manifest m: "both" every tier m
// declares, "1" or "2" that tier, which m must declare.
func extBuildTargets(m *extension.Manifest, tier string) ([]extBuildTarget, error) {
	var want []extension.Tier
	switch tier {
	case "1":
		want = []extension.Tier{extension.Tier1}
	case "2":
		want = []extension.Tier{extension.Tier2}
	case "both":
		want = m.Tiers()
	default:
		return nil, fmt.Errorf("--tier must be 1, 2 or both, not %q", tier)
	}
	var out []extBuildTarget
	for _, t := range want {
		p, ok := m.Artifact(t)
		if !ok {
			return nil, fmt.Errorf("--tier %s: %s declares no artifacts.%s to build", tier, extension.ManifestFile, t)
		}
		n := 1
		if t == extension.Tier2 {
			n = 2
		}
		out = append(out, extBuildTarget{tier: n, rel: p.String()})
	}
	return out, nil
}

// extBuild runs lang's recipe for each artifact in dir, writing it where
// the manifest declares it. The toolchain's own output goes to diag.
func extBuild(dir string, lang *extLanguage, arts []extBuildTarget, diag io.Writer) ([]extBuiltArtifact, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	for _, a := range arts {
		if err := os.MkdirAll(filepath.Join(abs, filepath.Dir(filepath.FromSlash(a.rel))), 0o755); err != nil {
			return nil, fmt.Errorf("creating the directory of %s: %w", a.rel, errors.Unwrap(err))
		}
	}
	if lang.beforeBuild != nil {
		if err := lang.beforeBuild(abs, diag); err != nil {
			return nil, err
		}
	}
	var built []extBuiltArtifact
	for _, a := range arts {
		t, rel := a.tier, a.rel
		recipe := lang.tier1
		if t == 2 {
			recipe = lang.tier2
		}
		steps, err := recipe(abs, filepath.FromSlash(rel))
		if err != nil {
			return nil, err
		}
		for _, s := range steps {
			if err := extRunStep(abs, s, diag); err != nil {
				return nil, fmt.Errorf("tier %d build failed: %s: %w", t, strings.Join(s.args, " "), err)
			}
		}
		st, err := os.Stat(filepath.Join(abs, filepath.FromSlash(rel)))
		if err != nil {
			return nil, fmt.Errorf("tier %d build produced no %s", t, rel)
		}
		built = append(built, extBuiltArtifact{Tier: t, Path: rel, Bytes: st.Size()})
	}
	return built, nil
}

func extRunStep(dir string, s extBuildStep, diag io.Writer) error {
	cmd := exec.Command(s.args[0], s.args[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), s.env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if err != nil && out.Len() > 0 {
		diag.Write(out.Bytes())
	}
	return err
}

func extHumanSize(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.2f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
