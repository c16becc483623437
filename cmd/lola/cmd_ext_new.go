package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"text/template"

	"github.com/lola-pm/lola/host/exitcode"
	"github.com/lola-pm/lola/host/extension"
	"github.com/spf13/cobra"
)

func init() { extCommands = append(extCommands, newExtNewCmd) }

// extTemplateData is what a template's .tmpl files see; templates/README.md
// documents each field.
type extTemplateData struct {
	Name      string
	Module    string
	GoVersion string
	SDKGo     string // replace target for github.com/lola-pm/lola/sdk-go, or ""
	Schema    string // replace target for github.com/lola-pm/lola/schema, or ""
	Host      string // replace target for github.com/lola-pm/lola/host (lolatest's), or ""
	// SDKRust and SDKAssemblyScript are the checkout's sdk-rust and
	// sdk-assemblyscript (a Cargo path dependency, an npm file:
	// dependency), relative when possible, or "" when no checkout was found.
	SDKRust           string
	SDKAssemblyScript string
	// SDKRustVersion is the version SDKRust's Cargo.toml declares, or "".
	SDKRustVersion string
	// CrateIdent is Name as a Rust identifier (dashes become underscores).
	CrateIdent string
}

const extSDKGoModule = "github.com/lola-pm/lola/sdk-go"

func newExtNewCmd() *cobra.Command {
	var lang, sdkGo, sdkShipped string
	c := &cobra.Command{
		Use:   "new --lang LANG [--sdk DIR | --sdk-go DIR] NAME [DIR]",
		Short: "Scaffold a new extension that builds both tiers",
		Long: `Create a new extension named NAME in DIR (default ./NAME, which must not
exist or be empty): a manifest (lola-extension.yaml), the source, tests, a
README for authors and build notes. Build it with 'lola ext build DIR'.

LANG is one of: ` + extLanguageNames() + `.

The SDKs are not published to a registry: they ship beside the lola
executable, in sdk/ (go/sdk-go and go/schema, rust/, assemblyscript/*.tgz),
and the new project depends on that copy by absolute path (go.mod replace
directives, a Cargo path dependency, an npm file: dependency), so it builds
offline in any directory. The copy used is --sdk DIR (a directory laid out
like sdk/), else $LOLA_SDK, else sdk/ beside the lola executable. Failing
those, a lola source checkout is used: --sdk-go DIR (its sdk-go directory),
else $LOLA_SDK_GO, else the first checkout found above DIR, the working
directory or the executable. Without either the new project names no SDK
and its README says how to add one.
For Go, 'go mod tidy' then runs once in the new directory to write go.sum;
for Rust, 'cargo generate-lockfile'; for AssemblyScript, 'npm install'.`,
		Args: cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			l, ok := extLanguageNamed(lang)
			if !ok {
				return exitcode.Wrap(exitcode.Usage, fmt.Errorf("--lang must be one of %s", extLanguageNames()))
			}
			name := args[0]
			if !extension.ValidName(name) {
				return exitcode.Wrap(exitcode.Usage, fmt.Errorf("extension name %q must match ^[a-z][a-z0-9-]{0,62}$", name))
			}
			dir := name
			if len(args) == 2 {
				dir = args[1]
			}
			if err := extRequireEmptyDir(dir); err != nil {
				return exitcode.Wrap(exitcode.Usage, err)
			}
			data, err := extNewTemplateData(name, dir, sdkShipped, sdkGo)
			if err != nil {
				return exitcode.Wrap(exitcode.Usage, err)
			}
			files, err := extScaffold(l.template, dir, data)
			if err != nil {
				return exitcode.Wrap(exitcode.Internal, err)
			}
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "created %s extension %q in %s:\n", l.name, name, dir)
			for _, f := range files {
				fmt.Fprintf(out, "  %s\n", f)
			}
			if l.name == "go" && data.SDKGo == "" {
				fmt.Fprintf(cmd.ErrOrStderr(), "lola: warning: no shipped SDK and no lola checkout found; name one with --sdk or as the README explains\n")
			}
			if err := l.checkToolchain(); err != nil {
				fmt.Fprintf(cmd.ErrOrStderr(), "lola: warning: %v\n", err)
			} else if l.afterNew != nil && (l.name != "go" || data.SDKGo != "") {
				abs, _ := filepath.Abs(dir)
				if l.name == "go" {
					if err := extSeedGoSum(abs, data); err != nil {
						fmt.Fprintf(cmd.ErrOrStderr(), "lola: warning: writing go.sum: %v\n", err)
					}
				}
				for _, s := range l.afterNew(abs) {
					if err := extRunStep(abs, s, cmd.ErrOrStderr()); err != nil {
						fmt.Fprintf(cmd.ErrOrStderr(), "lola: warning: %s failed in the new directory: %v\n", strings.Join(s.args, " "), err)
					}
				}
			}
			fmt.Fprintf(out, "next: lola ext build --tier both %s\n", dir)
			return nil
		},
	}
	c.Flags().StringVar(&lang, "lang", "", "the extension's language: "+extLanguageNames())
	c.Flags().StringVar(&sdkShipped, "sdk", "", "a shipped SDK directory (holding go/, rust/, assemblyscript/), default sdk/ beside lola")
	c.Flags().StringVar(&sdkGo, "sdk-go", "", "a lola checkout's sdk-go directory (also locates its sdk-rust and sdk-assemblyscript)")
	_ = c.MarkFlagRequired("lang")
	return c
}

