package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"
	"testing/fstest"
)

// builtinNamesBeside lists the built-ins exe has: the directories of a
// builtin/ beside it (a development override) and the embedded ones.
func builtinNamesBeside(t *testing.T, exe string) []string {
	t.Helper()
	var names []string
	if ents, err := os.ReadDir(filepath.Join(filepath.Dir(exe), builtinDirName)); err == nil {
		for _, e := range ents {
			if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
				names = append(names, e.Name())
			}
		}
	}
	ents, err := fs.ReadDir(embeddedBuiltinsFS(), ".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if !slices.Contains(names, e.Name()) {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	return names
}

// builtinManifest is the manifest of exe's built-in name, from the
// builtin/ beside it when that has one, else from the embedded copy (this
// test binary embeds the same tree as the lola it tests).
func builtinManifest(t *testing.T, exe, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(filepath.Dir(exe), builtinDirName, name, "lola-extension.yaml"))
	if errors.Is(err, fs.ErrNotExist) {
		b, err = fs.ReadFile(embeddedBuiltinsFS(), name+"/lola-extension.yaml")
	}
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// An embedded built-in is registered unless a builtin/ directory beside
// the executable registered that name first (the development override);
// entries that are not extension directories are not registered.
func TestRegisterEmbeddedBuiltinsYieldsToADirectoryOfTheSameName(t *testing.T) {
	fsys := fstest.MapFS{
		"cursor/lola-extension.yaml":      {Data: []byte("x")},
		"gemini-cli/lola-extension.yaml":  {Data: []byte("y")},
		"Bad_Name/lola-extension.yaml":    {Data: []byte("z")},
		"stray.wasm":                      {Data: []byte("w")},
		"claude-code/lola-extension.yaml": {Data: []byte("v")},
	}
	got := map[string]string{}
	names, err := registerEmbeddedBuiltins(fsys, []string{"gemini-cli"}, func(name string, sub fs.FS) {
		b, err := fs.ReadFile(sub, "lola-extension.yaml")
		if err != nil {
			t.Fatal(err)
		}
		got[name] = string(b)
	})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(names, ",") != "claude-code,cursor" || got["cursor"] != "x" || got["claude-code"] != "v" || len(got) != 2 {
		t.Fatalf("registered %v: %v", names, got)
	}
}

// The embedded built-ins are exactly what `make build` built from the
// examples' sources: each is the example's manifest and its tier-1
// artifact, byte for byte, and nothing else. A target changed without
// make build (which regenerates cmd/lola/builtins/) fails here; `make
// test`'s embedded step then checks git holds that copy.
func TestEmbeddedBuiltinsAreTheBuiltOnes(t *testing.T) {
	fsys := embeddedBuiltinsFS()
	ents, err := fs.ReadDir(fsys, ".")
	if err != nil || len(ents) == 0 {
		t.Fatalf("no embedded built-ins: %v", err)
	}
	for _, ent := range ents {
		name := ent.Name()
		src := filepath.Join("..", "..", "examples", name)
		manifest, err := os.ReadFile(filepath.Join(src, "lola-extension.yaml"))
		if err != nil {
			t.Fatalf("%s: embedded, but examples/%s has no manifest: %v", name, name, err)
		}
		m := regexpTier1(manifest)
		if m == "" {
			t.Fatalf("examples/%s declares no tier-1 artifact", name)
		}
		want := map[string][]byte{"lola-extension.yaml": manifest}
		built, err := os.ReadFile(filepath.Join(src, filepath.FromSlash(m)))
		if err != nil {
			t.Fatalf("examples/%s/%s is not built (make build): %v", name, m, err)
		}
		want[m] = built
		got := map[string][]byte{}
		sub, _ := fs.Sub(fsys, name)
		if err := fs.WalkDir(sub, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := fs.ReadFile(sub, p)
			got[p] = b
			return err
		}); err != nil {
			t.Fatal(err)
		}
		for p, b := range want {
			if !bytes.Equal(got[p], b) {
				t.Errorf("cmd/lola/builtins/%s/%s is stale: it is not examples/%s/%s as built (run make build and commit cmd/lola/builtins)", name, p, name, p)
			}
		}
		for p := range got {
			if _, ok := want[p]; !ok {
				t.Errorf("cmd/lola/builtins/%s/%s is embedded but is neither the manifest nor its tier-1 artifact", name, p)
			}
		}
	}
}

