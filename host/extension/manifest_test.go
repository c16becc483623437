package extension

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"text/template"

	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

const goodManifest = `name: hello
version: 0.1.0
kind: target
artifacts:
  tier1: dist/hello.wasm
  tier2: dist/hello
capabilities: [net.http, net.git, net.http]
paths:
  - hello/
  - HELLO.md
`

func parseDoc(t *testing.T, s string) (*Manifest, error) {
	t.Helper()
	return ParseManifest(strings.NewReader(s))
}

func TestParseManifestReadsEveryField(t *testing.T) {
	m, err := parseDoc(t, goodManifest)
	if err != nil {
		t.Fatal(err)
	}
	if m.Name() != "hello" || m.Version() != "0.1.0" || m.Kind() != KindTarget {
		t.Fatalf("got %s %s %s", m.Name(), m.Version(), m.Kind())
	}
	if p, ok := m.Artifact(Tier1); !ok || p.String() != "dist/hello.wasm" {
		t.Fatalf("tier1 = %v %v", p, ok)
	}
	if p, ok := m.Artifact(Tier2); !ok || p.String() != "dist/hello" {
		t.Fatalf("tier2 = %v %v", p, ok)
	}
	if got := m.Capabilities().String(); got != "net.git,net.http" {
		t.Fatalf("capabilities %q", got)
	}
	if got := strings.Join(m.Paths().Strings(), " "); got != "hello HELLO.md" {
		t.Fatalf("paths %q", got)
	}
	min, err := parseDoc(t, "name: x\nversion: 1\nkind: source\nartifacts: {tier2: bin/x}\n")
	if err != nil {
		t.Fatal(err)
	}
	if min.Capabilities().Len() != 0 || len(min.Paths().Prefixes()) != 0 {
		t.Fatal("absent capabilities or paths granted something")
	}
	if got := min.Tiers(); len(got) != 1 || got[0] != Tier2 {
		t.Fatalf("tiers %v", got)
	}
}

// TestTemplateManifestParses: the manifest `lola ext new` scaffolds is one
// the strict loader accepts, with the grants the template documents.
func TestTemplateManifestParses(t *testing.T) {
	for _, lang := range []string{"go"} {
		src, err := os.ReadFile(filepath.Join("..", "..", "templates", lang, ManifestFile+".tmpl"))
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := template.Must(template.New("m").Parse(string(src))).Execute(&out, map[string]string{"Name": "my-ext"}); err != nil {
			t.Fatal(err)
		}
		m, err := ParseManifest(&out)
		if err != nil {
			t.Fatalf("%s template manifest refused: %v", lang, err)
		}
		if m.Name() != "my-ext" || m.Capabilities().Len() != 0 || strings.Join(m.Paths().Strings(), ",") != "my-ext" {
			t.Fatalf("%s template: %s caps %q paths %q", lang, m.Name(), m.Capabilities(), m.Paths().Strings())
		}
	}
}

func TestParseManifestRefusesHostileManifests(t *testing.T) {
	const base = "name: x\nversion: 1\nkind: target\nartifacts:\n  tier1: a.wasm\n"
	cases := []struct {
		name, doc, want string
		rule            schema.Rule
	}{
		{"unknown top-level key", base + "permissions: [all]\n", `line 6: unknown key "permissions"`, 0},
		{"unknown artifacts key", "name: x\nversion: 1\nkind: target\nartifacts:\n  tier3: a\n", `unknown key "tier3"`, 0},
		{"misspelt key", strings.Replace(base, "kind", "knd", 1), `unknown key "knd"`, 0},
		{"duplicate key", base + "kind: hook\n", `"kind" already defined`, 0},
		{"second document", base + "---\nname: y\n", "more than one YAML document", 0},
		{"empty", "", "empty", 0},
		{"not a mapping", "- a\n", "line 1: cannot unmarshal a list into a mapping", 0},
		{"no name", "version: 1\nkind: target\nartifacts: {tier1: a}\n", "name: required", 0},
		{"upper-case name", strings.Replace(base, "name: x", "name: Hello", 1), "name:", 0},
		{"name with slash", strings.Replace(base, "name: x", "name: ../evil", 1), "name:", 0},
		{"name too long", strings.Replace(base, "name: x", "name: a"+strings.Repeat("b", 63), 1), "name:", 0},
		{"no version", strings.Replace(base, "version: 1\n", "", 1), "version: required", 0},
		{"empty version", strings.Replace(base, "version: 1", "version: ''", 1), "version: required", 0},
		{"version with space", strings.Replace(base, "version: 1", "version: 1 2", 1), "version:", 0},
		{"version with slash", strings.Replace(base, "version: 1", "version: 1/2", 1), "version:", 0},
		{"non-ASCII version", strings.Replace(base, "version: 1", "version: 1.0-\u00e9", 1), "version:", 0},
		{"version too long", strings.Replace(base, "version: 1", "version: "+strings.Repeat("9", MaxVersionBytes+1), 1), "version:", 0},
		{"no kind", strings.Replace(base, "kind: target\n", "", 1), "kind: required", 0},
		{"unknown kind", strings.Replace(base, "kind: target", "kind: plugin", 1), `kind: "plugin" is not a kind`, 0},
		{"kind is case-exact", strings.Replace(base, "kind: target", "kind: Target", 1), "kind:", 0},
		{"no artifacts", "name: x\nversion: 1\nkind: target\n", "at least one tier", 0},
		{"empty artifacts", "name: x\nversion: 1\nkind: target\nartifacts: {}\n", "at least one tier", 0},
		{"absolute artifact", strings.Replace(base, "a.wasm", "/usr/bin/evil", 1), "artifacts.tier1", schema.RulePathAbsolute},
		{"drive artifact", strings.Replace(base, "a.wasm", `'C:\evil.exe'`, 1), "artifacts.tier1", schema.RulePathAbsolute},
		{"traversal artifact", strings.Replace(base, "a.wasm", "../../bin/sh", 1), "artifacts.tier1", schema.RulePathTraversal},
		{"inner traversal", strings.Replace(base, "a.wasm", "dist/../../x", 1), "artifacts.tier1", schema.RulePathTraversal},
		{"backslash artifact", strings.Replace(base, "a.wasm", `'dist\x'`, 1), "artifacts.tier1", schema.RulePathInvalid},
		{"hook with tier 1", "name: x\nversion: 1\nkind: hook\nartifacts: {tier1: a.wasm, tier2: a}\n", "tier 2 only", 0},
		{"unknown capability", base + "capabilities: [net.http, fs.write]\n", `capabilities: capability.unknown`, schema.RuleCapabilityUnknown},
		{"capability as a scalar", base + "capabilities: net.http\n", "cannot unmarshal a string `net.http` into a list", 0},
		{"absolute grant", base + "paths: [/etc/]\n", `paths: "/etc/"`, schema.RulePathAbsolute},
		{"traversal grant", base + "paths: [../]\n", `paths: "../"`, schema.RulePathTraversal},
		{"too large", base + "# " + strings.Repeat("x", MaxManifestBytes) + "\n", "exceeds", 0},
	}
	for _, c := range cases {
		m, err := parseDoc(t, c.doc)
		if err == nil {
			t.Errorf("%s: accepted (%+v)", c.name, m)
			continue
		}
		if m != nil {
			t.Errorf("%s: a manifest came back with the error", c.name)
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %q does not contain %q", c.name, err, c.want)
		}
		if c.rule != 0 && !errors.Is(err, rejection.Rule(c.rule)) {
			t.Errorf("%s: error %q is not %s", c.name, err, c.rule)
		}
	}
}