// extRequireEmptyDir refuses a DIR that exists and is not an empty directory,
// so scaffolding never overwrites an author's files.
func extRequireEmptyDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s exists and is not a readable directory", dir)
	}
	if len(entries) > 0 {
		return fmt.Errorf("%s exists and is not empty", dir)
	}
	return nil
}

func extNewTemplateData(name, dir, shippedFlag, sdkGoFlag string) (extTemplateData, error) {
	d, err := extNewTemplateSDKs(name, dir, shippedFlag, sdkGoFlag)
	if err == nil && d.SDKRust != "" {
		p := filepath.FromSlash(d.SDKRust)
		if !filepath.IsAbs(p) {
			abs, _ := filepath.Abs(dir)
			p = filepath.Join(abs, p)
		}
		d.SDKRustVersion = extCargoPackageVersion(p)
	}
	return d, err
}

// extCargoPackageVersion is the package version of the Cargo.toml in dir,
// or "" when it cannot be read.
func extCargoPackageVersion(dir string) string {
	b, err := os.ReadFile(filepath.Join(dir, "Cargo.toml"))
	if err != nil {
		return ""
	}
	m := regexp.MustCompile(`(?m)^version\s*=\s*"([0-9A-Za-z.+-]+)"`).FindSubmatch(b)
	if m == nil {
		return ""
	}
	return string(m[1])
}

func extNewTemplateSDKs(name, dir, shippedFlag, sdkGoFlag string) (extTemplateData, error) {
	d := extTemplateData{Name: name, Module: name, GoVersion: "1.26", CrateIdent: strings.ReplaceAll(name, "-", "_")}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return d, err
	}
	if sdkGoFlag == "" {
		shipped, err := extFindShippedSDK(shippedFlag)
		if err != nil {
			return d, err
		}
		if shipped != nil {
			d.SDKGo, d.Schema, d.Host = filepath.ToSlash(shipped.goSDK), filepath.ToSlash(shipped.schema), filepath.ToSlash(shipped.host)
			d.SDKRust, d.SDKAssemblyScript = filepath.ToSlash(shipped.rust), filepath.ToSlash(shipped.asTarball)
			return d, nil
		}
	}
	sdk := sdkGoFlag
	if sdk == "" {
		sdk = os.Getenv("LOLA_SDK_GO")
	}
	if sdk != "" {
		if sdk, err = filepath.Abs(sdk); err != nil {
			return d, err
		}
		if !extIsSDKGo(sdk) {
			return d, fmt.Errorf("%s is not the lola sdk-go directory (its go.mod must declare module %s)", extSDKGoSource(sdkGoFlag), extSDKGoModule)
		}
	} else {
		starts := []string{abs}
		if wd, err := os.Getwd(); err == nil {
			starts = append(starts, wd)
		}
		if exe, err := os.Executable(); err == nil {
			starts = append(starts, filepath.Dir(exe))
		}
		sdk = extFindSDKGo(starts...)
	}
	if sdk == "" {
		return d, nil
	}
	d.SDKGo = extReplacePath(abs, sdk)
	d.Schema = extReplacePath(abs, filepath.Join(filepath.Dir(sdk), "schema"))
	d.Host = extReplacePath(abs, filepath.Join(filepath.Dir(sdk), "host"))
	for _, sib := range []struct {
		dir string
		to  *string
	}{{"sdk-rust", &d.SDKRust}, {"sdk-assemblyscript", &d.SDKAssemblyScript}} {
		if st, err := os.Stat(filepath.Join(filepath.Dir(sdk), sib.dir)); err == nil && st.IsDir() {
			*sib.to = extReplacePath(abs, filepath.Join(filepath.Dir(sdk), sib.dir))
		}
	}
	return d, nil
}

