package extension

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lola-pm/lola/host/module"
	"github.com/lola-pm/lola/host/remote/remotetest"
	"github.com/lola-pm/lola/schema"
)

// projectDir is an author's project as a toolchain leaves it: the
// manifest and its built artifacts (a signed tier 2), sources, a build
// tree too large for the intake's bounds, an npm tree with a symbolic
// link, a README.
func projectDir(t *testing.T) string {
	t.Helper()
	dir := mkext(t, filepath.Join(t.TempDir(), "demo"), manifest("demo", "target", bothTiers), map[string]string{
		"dist/x.wasm": "wasm-bytes", "dist/x": "native-bytes", "dist/x" + BundleSuffix: bundleFor("native-bytes"),
		"src/lib.rs": "fn main() {}", "README.md": "# demo",
		"target/release/deps/big.rlib": strings.Repeat("r", 4<<10),
	})
	if err := os.MkdirAll(filepath.Join(dir, "node_modules", ".bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../assemblyscript/bin/asc.js", filepath.Join(dir, "node_modules", ".bin", "asc")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// smallBounds make a 4 KiB build artifact exceed the per-file bound.
func smallBounds(t *testing.T) module.Bounds {
	t.Helper()
	b, err := module.NewBounds(50, 1<<10, 8<<10, 256)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func installedFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return err
	})
	slices.Sort(out)
	return out
}

var wantPicked = []string{"dist/x", "dist/x" + BundleSuffix, "dist/x.wasm", ManifestFile}

// TestAddProjectFolderTakesOnlyWhatTheManifestNames: a Rust or
// AssemblyScript project's folder adds: its target/ (over the per-file
// bound) and node_modules/.bin/asc (a symbolic link) are never read, and
// the installed directory holds exactly the manifest, its artifacts and
// their bundles.
func TestAddProjectFolderTakesOnlyWhatTheManifestNames(t *testing.T) {
	home := t.TempDir()
	got, err := Add(home, projectDir(t), AddOptions{Trust: trusted, Bounds: smallBounds(t)})
	if err != nil {
		t.Fatal(err)
	}
	if got.Entry.Artifacts[Tier2].Verdict != VerdictVerified {
		t.Fatalf("entry %+v", got.Entry.Artifacts[Tier2])
	}
	if files := installedFiles(t, filepath.Join(home, ExtensionsDir, "demo")); !slices.Equal(files, wantPicked) {
		t.Fatalf("installed %v; want %v", files, wantPicked)
	}
}

// TestAddProjectFolderRefusesANamedLink: what the manifest names is read
// under the intake's rules: an artifact that is a symbolic link, or lies
// under a linked directory, refuses the folder; nothing is installed.
func TestAddProjectFolderRefusesANamedLink(t *testing.T) {
	t.Run("artifact", func(t *testing.T) {
		dir := projectDir(t)
		os.Remove(filepath.Join(dir, "dist", "x.wasm"))
		if err := os.Symlink("/etc/passwd", filepath.Join(dir, "dist", "x.wasm")); err != nil {
			t.Fatal(err)
		}
		home := t.TempDir()
		_, err := Add(home, dir, AddOptions{Trust: trusted})
		assertRule(t, err, schema.RulePathSymlink)
		assertNothingInstalled(t, home)
	})
	t.Run("directory on the way", func(t *testing.T) {
		dir := projectDir(t)
		elsewhere := filepath.Join(t.TempDir(), "dist")
		if err := os.Rename(filepath.Join(dir, "dist"), elsewhere); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(elsewhere, filepath.Join(dir, "dist")); err != nil {
			t.Fatal(err)
		}
		home := t.TempDir()
		_, err := Add(home, dir, AddOptions{Trust: trusted})
		assertRule(t, err, schema.RulePathSymlink)
		assertNothingInstalled(t, home)
	})
	t.Run("manifest", func(t *testing.T) {
		dir := projectDir(t)
		real := filepath.Join(t.TempDir(), ManifestFile)
		os.Rename(filepath.Join(dir, ManifestFile), real)
		if err := os.Symlink(real, filepath.Join(dir, ManifestFile)); err != nil {
			t.Fatal(err)
		}
		home := t.TempDir()
		_, err := Add(home, dir, AddOptions{Trust: trusted})
		assertRule(t, err, schema.RulePathSymlink)
		assertNothingInstalled(t, home)
	})
}

func packBytes(t *testing.T, dir string) ([]byte, *Packed) {
	t.Helper()
	var buf bytes.Buffer
	p, err := Pack(dir, &buf, module.Bounds{})
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), p
}