// regexpTier1 is the manifest's artifacts.tier1 value, read as
// scripts/embed-builtins.sh reads it.
func regexpTier1(manifest []byte) string {
	for _, line := range strings.Split(string(manifest), "\n") {
		if v, ok := strings.CutPrefix(line, "  tier1:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// lola alone, copied into an empty directory with nothing beside it (no
// builtin/, no lola-shim: as `go install` leaves it), installs a module
// with every built-in it embeds, in a fresh home: the embedded bytes run,
// through lola re-executing itself as the shim.
func TestLolaAloneInstallsWithItsEmbeddedBuiltins(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("the copied binary is run as a POSIX executable")
	}
	built, _ := filepath.Abs(filepath.Join("..", "..", "bin", "lola"))
	if v := os.Getenv("LOLA_BUILT_BINARY"); v != "" {
		built = v
	}
	in, err := os.Open(built)
	if err != nil {
		t.Skip("no " + built + ": run make build first (make test does)")
	}
	defer in.Close()
	base := t.TempDir()
	exe := filepath.Join(base, "bin", "lola")
	if err := os.MkdirAll(filepath.Dir(exe), 0o755); err != nil {
		t.Fatal(err)
	}
	out, err := os.OpenFile(exe, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	installWithEveryEmbeddedBuiltin(t, exe, base)
}

// installWithEveryEmbeddedBuiltin runs exe in a fresh home under base:
// every built-in this test binary embeds is listed as builtin/tier1, and
// installs a one-skill module.
func installWithEveryEmbeddedBuiltin(t *testing.T, exe, base string) {
	t.Helper()
	home := filepath.Join(base, "home")
	env := []string{"HOME=" + home, "LOLA_HOME=" + filepath.Join(home, ".lola"), "PATH=/usr/bin:/bin"}
	lola := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(exe, args...)
		cmd.Env, cmd.Dir = env, base
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("lola %s: %v\n%s%s", strings.Join(args, " "), err, stdout.Bytes(), stderr.Bytes())
		}
		return stdout.String()
	}
	var rep struct {
		Extensions []struct{ Name, Tier, Source string } `json:"extensions"`
	}
	if err := json.Unmarshal([]byte(lola("ext", "ls", "--json")), &rep); err != nil {
		t.Fatal(err)
	}
	sources := map[string]string{}
	for _, e := range rep.Extensions {
		sources[e.Name] = e.Source + "/" + e.Tier
	}
	src := filepath.Join(base, "kit")
	modWriteFiles(t, src, map[string]string{
		"skills/tidy/SKILL.md": "---\nname: tidy\ndescription: Tidy the code.\n---\n# Tidy\n",
	})
	lola("mod", "add", src)
	names := builtinNamesBeside(t, "/nonexistent/lola")
	for _, name := range names {
		if sources[name] != "builtin/tier1" {
			t.Errorf("%s: listed as %q, want builtin/tier1 (all: %v)", name, sources[name], sources)
			continue
		}
		project := filepath.Join(base, "project-"+name)
		if err := os.MkdirAll(project, 0o755); err != nil {
			t.Fatal(err)
		}
		lola("install", "kit", "-a", name, project)
		// The skill lands in the project or, for an assistant that reads
		// only the user's home, there; the store ($LOLA_HOME) does not count.
		var found bool
		for _, root := range []string{project, home} {
			filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
				if err == nil && d.IsDir() && p == filepath.Join(home, ".lola") {
					return fs.SkipDir
				}
				if err == nil && !d.IsDir() && strings.Contains(p, "tidy") {
					found = true
				}
				return nil
			})
		}
		if !found {
			t.Errorf("%s: the install wrote no tidy skill", name)
		}
	}
}

// `go install` of cmd/lola, outside the workspace (cmd/go.mod as it is:
// -mod=readonly, so a go.mod a user's go install would have to fix fails
// here, and the test never edits the tree), from a clean GOPATH and
// module cache, with the module proxy replaced by the machine's module
// cache (no network; make setup put cmd's own versions there), gives a
// lola that works alone: its built-ins are embedded, the shim is lola
// re-executing itself.
func TestGoInstallGivesAWorkingLola(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("the installed binary is run as a POSIX executable")
	}
	goExe, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go on PATH")
	}
	modCache, err := exec.Command(goExe, "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	base := t.TempDir()
	gopath := filepath.Join(base, "gopath")
	cmd := exec.Command(goExe, "install", "-trimpath", "./lola")
	cmd.Dir = ".."
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOPATH="+gopath, "GOMODCACHE="+filepath.Join(gopath, "mod"),
		"GOBIN="+filepath.Join(base, "bin"), "GOFLAGS=-mod=readonly", "GOSUMDB=off", "CGO_ENABLED=0",
		"GOPROXY=file://"+filepath.Join(strings.TrimSpace(string(modCache)), "cache", "download"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go install ./lola: %v\n%s", err, out)
	}
	// The module cache's files are read-only; let TempDir remove them.
	t.Cleanup(func() {
		c := exec.Command(goExe, "clean", "-modcache")
		c.Env = append(os.Environ(), "GOPATH="+gopath, "GOMODCACHE="+filepath.Join(gopath, "mod"))
		c.Run()
	})
	installWithEveryEmbeddedBuiltin(t, filepath.Join(base, "bin", "lola"), base)
}

// In-process runs of lola in this package's tests register no embedded
// built-in: the test binary cannot serve as their shim (registerEmbedded).
func init() { registerEmbedded = false }
