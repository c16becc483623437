package extension

import (
	"encoding/base64"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

const managedBase = "name: x\nversion: 1\nkind: target\nartifacts:\n  tier1: a.wasm\n"

func TestManagedIsParsedInOrderAndCoveredByPaths(t *testing.T) {
	m, err := parseDoc(t, managedBase+"paths: [.claude/, CLAUDE.md, docs/]\nmanaged: [CLAUDE.md, docs/AGENTS.md, .claude/CLAUDE.md]\n")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range m.Managed() {
		got = append(got, p.String())
	}
	if strings.Join(got, ",") != "CLAUDE.md,docs/AGENTS.md,.claude/CLAUDE.md" {
		t.Fatalf("managed %q", got)
	}
	for _, doc := range []string{managedBase, managedBase + "managed: []\n"} {
		m, err := parseDoc(t, doc)
		if err != nil || len(m.Managed()) != 0 {
			t.Fatalf("absent or empty managed: %v %v", m.Managed(), err)
		}
	}
}

func TestManagedRefusesWhatTheGrantDoesNotCoverAndHostilePaths(t *testing.T) {
	cases := []struct {
		name, doc, want string
		rule            schema.Rule
	}{
		{"no paths at all", managedBase + "managed: [CLAUDE.md]\n", `managed: "CLAUDE.md" is not covered`, 0},
		{"outside the grant", managedBase + "paths: [.claude/]\nmanaged: [CLAUDE.md]\n", "not covered", 0},
		{"case differs from the grant", managedBase + "paths: [CLAUDE.md]\nmanaged: [claude.md]\n", "not covered", 0},
		{"grant is beneath it", managedBase + "paths: [docs/AGENTS.md]\nmanaged: [docs]\n", "not covered", 0},
		{"absolute", managedBase + "paths: [etc/]\nmanaged: [/etc/passwd]\n", "managed:", schema.RulePathAbsolute},
		{"traversal", managedBase + "paths: [a/]\nmanaged: [a/../../etc/passwd]\n", "managed:", schema.RulePathTraversal},
		{"backslash", managedBase + "paths: [a/]\nmanaged: ['a\\b']\n", "managed:", schema.RulePathInvalid},
		{"directory form", managedBase + "paths: [a/]\nmanaged: [a/]\n", "managed:", schema.RulePathInvalid},
		{"duplicate", managedBase + "paths: [A.md]\nmanaged: [A.md, A.md]\n", "named twice", 0},
		{"scalar", managedBase + "paths: [A.md]\nmanaged: A.md\n", "cannot unmarshal", 0},
		{"hook", "name: x\nversion: 1\nkind: hook\nartifacts: {tier2: a}\npaths: [A.md]\nmanaged: [A.md]\n", "hook", 0},
		{"too many", managedBase + "paths: [d/]\nmanaged: [" + manyManaged(MaxManagedFiles+1) + "]\n", "more than", 0},
	}
	for _, c := range cases {
		m, err := parseDoc(t, c.doc)
		if err == nil {
			t.Errorf("%s: accepted (managed %v)", c.name, m.Managed())
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %q does not contain %q", c.name, err, c.want)
		}
		if c.rule != 0 && !errors.Is(err, rejection.Rule(c.rule)) {
			t.Errorf("%s: error %q is not %s", c.name, err, c.rule)
		}
	}
}

func manyManaged(n int) string {
	s := make([]string, n)
	for i := range s {
		s[i] = "d/f" + string(rune('a'+i%26)) + strings.Repeat("x", i/26) + ".md"
	}
	return strings.Join(s, ", ")
}

// managedExt loads an extension managing the given files under paths [d/, CLAUDE.md, AGENTS.md].
func managedExt(t *testing.T, managed string) *Extension {
	t.Helper()
	dir := mkext(t, t.TempDir(), "name: x\nversion: 1\nkind: target\nartifacts:\n  tier1: a.wasm\npaths: [d/, CLAUDE.md, AGENTS.md]\nmanaged: ["+managed+"]\n",
		map[string]string{"a.wasm": "wasm"})
	e, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestCurrentFilesReadsManagedFilesAndOmitsAbsentOnes(t *testing.T) {
	root := t.TempDir()
	user := "# My project\n\nHand-written text.\n<!-- lola:module:m:start -->\nold\n<!-- lola:module:m:end -->\n"
	write(t, root, "CLAUDE.md", user)
	write(t, root, "d/bin.md", "\xff\xfe binary\x00")
	e := managedExt(t, "CLAUDE.md, AGENTS.md, d/bin.md, d/missing/deeper.md")
	got, err := e.CurrentFiles(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("got %d files, want CLAUDE.md and d/bin.md: %+v", len(got), got)
	}
	if got[0].Path != "CLAUDE.md" || got[0].Content != user || got[0].Encoding != "" {
		t.Fatalf("CLAUDE.md: %+v", got[0])
	}
	raw, err := base64.StdEncoding.DecodeString(got[1].Content)
	if got[1].Path != "d/bin.md" || got[1].Encoding != schema.EncodingBase64 || err != nil || string(raw) != "\xff\xfe binary\x00" {
		t.Fatalf("d/bin.md: %+v (%v)", got[1], err)
	}
	// An extension managing nothing reads nothing, even under a root that
	// does not exist.
	none := managedExt(t, "")
	if f, err := none.CurrentFiles(filepath.Join(root, "nope")); f != nil || err != nil {
		t.Fatalf("no managed files: %v %v", f, err)
	}
}

func TestCurrentFilesRefusesHostileTrees(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(secret, []byte("SECRET"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		managed string
		setup   func(t *testing.T, root string)
		rule    schema.Rule // 0: any error without a rule
		want    string
	}{
		{"managed file is a symlink out of the root", "CLAUDE.md", func(t *testing.T, root string) {
			symlink(t, secret, filepath.Join(root, "CLAUDE.md"))
		}, schema.RulePathSymlink, "CLAUDE.md"},
		{"managed file is a symlink inside the root", "CLAUDE.md", func(t *testing.T, root string) {
			write(t, root, "real.md", "inside")
			symlink(t, "real.md", filepath.Join(root, "CLAUDE.md"))
		}, schema.RulePathSymlink, "CLAUDE.md"},
		{"dangling symlink", "CLAUDE.md", func(t *testing.T, root string) {
			symlink(t, "nowhere", filepath.Join(root, "CLAUDE.md"))
		}, schema.RulePathSymlink, "CLAUDE.md"},
		{"a directory above is a symlink", "d/AGENTS.md", func(t *testing.T, root string) {
			out := t.TempDir()
			write(t, out, "AGENTS.md", "SECRET")
			symlink(t, out, filepath.Join(root, "d"))
		}, schema.RulePathSymlink, "d"},
		{"a file used as a directory", "d/AGENTS.md", func(t *testing.T, root string) {
			write(t, root, "d", "a file")
		}, schema.RulePathNotDirectory, "d"},
		{"managed path is a directory", "CLAUDE.md", func(t *testing.T, root string) {
			if err := os.Mkdir(filepath.Join(root, "CLAUDE.md"), 0o755); err != nil {
				t.Fatal(err)
			}
		}, schema.RulePathInvalid, `"CLAUDE.md" is a directory, not a regular file`},
		{"managed path is a FIFO", "CLAUDE.md", func(t *testing.T, root string) {
			mkfifo(t, filepath.Join(root, "CLAUDE.md"))
		}, schema.RulePathInvalid, `"CLAUDE.md" is a special file (device, FIFO or socket), not a regular file`},
		{"too large", "CLAUDE.md", func(t *testing.T, root string) {
			f, err := os.Create(filepath.Join(root, "CLAUDE.md"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if err := f.Truncate(MaxCurrentFileBytes + 1); err != nil {
				t.Fatal(err)
			}
		}, schema.RulePathInvalid, `"CLAUDE.md" exceeds 4194304 bytes`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			c.setup(t, root)
			e := managedExt(t, c.managed)
			got, err := e.CurrentFiles(root)
			if err == nil {
				t.Fatalf("accepted: %+v", got)
			}
			if got != nil {
				t.Fatalf("files came back with the error: %+v", got)
			}
			if c.rule != 0 && !errors.Is(err, rejection.Rule(c.rule)) {
				t.Fatalf("error %q is not %s", err, c.rule)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %q does not name %q", err, c.want)
			}
			if strings.Contains(err.Error(), root) || strings.Contains(err.Error(), "SECRET") {
				t.Fatalf("error carries a host path or content: %q", err)
			}
		})
	}
}

func write(t *testing.T, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		if runtime.GOOS == "windows" {
			t.Skip("symlinks need a privilege on Windows:", err)
		}
		t.Fatal(err)
	}
}

func mkfifo(t *testing.T, p string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("no FIFOs on Windows")
	}
	if err := mkfifoImpl(p); err != nil {
		t.Fatal(err)
	}
}