// TestPackIsDeterministicAndHoldsOnlyWhatTheManifestNames: the archive
// holds the manifest, the artifacts and their bundles, as regular files in
// path order, owned by 0, at the epoch, 0755 for the tier-2 artifact and
// 0644 for the rest; times, modes and the directory's location do not
// change a byte; what ext add installs from it equals what it installs
// from the folder.
func TestPackIsDeterministicAndHoldsOnlyWhatTheManifestNames(t *testing.T) {
	dir := projectDir(t)
	first, rep := packBytes(t, dir)
	if rep.Name != "demo" || rep.Version != "1.2.3" || len(rep.Missing) != 0 || len(rep.Unsigned) != 0 {
		t.Fatalf("report %+v", rep)
	}

	tr := tarOf(t, first)
	var names []string
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, h.Name)
		wantMode := int64(0o644)
		if h.Name == "dist/x" {
			wantMode = 0o755
		}
		if h.Typeflag != tar.TypeReg || h.Mode != wantMode || h.Uid != 0 || h.Gid != 0 || h.Uname != "" || h.Gname != "" ||
			!h.ModTime.Equal(time.Unix(0, 0)) || len(h.PAXRecords) != 0 {
			t.Errorf("entry %s: %+v", h.Name, h)
		}
	}
	if !slices.Equal(names, wantPicked) {
		t.Fatalf("entries %v; want %v", names, wantPicked)
	}

	// Other times, modes and a copy elsewhere: the same bytes.
	later := time.Now().Add(time.Hour)
	for _, f := range wantPicked {
		p := filepath.Join(dir, filepath.FromSlash(f))
		os.Chtimes(p, later, later)
		os.Chmod(p, 0o600)
	}
	os.Chmod(filepath.Join(dir, "dist", "x.wasm"), 0o777)
	moved := filepath.Join(t.TempDir(), "elsewhere")
	if err := os.Rename(dir, moved); err != nil {
		t.Fatal(err)
	}
	if again, _ := packBytes(t, moved); !bytes.Equal(again, first) {
		t.Fatal("a second pack of the same files differs")
	}

	arc := filepath.Join(t.TempDir(), "demo-1.2.3.tar.gz")
	if err := os.WriteFile(arc, first, 0o644); err != nil {
		t.Fatal(err)
	}
	fromArchive, fromFolder := t.TempDir(), t.TempDir()
	if _, err := Add(fromArchive, arc, AddOptions{Trust: trusted}); err != nil {
		t.Fatal(err)
	}
	if _, err := Add(fromFolder, moved, AddOptions{Trust: trusted}); err != nil {
		t.Fatal(err)
	}
	for _, f := range wantPicked {
		a, _ := os.ReadFile(filepath.Join(fromArchive, ExtensionsDir, "demo", filepath.FromSlash(f)))
		b, _ := os.ReadFile(filepath.Join(fromFolder, ExtensionsDir, "demo", filepath.FromSlash(f)))
		if !bytes.Equal(a, b) || len(a) == 0 {
			t.Errorf("%s: from the archive %q, from the folder %q", f, a, b)
		}
	}
	if st, err := os.Stat(filepath.Join(fromArchive, ExtensionsDir, "demo", "dist", "x")); err != nil || st.Mode()&0o100 == 0 {
		t.Fatalf("the packed tier-2 artifact is not executable once added: %v", err)
	}
}

