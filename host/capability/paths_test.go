package capability

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/config"
	"github.com/lola-pm/lola/host/pathrule"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

func declare(t testing.TB, ps ...string) PathDeclaration {
	t.Helper()
	d, err := DeclarePaths(ps)
	if err != nil {
		t.Fatalf("DeclarePaths(%q): %v", ps, err)
	}
	return d
}

func paths(t testing.TB, ps ...string) []pathrule.Path {
	t.Helper()
	out := make([]pathrule.Path, len(ps))
	for i, s := range ps {
		p, err := pathrule.Parse(s)
		if err != nil {
			t.Fatalf("Parse(%q): %v", s, err)
		}
		out[i] = p
	}
	return out
}

func userConfig(t testing.TB, yaml string) *config.Config {
	t.Helper()
	c, err := config.Parse(strings.NewReader(yaml))
	if err != nil {
		t.Fatalf("config: %v", err)
	}
	return c
}

func TestDeclarePathsRefusesWhatIsNotARootRelativePrefix(t *testing.T) {
	for s, rule := range map[string]schema.Rule{
		"/etc":          schema.RulePathAbsolute,
		`C:\x`:          schema.RulePathAbsolute,
		"../escape":     schema.RulePathTraversal,
		"a/../../b":     schema.RulePathTraversal,
		"":              schema.RulePathInvalid,
		"/":             schema.RulePathAbsolute,
		"a//b":          schema.RulePathInvalid,
		"a/./b":         schema.RulePathInvalid,
		"a//":           schema.RulePathInvalid, // one trailing "/" only
		"con/x":         schema.RulePathInvalid,
		"back\\slash":   schema.RulePathInvalid,
		".claude/\x00x": schema.RulePathInvalid,
	} {
		_, err := DeclarePaths([]string{"ok/", s})
		if !errors.Is(err, rejection.Rule(rule)) {
			t.Errorf("DeclarePaths(%q) = %v, want %s", s, err, rule)
		}
	}
	d := declare(t, ".claude/", "CLAUDE.md")
	if got := d.Strings(); !slices.Equal(got, []string{".claude", "CLAUDE.md"}) {
		t.Fatalf("declared %q", got)
	}
}

const writes = `{"protocol":1,"intents":[
 {"op":"write","path":".claude/skills/foo/SKILL.md","content":"x"},
 {"op":"write","path":".claude/commands/c.md","content":"x"},
 {"op":"write","path":"CLAUDE.md","content":"x"},
 {"op":"write","path":".claudex/evil","content":"x"},
 {"op":"write","path":"src/main.go","content":"x"}]}`

func TestAbsentDeclarationGrantsNoPath(t *testing.T) {
	p := decode(t, writes)
	wantRule(t, declare(t).Grant(pathrule.Bytes).Check(p), schema.RuleGrantOutside, 0, 1, 2, 3, 4)
	// A user configuration cannot create authority the manifest never declared.
	cfg := userConfig(t, "extensions:\n  claude:\n    paths: [\".claude/\", \"CLAUDE.md\"]\n")
	g := GrantPaths(declare(t), cfg, "claude", pathrule.Bytes)
	if !g.IsEmpty() {
		t.Fatalf("user config widened an empty declaration to %q", g.Strings())
	}
	wantRule(t, g.Check(p), schema.RuleGrantOutside, 0, 1, 2, 3, 4)
	var zero PathGrant
	wantRule(t, zero.Check(p), schema.RuleGrantOutside, 0, 1, 2, 3, 4)
}

func TestDeclaredGrantCoversPrefixAndBeneathComponentWise(t *testing.T) {
	p := decode(t, writes)
	g := GrantPaths(declare(t, ".claude/", "CLAUDE.md"), nil, "claude", pathrule.Bytes)
	// .claudex/evil shares the bytes ".claude" but not the component.
	wantRule(t, g.Check(p), schema.RuleGrantOutside, 3, 4)
}

func TestUserConfigNarrowsAndRejectsAPlanWritingOutsideTheOverlap(t *testing.T) {
	p := decode(t, writes)
	cfg := userConfig(t, "extensions:\n  claude:\n    paths: [\".claude/skills/\"]\n  other:\n    paths: [\"src/\"]\n")
	g := GrantPaths(declare(t, ".claude/", "CLAUDE.md"), cfg, "claude", pathrule.Bytes)
	if got := g.Strings(); !slices.Equal(got, []string{".claude/skills"}) {
		t.Fatalf("effective grant %q, want the user's narrower .claude/skills", got)
	}
	wantRule(t, g.Check(p), schema.RuleGrantOutside, 1, 2, 3, 4)
	// Another extension's configuration does not touch this one.
	if got := GrantPaths(declare(t, ".claude/"), cfg, "unconfigured", pathrule.Bytes).Strings(); !slices.Equal(got, []string{".claude"}) {
		t.Fatalf("an unconfigured extension was narrowed to %q", got)
	}
}

