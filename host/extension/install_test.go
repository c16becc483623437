package extension

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"crypto/sha256"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// fakeVerifier trusts a bundle whose text is "signed:<hex digest>" and
// names the signer "test-key"; anything else is unverifiable. The real
// Sigstore verifier is host/signature's, tested there.
type fakeVerifier struct{}

func (fakeVerifier) Verify(d [32]byte, b []byte) (string, error) {
	if string(b) == "signed:"+hexOf(d) {
		return "test-key", nil
	}
	return "", errors.New("bundle does not verify")
}

func hexOf(d [32]byte) string { return strings.ToLower(strings.TrimSpace(hexString(d[:]))) }

func hexString(b []byte) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 0, 2*len(b))
	for _, c := range b {
		out = append(out, digits[c>>4], digits[c&15])
	}
	return string(out)
}

func bundleFor(content string) string { return "signed:" + hexOf(sha256.Sum256([]byte(content))) }

var trusted = TrustPolicy{Verifier: fakeVerifier{}}

// srcExt writes a built extension directory: tier 1 and a signed tier 2.
func srcExt(t *testing.T, caps, paths string) string {
	t.Helper()
	m := "name: demo\nversion: 1.0.0\nkind: target\nartifacts:\n" + bothTiers + "capabilities: " + caps + "\npaths: " + paths + "\n"
	return mkext(t, filepath.Join(t.TempDir(), "demo"), m, map[string]string{
		"dist/x.wasm": "wasm-bytes", "dist/x": "native-bytes", "dist/x" + BundleSuffix: bundleFor("native-bytes"),
	})
}

func assertRule(t *testing.T, err error, r schema.Rule) {
	t.Helper()
	for _, v := range rejection.All(err) {
		if v.Rule == r {
			return
		}
	}
	t.Fatalf("want rule %s, got %v", r, err)
}