// TestPackReportsWhatAddWillNeed: a declared artifact that is not built is
// named Missing; a tier-2 artifact without its bundle is named Unsigned;
// a directory that is no extension, or whose manifest is not strict, is
// refused and nothing is written.
func TestPackReportsWhatAddWillNeed(t *testing.T) {
	dir := mkext(t, filepath.Join(t.TempDir(), "demo"), manifest("demo", "target", bothTiers), map[string]string{"dist/x": "native"})
	_, rep := packBytes(t, dir)
	if !slices.Equal(rep.Missing, []Tier{Tier1}) || !slices.Equal(rep.Unsigned, []Tier{Tier2}) {
		t.Fatalf("report %+v", rep)
	}
	for name, m := range map[string]string{
		"typo":          manifest("demo", "target", bothTiers) + "capabilites: []\n",
		"nothing built": manifest("demo", "target", "  tier1: dist/none.wasm\n"),
	} {
		dir := mkext(t, filepath.Join(t.TempDir(), "demo"), m, map[string]string{"dist/x": "native"})
		var buf bytes.Buffer
		if _, err := Pack(dir, &buf, module.Bounds{}); err == nil || buf.Len() != 0 {
			t.Fatalf("%s: packed (%d bytes, %v)", name, buf.Len(), err)
		}
	}
}

// hostileEntry is one raw tar entry.
type hostileEntry struct {
	name, body, link string
	kind             byte
}

func rawTarGz(t *testing.T, entries []hostileEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, e := range entries {
		kind := e.kind
		if kind == 0 {
			kind = tar.TypeReg
		}
		h := &tar.Header{Name: e.name, Typeflag: kind, Mode: 0o644, Linkname: e.link, Format: tar.FormatPAX}
		if kind == tar.TypeReg {
			h.Size = int64(len(e.body))
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatalf("%s: %v", e.name, err)
		}
		tw.Write([]byte(e.body))
	}
	tw.Close()
	zw.Close()
	return buf.Bytes()
}

func tarOf(t *testing.T, b []byte) *tar.Reader {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return tar.NewReader(zr)
}

// TestAddRefusesHostileExtensionArchives: an archive is a release and
// hostile input: every entry passes host/module's intake rules and bounds
// and then must be one the manifest names. Each attack is refused with its
// rule and nothing is installed or pinned.
func TestAddRefusesHostileExtensionArchives(t *testing.T) {
	m := manifest("demo", "target", "  tier1: dist/x.wasm\n")
	good := []hostileEntry{{name: ManifestFile, body: m}, {name: "dist/x.wasm", body: "wasm"}}
	with := func(extra ...hostileEntry) []hostileEntry { return append(slices.Clone(good), extra...) }
	many := slices.Clone(good)
	for i := range 60 {
		many = append(many, hostileEntry{name: "dist/pad" + strings.Repeat("x", i%5) + string(rune('a'+i%26)) + strings.Repeat("y", i/26)})
	}
	bomb := with(hostileEntry{name: "dist/x.wasm.sigstore.json", body: strings.Repeat("\x00", 2<<20)})
	cases := []struct {
		name    string
		entries []hostileEntry
		rule    string
	}{
		{"an entry outside the manifest", with(hostileEntry{name: "README.md", body: "hi"}), module.UnlistedRule},
		{"a source tree beside the artifacts", with(hostileEntry{name: "src/main.go", body: "package main"}), module.UnlistedRule},
		{"an empty directory", with(hostileEntry{name: "docs/", kind: tar.TypeDir}), module.UnlistedRule},
		{"a directory where the artifact is", []hostileEntry{{name: ManifestFile, body: m}, {name: "dist/x.wasm/inner", body: "w"}}, module.UnlistedRule},
		{"traversal", with(hostileEntry{name: "../outside", body: "x"}), schema.RulePathTraversal.String()},
		{"traversal inside", with(hostileEntry{name: "dist/../../x", body: "x"}), schema.RulePathTraversal.String()},
		{"absolute", with(hostileEntry{name: "/etc/cron.d/x", body: "x"}), schema.RulePathAbsolute.String()},
		{"symlink artifact", []hostileEntry{{name: ManifestFile, body: m}, {name: "dist/x.wasm", kind: tar.TypeSymlink, link: "/etc/passwd"}}, schema.RulePathSymlink.String()},
		{"hard link", with(hostileEntry{name: "dist/x.wasm.sigstore.json", kind: tar.TypeLink, link: "dist/x.wasm"}), schema.RulePathSymlink.String()},
		{"character device", with(hostileEntry{name: "dist/x.wasm.sigstore.json", kind: tar.TypeChar}), schema.RulePathInvalid.String()},
		{"FIFO", with(hostileEntry{name: "dist/x.wasm.sigstore.json", kind: tar.TypeFifo}), schema.RulePathInvalid.String()},
		{"duplicate entry", with(hostileEntry{name: "dist/x.wasm", body: "other"}), schema.RuleConflictSamePath.String()},
		{"case-folded duplicate", with(hostileEntry{name: "dist/X.wasm", body: "other"}), schema.RuleConflictSamePath.String()},
		{"too many entries", many, module.LimitFiles.String()},
		{"a bomb", bomb, module.LimitFileBytes.String()},
		{"artifact path escapes", []hostileEntry{{name: ManifestFile, body: manifest("demo", "target", "  tier1: ../x.wasm\n")}}, schema.RulePathTraversal.String()},
		{"artifact path absolute", []hostileEntry{{name: ManifestFile, body: manifest("demo", "target", "  tier1: /tmp/x.wasm\n")}}, schema.RulePathAbsolute.String()},
	}
	b, err := module.NewBounds(40, 1<<20, 4<<20, 256)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			home := t.TempDir()
			arc := filepath.Join(t.TempDir(), "demo.tar.gz")
			if err := os.WriteFile(arc, rawTarGz(t, c.entries), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Add(home, arc, AddOptions{Bounds: b})
			if err == nil || !strings.Contains(err.Error(), c.rule) {
				t.Fatalf("want %s, got %v", c.rule, err)
			}
			if c.rule == module.UnlistedRule && !errors.Is(err, module.ErrUnlisted) {
				t.Fatalf("not an ErrUnlisted: %v", err)
			}
			assertNothingInstalled(t, home)
		})
	}
	t.Run("the clean archive adds", func(t *testing.T) {
		arc := filepath.Join(t.TempDir(), "demo.tar.gz")
		os.WriteFile(arc, rawTarGz(t, good), 0o644)
		if _, err := Add(t.TempDir(), arc, AddOptions{Bounds: b}); err != nil {
			t.Fatal(err)
		}
	})
}