func TestNeitherSideWidensAlone(t *testing.T) {
	cases := []struct {
		name           string
		declared, user []string
		want           []string
	}{
		{"user broader than every declared prefix", []string{".claude/skills"}, []string{".claude"}, []string{".claude/skills"}},
		{"user names the whole root's top dir", []string{"a/b/c"}, []string{"a"}, []string{"a/b/c"}},
		{"user beneath declared", []string{".claude"}, []string{".claude/skills/foo"}, []string{".claude/skills/foo"}},
		{"same prefix", []string{".claude"}, []string{".claude"}, []string{".claude"}},
		{"disjoint", []string{".claude"}, []string{".cursor"}, nil},
		{"byte prefix is not a path prefix", []string{".claude"}, []string{".claudex"}, nil},
		{"several, partly overlapping", []string{".claude", "CLAUDE.md", "docs/a"}, []string{".claude/agents", "docs", "other"}, []string{".claude/agents", "docs/a"}},
		{"user lists a prefix twice and its child", []string{"x"}, []string{"x/y", "x/y", "x/y/z"}, []string{"x/y"}},
	}
	for _, c := range cases {
		g := declare(t, c.declared...).Grant(pathrule.Bytes).Narrow(paths(t, c.user...))
		if got := g.Strings(); !slices.Equal(got, c.want) {
			t.Errorf("%s: declared %q, user %q: effective %q, want %q", c.name, c.declared, c.user, got, c.want)
		}
		// The overlap is covered by both sides: nothing either side lacks.
		for _, e := range g.Prefixes() {
			if !declare(t, c.declared...).Grant(pathrule.Bytes).Covers(e) {
				t.Errorf("%s: %s is not covered by the declaration", c.name, e)
			}
			if !declare(t, c.user...).Grant(pathrule.Bytes).Covers(e) {
				t.Errorf("%s: %s is not covered by the user's prefixes", c.name, e)
			}
		}
	}
	if g := declare(t, "a").Grant(pathrule.Bytes).Narrow(nil); !g.IsEmpty() {
		t.Fatalf("narrowing to no prefix left %q", g.Strings())
	}
}

func TestEveryTouchedPathIsHeldToTheGrant(t *testing.T) {
	g := declare(t, "in/").Grant(pathrule.Bytes)
	p := decode(t, `{"protocol":1,"intents":[
 {"op":"rename","from":"in/a","to":"out/a"},
 {"op":"rename","from":"out/b","to":"in/b"},
 {"op":"delete","path":"out"},
 {"op":"fetch","url":"https://example.org/x","dest":"out/x"},
 {"op":"clone","url":"https://example.org/r.git","dest":"out/r"},
 {"op":"delete","path":"in"},
 {"op":"rename","from":"in/c","to":"in/d"},
 {"op":"write","path":"../in/x","content":""}]}`)
	err := g.Check(p)
	wantRule(t, err, schema.RuleGrantOutside, 0, 1, 2, 3, 4, 7)
	vs := rejection.All(err)
	if !strings.HasPrefix(vs[0].Detail, `to "out/a"`) || !strings.HasPrefix(vs[1].Detail, `from "out/b"`) {
		t.Fatalf("a rename violation does not name its end: %q / %q", vs[0].Detail, vs[1].Detail)
	}
	if !strings.HasPrefix(vs[3].Detail, `dest "out/x"`) {
		t.Fatalf("fetch violation: %q", vs[3].Detail)
	}
}

func TestCaseFoldingRelations(t *testing.T) {
	p := decode(t, `{"protocol":1,"intents":[
 {"op":"write","path":"Skills/Foo/SKILL.md","content":"x"},
 {"op":"write","path":"skills/foo/SKILL.md","content":"x"},
 {"op":"write","path":"SKILLS/BAR","content":"x"}]}`)
	d := declare(t, "skills/foo")
	wantRule(t, d.Grant(pathrule.Bytes).Check(p), schema.RuleGrantOutside, 0, 2)
	for _, eq := range []pathrule.Equality{pathrule.Darwin, pathrule.Windows, pathrule.HFSPlus} {
		wantRule(t, d.Grant(eq).Check(p), schema.RuleGrantOutside, 2)
	}
	// Narrowing is judged under the same relation: the user's spelling in
	// another case is the same directory on a folding filesystem only.
	user := paths(t, "Skills/Foo/sub")
	if g := d.Grant(pathrule.Bytes).Narrow(user); !g.IsEmpty() {
		t.Fatalf("bytes: a differently-cased prefix overlapped: %q", g.Strings())
	}
	g := d.Grant(pathrule.Darwin).Narrow(user)
	if got := g.Strings(); !slices.Equal(got, []string{"Skills/Foo/sub"}) {
		t.Fatalf("darwin: effective %q", got)
	}
	wantRule(t, g.Check(p), schema.RuleGrantOutside, 0, 1, 2)
	if !g.Covers(paths(t, "skills/foo/SUB/x")[0]) {
		t.Fatal("darwin: a case variant beneath the grant is not covered")
	}
	// Unicode normalization: NFC grant, NFD plan path.
	nfc := declare(t, "caf\u00e9")
	nfd := paths(t, "cafe\u0301/menu")[0]
	if nfc.Grant(pathrule.Bytes).Covers(nfd) || nfc.Grant(pathrule.Windows).Covers(nfd) {
		t.Fatal("a relation without normalization equated NFC and NFD")
	}
	if !nfc.Grant(pathrule.Darwin).Covers(nfd) {
		t.Fatal("darwin: NFD spelling of a granted NFC prefix not covered")
	}
	if g := nfc.Grant(nil); !g.IsEmpty() {
		t.Fatal("a nil relation granted a path")
	}
}