func extSDKGoSource(flag string) string {
	if flag != "" {
		return "--sdk-go " + flag
	}
	return "$LOLA_SDK_GO"
}

// extFindSDKGo walks up from each start for a directory holding sdk-go/ with
// the SDK's go.mod, and returns that sdk-go directory or "".
func extFindSDKGo(starts ...string) string {
	for _, s := range starts {
		for d := s; ; d = filepath.Dir(d) {
			if cand := filepath.Join(d, "sdk-go"); extIsSDKGo(cand) {
				return cand
			}
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	return ""
}

func extIsSDKGo(dir string) bool {
	f, err := os.Open(filepath.Join(dir, "go.mod"))
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if fields := strings.Fields(sc.Text()); len(fields) == 2 && fields[0] == "module" {
			return fields[1] == extSDKGoModule
		}
	}
	return false
}

// extReplacePath is target relative to from when from lies inside target's
// checkout (so the checkout stays relocatable), else target itself. A go.mod
// replace path must start with ./ or ../ to be read as a directory.
func extReplacePath(from, target string) string {
	root := filepath.Dir(target)
	if rel, err := filepath.Rel(root, from); err == nil && !strings.HasPrefix(rel, "..") {
		if r, err := filepath.Rel(from, target); err == nil {
			r = filepath.ToSlash(r)
			if !strings.HasPrefix(r, "../") {
				r = "./" + r
			}
			return r
		}
	}
	return filepath.ToSlash(target)
}

// extDotNames spells every path component that begins with "dot-" with a
// leading "." instead (dot-gitignore -> .gitignore): a
// template never holds a dot-file, which tools would treat as their own.
func extDotNames(rel string) string {
	if rel == "" {
		return rel
	}
	parts := strings.Split(rel, "/")
	for i, c := range parts {
		if strings.HasPrefix(c, "dot-") {
			parts[i] = "." + strings.TrimPrefix(c, "dot-")
		}
	}
	return path.Join(parts...)
}

// extScaffold writes templates/<lang>/ into dir and returns the files written,
// relative to dir, in walk order.
func extScaffold(lang, dir string, data extTemplateData) ([]string, error) {
	base := path.Join("templates", lang)
	var written []string
	err := fs.WalkDir(templatesFS, base, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(p, base), "/")
		if e.IsDir() {
			return os.MkdirAll(filepath.Join(dir, filepath.FromSlash(extDotNames(rel))), 0o755)
		}
		body, err := templatesFS.ReadFile(p)
		if err != nil {
			return err
		}
		dst := rel
		if strings.HasSuffix(dst, ".tmpl") {
			dst = strings.TrimSuffix(dst, ".tmpl")
			t, err := template.New(rel).Option("missingkey=error").Parse(string(body))
			if err != nil {
				return fmt.Errorf("template %s: %w", rel, err)
			}
			var b bytes.Buffer
			if err := t.Execute(&b, data); err != nil {
				return fmt.Errorf("template %s: %w", rel, err)
			}
			body = b.Bytes()
		}
		dst = extDotNames(dst)
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(dst)), body, 0o644); err != nil {
			return fmt.Errorf("writing %s: %w", dst, errors.Unwrap(err))
		}
		written = append(written, dst)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(written) == 0 {
		return nil, fmt.Errorf("no template for %s in this lola binary", lang)
	}
	return written, nil
}