// TestAddPackedArchiveOverHTTPS: a packed archive served over https is
// fetched by host/remote under the policy and installed; the same archive
// with one entry the manifest does not name is refused, nothing installed.
func TestAddPackedArchiveOverHTTPS(t *testing.T) {
	packed, _ := packBytes(t, projectDir(t))
	site := newTLSSite(t)
	site.serveBytes(packed)
	c := remoteClient(t, []string{site.admit()}, site)
	home := t.TempDir()
	if _, err := Add(home, site.url("/demo-1.0.0.tar.gz"), AddOptions{Fetcher: c, Trust: trusted}); err != nil {
		t.Fatal(err)
	}
	if files := installedFiles(t, filepath.Join(home, ExtensionsDir, "demo")); !slices.Equal(files, wantPicked) {
		t.Fatalf("installed %v", files)
	}

	var extra bytes.Buffer
	zw := gzip.NewWriter(&extra)
	tw := tar.NewWriter(zw)
	tr := tarOf(t, packed)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		body, _ := io.ReadAll(tr)
		tw.WriteHeader(h)
		tw.Write(body)
	}
	tw.WriteHeader(&tar.Header{Name: "install.sh", Typeflag: tar.TypeReg, Mode: 0o755, Size: 2})
	tw.Write([]byte("x\n"))
	tw.Close()
	zw.Close()
	site.serveBytes(extra.Bytes())
	home = t.TempDir()
	_, err := Add(home, site.url("/demo-1.0.0.tar.gz"), AddOptions{Fetcher: c, Trust: trusted})
	if !errors.Is(err, module.ErrUnlisted) || !strings.Contains(err.Error(), `"install.sh"`) {
		t.Fatalf("an archive with an unlisted entry: %v", err)
	}
	assertNothingInstalled(t, home)
}