// homeEntries lists $LOLA_HOME/extensions, to show nothing was placed.
func homeEntries(t *testing.T, home string) []string {
	t.Helper()
	es, _ := os.ReadDir(filepath.Join(home, ExtensionsDir))
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

func TestAddFolderPinsManifestAndArtifacts(t *testing.T) {
	home := t.TempDir()
	src := srcExt(t, "[]", "[out/]")
	got, err := Add(home, src, AddOptions{Trust: trusted})
	if err != nil {
		t.Fatal(err)
	}
	lock, err := ReadLock(home)
	if err != nil {
		t.Fatal(err)
	}
	ent := lock.Extensions["demo"]
	if ent == nil || ent.Source != src || got.Name != "demo" {
		t.Fatalf("lock %+v", lock)
	}
	if a := ent.Artifacts[Tier2]; a == nil || a.Verdict != VerdictVerified || a.Signer != "test-key" || a.SHA256 != hexOf(sha256.Sum256([]byte("native-bytes"))) {
		t.Fatalf("tier2 pin %+v", ent.Artifacts[Tier2])
	}
	if a := ent.Artifacts[Tier1]; a == nil || a.Verdict != VerdictUnsigned {
		t.Fatalf("tier1 pin %+v", a)
	}
	cat, err := Discover(home)
	if err != nil {
		t.Fatal(err)
	}
	e, err := cat.Lookup("demo")
	if err != nil {
		t.Fatal(err)
	}
	p, err := e.PinFor(Tier2, trusted)
	if err != nil || !p.Pinned || p.Sum != sha256.Sum256([]byte("native-bytes")) || p.Describe() != "signed by test-key" {
		t.Fatalf("pin %+v %v", p, err)
	}
	if _, err := Add(home, src, AddOptions{Trust: trusted}); !errors.Is(err, ErrExists) {
		t.Fatalf("second add: %v", err)
	}
}

func TestAddArchives(t *testing.T) {
	files := map[string]string{
		"demo/" + ManifestFile: "name: demo\nversion: 1.0.0\nkind: target\nartifacts:\n  tier1: dist/x.wasm\n",
		"demo/dist/x.wasm":     "wasm",
	}
	for _, kind := range []string{"tar.gz", "zip"} {
		t.Run(kind, func(t *testing.T) {
			home := t.TempDir()
			arc := filepath.Join(t.TempDir(), "demo."+kind)
			writeArchive(t, arc, files, nil)
			if _, err := Add(home, arc, AddOptions{}); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(filepath.Join(home, ExtensionsDir, "demo", "dist", "x.wasm")); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// writeArchive writes a tar.gz or zip of files; links adds symlinks (tar).
func writeArchive(t *testing.T, path string, files, links map[string]string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if strings.HasSuffix(path, ".zip") {
		zw := zip.NewWriter(f)
		for n, c := range files {
			w, _ := zw.Create(n)
			w.Write([]byte(c))
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		return
	}
	gz := gzip.NewWriter(f)
	tw := tar.NewWriter(gz)
	for n, c := range files {
		tw.WriteHeader(&tar.Header{Name: n, Mode: 0o755, Size: int64(len(c)), Typeflag: tar.TypeReg})
		tw.Write([]byte(c))
	}
	for n, target := range links {
		tw.WriteHeader(&tar.Header{Name: n, Linkname: target, Typeflag: tar.TypeSymlink})
	}
	tw.Close()
	gz.Close()
}

func TestAddRefusesHostileArchivesAndLeavesHomeUntouched(t *testing.T) {
	m := "name: demo\nversion: 1.0.0\nkind: target\nartifacts:\n  tier1: dist/x.wasm\n"
	cases := map[string]struct {
		files, links map[string]string
		rule         schema.Rule
	}{
		"traversal": {files: map[string]string{ManifestFile: m, "dist/x.wasm": "w", "../evil": "x"}, rule: schema.RulePathTraversal},
		"symlink":   {files: map[string]string{ManifestFile: m}, links: map[string]string{"dist/x.wasm": "/etc/passwd"}, rule: schema.RulePathSymlink},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			home := t.TempDir()
			arc := filepath.Join(t.TempDir(), "demo.tar.gz")
			writeArchive(t, arc, c.files, c.links)
			_, err := Add(home, arc, AddOptions{})
			assertRule(t, err, c.rule)
			if es := homeEntries(t, home); len(es) != 0 {
				t.Fatalf("left behind: %v", es)
			}
			if _, err := os.Stat(filepath.Join(home, LockFile)); err == nil {
				t.Fatal("lock written")
			}
		})
	}
}

func TestAddRefusesUnsignedOrMissignedNative(t *testing.T) {
	for name, bundle := range map[string]string{
		"unsigned":         "",
		"bundle-for-other": bundleFor("other-bytes"),
		"truncated-bundle": bundleFor("native-bytes")[:20],
		"no-trust-policy":  bundleFor("native-bytes"),
	} {
		t.Run(name, func(t *testing.T) {
			home := t.TempDir()
			src := srcExt(t, "[]", "[out/]")
			bp := filepath.Join(src, "dist", "x"+BundleSuffix)
			if bundle == "" {
				os.Remove(bp)
			} else {
				os.WriteFile(bp, []byte(bundle), 0o644)
			}
			tp := trusted
			if name == "no-trust-policy" {
				tp = TrustPolicy{}
			}
			if _, err := Add(home, src, AddOptions{Trust: tp}); !errors.Is(err, ErrUnsigned) {
				t.Fatalf("got %v", err)
			}
			if es := homeEntries(t, home); len(es) != 0 {
				t.Fatalf("left behind: %v", es)
			}
			// The opt-in pins exactly these bytes.
			if _, err := Add(home, src, AddOptions{Trust: tp, AllowUnsigned: true}); err != nil {
				t.Fatal(err)
			}
			lock, _ := ReadLock(home)
			if a := lock.Extensions["demo"].Artifacts[Tier2]; a.Verdict != VerdictOptedIn {
				t.Fatalf("verdict %s", a.Verdict)
			}
		})
	}
}

func TestRunOfChangedManifestOrUnpinnedTierIsExtensionChanged(t *testing.T) {
	home := t.TempDir()
	if _, err := Add(home, srcExt(t, "[]", "[out/]"), AddOptions{Trust: trusted}); err != nil {
		t.Fatal(err)
	}
	mf := filepath.Join(home, ExtensionsDir, "demo", ManifestFile)
	b, _ := os.ReadFile(mf)
	os.WriteFile(mf, []byte(strings.Replace(string(b), "capabilities: []", "capabilities: [net.http]", 1)), 0o644)
	cat, _ := Discover(home)
	e, err := cat.Lookup("demo")
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.PinFor(Tier1, trusted)
	assertRule(t, err, schema.RuleExtensionChanged)
}

func TestHandCopiedNativeIsRefused(t *testing.T) {
	home := t.TempDir()
	mkext(t, filepath.Join(home, ExtensionsDir, "demo"), manifest("demo", "target", "  tier2: dist/x\n"), map[string]string{"dist/x": "n"})
	cat, _ := Discover(home)
	e, err := cat.Lookup("demo")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.PinFor(Tier2, trusted); !errors.Is(err, ErrNotPinnedNative) {
		t.Fatalf("got %v", err)
	}
}

func TestUpdateWideningNeedsAcceptAndOldStaysIntact(t *testing.T) {
	home := t.TempDir()
	src := srcExt(t, "[]", "[out/]")
	if _, err := Add(home, src, AddOptions{Trust: trusted}); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(filepath.Join(home, LockFile))
	oldManifest, _ := os.ReadFile(filepath.Join(home, ExtensionsDir, "demo", ManifestFile))
	m := "name: demo\nversion: 2.0.0\nkind: target\nartifacts:\n" + bothTiers + "capabilities: [net.http]\npaths: [out/, .ssh/]\n"
	os.WriteFile(filepath.Join(src, ManifestFile), []byte(m), 0o644)

	asked := Widening{}
	_, err := Update(home, "demo", AddOptions{Trust: trusted, Accept: func(w Widening) bool { asked = w; return false }})
	if !errors.Is(err, ErrNotAccepted) || !strings.Contains(err.Error(), "net.http") || !strings.Contains(err.Error(), "path grant .ssh") {
		t.Fatalf("got %v", err)
	}
	if len(asked.Capabilities) != 1 || len(asked.Paths) != 1 {
		t.Fatalf("asked %+v", asked)
	}
	after, _ := os.ReadFile(filepath.Join(home, LockFile))
	nowManifest, _ := os.ReadFile(filepath.Join(home, ExtensionsDir, "demo", ManifestFile))
	if string(before) != string(after) || string(oldManifest) != string(nowManifest) {
		t.Fatal("a refused update changed the installed version")
	}
	if es := homeEntries(t, home); len(es) != 1 {
		t.Fatalf("left behind: %v", es)
	}
	got, err := Update(home, "demo", AddOptions{Trust: trusted, Accept: func(Widening) bool { return true }})
	if err != nil || got.Entry.Version != "2.0.0" {
		t.Fatalf("accepted update: %+v %v", got, err)
	}
}

func TestUpdateToNativeIsAWidening(t *testing.T) {
	home := t.TempDir()
	src := srcExt(t, "[]", "[out/]")
	if _, err := Add(home, src, AddOptions{Trust: trusted}); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(src, "dist", "x.wasm"))
	_, err := Update(home, "demo", AddOptions{Trust: trusted})
	if !errors.Is(err, ErrNotAccepted) || !strings.Contains(err.Error(), "native") {
		t.Fatalf("got %v", err)
	}
}

func TestLinkRefusesSymlinksAndReReadsEachRun(t *testing.T) {
	home := t.TempDir()
	dir := mkext(t, filepath.Join(t.TempDir(), "demo"), manifest("demo", "target", "  tier1: dist/x.wasm\n"), map[string]string{"dist/x.wasm": "w1"})
	if err := os.Symlink("/etc", filepath.Join(dir, "sneaky")); err != nil {
		t.Fatal(err)
	}
	_, err := Link(home, dir, AddOptions{})
	if err == nil || !strings.Contains(err.Error(), "sneaky") {
		t.Fatalf("got %v", err)
	}
	if _, err := os.Stat(filepath.Join(home, LockFile)); err == nil {
		t.Fatal("lock written")
	}
	os.Remove(filepath.Join(dir, "sneaky"))
	if _, err := Link(home, dir, AddOptions{}); err != nil {
		t.Fatal(err)
	}
	cat, _ := Discover(home)
	e, err := cat.Lookup("demo")
	if err != nil || e.Source() != SourceDev {
		t.Fatalf("%v %v", e, err)
	}
	// A symlinked artifact after the link is refused at load.
	os.Remove(filepath.Join(dir, "dist", "x.wasm"))
	os.Symlink(filepath.Join(dir, ManifestFile), filepath.Join(dir, "dist", "x.wasm"))
	cat, _ = Discover(home)
	if _, err := cat.Lookup("demo"); err == nil {
		t.Fatal("a symlinked artifact loaded")
	}
}

func TestLinkedNativeNeedsSignatureOrOptInForTheseBytes(t *testing.T) {
	home := t.TempDir()
	dir := mkext(t, filepath.Join(t.TempDir(), "demo"), manifest("demo", "target", "  tier2: dist/x\n"), map[string]string{"dist/x": "v1"})
	if _, err := Link(home, dir, AddOptions{Trust: trusted}); !errors.Is(err, ErrUnsigned) {
		t.Fatalf("got %v", err)
	}
	if _, err := Link(home, dir, AddOptions{Trust: trusted, AllowUnsigned: true}); err != nil {
		t.Fatal(err)
	}
	lookup := func() *Extension {
		cat, _ := Discover(home)
		e, err := cat.Lookup("demo")
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	if p, err := lookup().PinFor(Tier2, trusted); err != nil || p.Verdict != VerdictOptedIn || !p.Dev {
		t.Fatalf("%+v %v", p, err)
	}
	os.WriteFile(filepath.Join(dir, "dist", "x"), []byte("v2"), 0o755) // a rebuild
	if _, err := lookup().PinFor(Tier2, trusted); !errors.Is(err, ErrUnsigned) {
		t.Fatalf("the opt-in carried over: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "dist", "x"+BundleSuffix), []byte(bundleFor("v2")), 0o644)
	if p, err := lookup().PinFor(Tier2, trusted); err != nil || p.Verdict != VerdictVerified {
		t.Fatalf("%+v %v", p, err)
	}
}

func TestRemove(t *testing.T) {
	home := t.TempDir()
	if _, err := Add(home, srcExt(t, "[]", "[out/]"), AddOptions{Trust: trusted}); err != nil {
		t.Fatal(err)
	}
	if err := Remove(home, "demo"); err != nil {
		t.Fatal(err)
	}
	lock, _ := ReadLock(home)
	if len(lock.Extensions) != 0 || len(homeEntries(t, home)) != 0 {
		t.Fatal("not removed")
	}
	if err := Remove(home, "demo"); !errors.Is(err, ErrNotPinned) {
		t.Fatalf("got %v", err)
	}
}

func TestReadLockIsStrict(t *testing.T) {
	sum := hexOf(sha256.Sum256(nil))
	for name, body := range map[string]string{
		"unknown field": `{"version":1,"extensions":{},"extra":1}`,
		"bad version":   `{"version":2,"extensions":{}}`,
		"bad name":      `{"version":1,"extensions":{"../x":{"source":"s","version":"1","manifest_sha256":"` + sum + `","artifacts":{},"added":"2026-01-01T00:00:00Z"}}}`,
		"bad digest":    `{"version":1,"extensions":{"x":{"source":"s","version":"1","manifest_sha256":"abc","artifacts":{},"added":"2026-01-01T00:00:00Z"}}}`,
		"bad verdict":   `{"version":1,"extensions":{"x":{"source":"s","version":"1","manifest_sha256":"` + sum + `","artifacts":{"tier2":{"path":"x","sha256":"` + sum + `","verdict":"trusted"}},"added":"2026-01-01T00:00:00Z"}}}`,
		"trailing":      `{"version":1,"extensions":{}} {}`,
	} {
		if _, err := parseLock([]byte(body)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