// FuzzAddArchive: whatever bytes an archive holds, Add never panics, and
// either installs exactly the files its manifest names (nothing else) or
// refuses with nothing installed.
func FuzzAddArchive(f *testing.F) {
	dir := f.TempDir()
	proj := mkextF(f, filepath.Join(dir, "demo"), manifest("demo", "target", bothTiers), map[string]string{"dist/x.wasm": "w", "dist/x": "n"})
	var buf bytes.Buffer
	if _, err := Pack(proj, &buf, module.Bounds{}); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Add([]byte{0x1f, 0x8b})
	b, _ := module.NewBounds(20, 4<<10, 16<<10, 128)
	f.Fuzz(func(t *testing.T, body []byte) {
		home := t.TempDir()
		arc := filepath.Join(t.TempDir(), "x.tar.gz")
		if err := os.WriteFile(arc, body, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := Add(home, arc, AddOptions{Bounds: b, AllowUnsigned: true})
		if err != nil {
			assertNothingInstalled(t, home)
			return
		}
		inst := filepath.Join(home, ExtensionsDir, got.Name)
		mb, _ := os.ReadFile(filepath.Join(inst, ManifestFile))
		named, perr := manifestPick(mb)
		if perr != nil {
			t.Fatalf("installed a manifest that does not parse: %v", perr)
		}
		for _, p := range installedFiles(t, inst) {
			if p != ManifestFile && !slices.Contains(named, p) {
				t.Fatalf("installed %s, which the manifest does not name", p)
			}
		}
	})
}

// mkextF is mkext for a fuzz target's setup.
func mkextF(f *testing.F, dir, m string, files map[string]string) string {
	f.Helper()
	files[ManifestFile] = m
	for rel, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			f.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			f.Fatal(err)
		}
	}
	return dir
}

// TestAddGitSourceTakesOnlyWhatTheManifestNames: a repository holding the
// project (sources, a README) beside its built artifacts installs the
// manifest and the artifacts only.
func TestAddGitSourceTakesOnlyWhatTheManifestNames(t *testing.T) {
	repo := remotetest.NewGitRepo(t)
	files := demoFiles("", "1.0.0", "wasm-1")
	files["README.md"], files["src/lib.rs"] = "# demo", "fn main() {}"
	repo.Commit(files)
	site := newTLSSite(t)
	site.handle(repo.Handler())
	c := remoteClient(t, []string{site.admit()}, site)
	home := t.TempDir()
	if _, err := Add(home, site.url("/repo.git"), AddOptions{Cloner: c}); err != nil {
		t.Fatal(err)
	}
	if files := installedFiles(t, filepath.Join(home, ExtensionsDir, "demo")); !slices.Equal(files, []string{"dist/x.wasm", ManifestFile}) {
		t.Fatalf("installed %v", files)
	}
}

// TestPackFileWritesWholeNeverThroughALink: PackFile replaces a symbolic
// link at its output (the link's target is untouched), refuses a
// directory and a name ext add would not recognise, and writes the same
// bytes as Pack.
func TestPackFileWritesWholeNeverThroughALink(t *testing.T) {
	dir := projectDir(t)
	want, _ := packBytes(t, dir)
	out := t.TempDir()
	victim := filepath.Join(out, "victim")
	os.WriteFile(victim, []byte("keep"), 0o644)
	link := filepath.Join(out, "demo.tar.gz")
	if err := os.Symlink(victim, link); err != nil {
		t.Fatal(err)
	}
	if _, wrote, err := PackFile(dir, link, module.Bounds{}); err != nil || wrote != link {
		t.Fatalf("PackFile: %q %v", wrote, err)
	}
	if got, _ := os.ReadFile(link); !bytes.Equal(got, want) {
		t.Fatal("PackFile wrote other bytes than Pack")
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink != 0 {
		t.Fatal("the link is still there")
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep" {
		t.Fatalf("written through the link: %q", b)
	}
	for _, bad := range []string{t.TempDir() + ".tar.gz", filepath.Join(out, "demo.zip")} {
		os.MkdirAll(strings.TrimSuffix(bad, ".zip"), 0o755)
		if _, _, err := PackFile(dir, bad, module.Bounds{}); err == nil {
			t.Fatalf("PackFile to %s", bad)
		}
	}
}
