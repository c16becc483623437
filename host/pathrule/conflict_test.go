package pathrule

import (
	"os"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

var (
	same   = schema.RuleConflictSamePath
	nested = schema.RuleConflictNested
)

// TestConflictRules is the specification's Testing bullet, in the
// vocabulary of the rules: each plan is rejected whole, naming exactly the
// conflicting intents.
func TestConflictRules(t *testing.T) {
	cases := []struct {
		name  string
		specs []string
		want  []conflict
	}{
		// Same touched path.
		{"write and delete on one path", []string{"write a", "delete a"}, []conflict{{same, []int{0, 1}}}},
		{"delete and write on one path, emitted delete first", []string{"delete a/b", "write x", "write a/b"}, []conflict{{same, []int{0, 2}}}},
		{"write and delete on one path, under different folds", []string{"write a/B", "delete a/b"}, nil}, // two paths under bytes
		{"fetch dest is a deleted path", []string{"delete v/x.tgz", "fetch v/x.tgz"}, []conflict{{same, []int{0, 1}}}},
		{"two writes", []string{"write a", "write x", "write a"}, []conflict{{same, []int{0, 2}}}},
		{"two renames sharing a source", []string{"rename a x", "rename a y"}, []conflict{{same, []int{0, 1}}}},
		{"three-hop rename cycle", []string{"rename a b", "rename b c", "rename c a"},
			[]conflict{{same, []int{0, 1}}, {same, []int{0, 2}}, {same, []int{1, 2}}}},
		{"rename into a written path", []string{"write x", "rename a x"}, []conflict{{same, []int{0, 1}}}},
		{"fetch dest is another intent's path", []string{"write v/x.tgz", "fetch v/x.tgz"}, []conflict{{same, []int{0, 1}}}},
		{"fetch dest is a rename source", []string{"rename v/x y", "fetch v/x"}, []conflict{{same, []int{0, 1}}}},
		{"clone over a fetch", []string{"clone vendor/r", "fetch vendor/r"}, []conflict{{same, []int{0, 1}}}},
		{"delete a rename source", []string{"delete a", "rename a b"}, []conflict{{same, []int{0, 1}}}},
		{"rename onto itself", []string{"rename a a"}, []conflict{{same, []int{0}}}},
		// One beneath another.
		{"write a with write a/b", []string{"write a", "write a/b"}, []conflict{{nested, []int{0, 1}}}},
		{"write a/b with write a, emitted the other way", []string{"write a/b", "write a"}, []conflict{{nested, []int{0, 1}}}},
		{"rename a->x with rename a/b->y", []string{"rename a x", "rename a/b y"}, []conflict{{nested, []int{0, 1}}}},
		{"delete a with rename a/b->c", []string{"delete a", "rename a/b c"}, []conflict{{nested, []int{0, 1}}}},
		{"delete a/b beneath write a", []string{"write a", "delete a/b"}, []conflict{{nested, []int{0, 1}}}},
		{"delete a/b beneath a rename's to", []string{"rename x a", "delete a/b"}, []conflict{{nested, []int{0, 1}}}},
		{"write into a rename source", []string{"rename a x", "write a/b"}, []conflict{{nested, []int{0, 1}}}},
		{"clone inside a clone", []string{"clone vendor/r", "clone vendor/r/sub"}, []conflict{{nested, []int{0, 1}}}},
		{"rename into itself", []string{"rename a a/b"}, []conflict{{nested, []int{0}}}},
		{"rename onto its own parent", []string{"rename a/b a"}, []conflict{{nested, []int{0}}}},
		// The exception covers the delete's own path only.
		{"delete a + write a/b + write a/b/c", []string{"delete a", "write a/b", "write a/b/c"}, []conflict{{nested, []int{1, 2}}}},
		{"delete a + two writes of a/b", []string{"write a/b", "delete a", "write a/b"}, []conflict{{same, []int{0, 2}}}},
		{"replace a subtree by rename (the known gap)", []string{"rename staged skills/foo", "write skills/foo/SKILL.md"}, []conflict{{nested, []int{0, 1}}}},
		// Every violation, not only the first.
		{"two independent conflicts", []string{"write a", "write b", "write a", "write b/c", "delete q"},
			[]conflict{{same, []int{0, 2}}, {nested, []int{1, 3}}}},
		{"renames swapping two paths", []string{"rename a b", "rename b a"}, []conflict{{same, []int{0, 1}}}},
		{"one pair, two rules", []string{"rename a b/c", "rename b a"}, []conflict{{same, []int{0, 1}}, {nested, []int{0, 1}}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := planOf(t, c.specs...)
			if c.want == nil {
				mustAccept(t, p, Bytes)
				mustReject(t, p, Windows, conflict{same, []int{0, 1}})
				return
			}
			for _, eq := range Equalities() {
				mustReject(t, p, eq, c.want...)
			}
		})
	}
}

func TestRejectionNamesOps(t *testing.T) {
	_, err := Validate(planOf(t, "fetch v/x", "delete q", "clone v/x/y"), Bytes)
	vs := rejection.All(err)
	if len(vs) != 1 {
		t.Fatalf("got %v", err)
	}
	want := []rejection.IntentRef{{Index: 0, Op: schema.OpFetch}, {Index: 2, Op: schema.OpClone}}
	if got := vs[0].Intents; len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("refs %v, want %v", got, want)
	}
	if !strings.Contains(vs[0].Detail, `"v/x/y"`) || !strings.Contains(vs[0].Detail, "beneath") {
		t.Errorf("detail %q does not say what lies beneath what", vs[0].Detail)
	}
}

// TestDeleteException: a path at or beneath a delete's path does not
// conflict with that delete, and the delete runs first.
func TestDeleteException(t *testing.T) {
	cases := []struct {
		name  string
		specs []string
		order []string
	}{
		{"regenerate a skill", []string{"write skills/foo/SKILL.md", "delete skills/foo"},
			[]string{"#1 delete skills/foo", "#0 write skills/foo/SKILL.md"}},
		{"re-clone from scratch", []string{"clone vendor/x", "delete vendor/x"},
			[]string{"#1 delete vendor/x", "#0 clone vendor/x"}},
		{"delete a file, write a directory in its place", []string{"write a/b", "delete a"},
			[]string{"#1 delete a", "#0 write a/b"}},
		{"two writes beneath one delete", []string{"write a/y", "delete a", "write a/x"},
			[]string{"#1 delete a", "#2 write a/x", "#0 write a/y"}},
		{"rename into a deleted subtree", []string{"rename src a/b", "delete a"},
			[]string{"#1 delete a", "#0 rename src a/b"}},
		{"rename onto a deleted path", []string{"rename src a", "delete a"},
			[]string{"#1 delete a", "#0 rename src a"}},
		{"fetch into a deleted directory", []string{"fetch a/x.tgz", "delete a"},
			[]string{"#1 delete a", "#0 fetch a/x.tgz"}},
		{"two deletes of one path", []string{"delete a", "delete a"},
			[]string{"#0 delete a", "#1 delete a"}},
		{"every phase", []string{"write w", "rename r1 r2", "delete d", "fetch f", "clone c"},
			[]string{"#2 delete d", "#1 rename r1 r2", "#4 clone c", "#3 fetch f", "#0 write w"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := mustAccept(t, planOf(t, c.specs...), Bytes)
			if got := orderOf(v); strings.Join(got, "; ") != strings.Join(c.order, "; ") {
				t.Errorf("order %q, want %q", got, c.order)
			}
		})
	}
}

// TestPathEqualityInConflicts: the same plan is one path or two depending
// on the relation, as the specification's README.md/Readme.md case says.
func TestPathEqualityInConflicts(t *testing.T) {
	const nfc, nfd = "caf\u00e9", "cafe\u0301"
	cases := []struct {
		name     string
		specs    []string
		rejectBy []Equality
		acceptBy []Equality
	}{
		{"README.md vs Readme.md", []string{"write README.md", "delete Readme.md"},
			[]Equality{Darwin, HFSPlus, Windows}, []Equality{Bytes, DarwinCaseSensitive}},
		{"é NFC vs NFD", []string{"write " + nfc, "write " + nfd},
			[]Equality{Darwin, HFSPlus, DarwinCaseSensitive}, []Equality{Bytes, Windows}},
		// APFS folds fully (statuses C and F); HFS+ and NTFS map one
		// code point to one.
		{"ß vs ss", []string{"write stra\u00dfe", "write strasse"},
			[]Equality{Darwin}, []Equality{Bytes, HFSPlus, Windows, DarwinCaseSensitive}},
		{"ß vs SS", []string{"write \u00df", "write SS"},
			[]Equality{Darwin}, []Equality{Bytes, HFSPlus, Windows, DarwinCaseSensitive}},
		{"ﬃ vs ffi", []string{"write \ufb03", "write ffi"},
			[]Equality{Darwin}, []Equality{Bytes, HFSPlus, Windows, DarwinCaseSensitive}},
		{"ﬁ vs FI", []string{"write \ufb01", "write FI"},
			[]Equality{Darwin}, []Equality{Bytes, HFSPlus, Windows, DarwinCaseSensitive}},
		{"ŉ vs ʼn", []string{"write \u0149", "write \u02bcn"},
			[]Equality{Darwin}, []Equality{Bytes, HFSPlus, Windows, DarwinCaseSensitive}},
		{"ΐ (full fold, then NFD) vs ΐ", []string{"write \u0390", "write \u03b9\u0308\u0301"},
			[]Equality{Darwin, HFSPlus, DarwinCaseSensitive}, []Equality{Bytes, Windows}},
		{"Kelvin sign vs k", []string{"write \u212a", "write k"},
			[]Equality{Darwin, HFSPlus}, []Equality{Bytes, Windows, DarwinCaseSensitive}},
		{".git vs .g\u200cit", []string{"write .git", "write .g\u200cit"},
			[]Equality{HFSPlus}, []Equality{Bytes, Darwin, Windows, DarwinCaseSensitive}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := planOf(t, c.specs...)
			for _, eq := range c.rejectBy {
				mustReject(t, p, eq, conflict{same, []int{0, 1}})
			}
			for _, eq := range c.acceptBy {
				mustAccept(t, p, eq)
			}
		})
	}
	// Ancestry folds too: Skills/Foo is an ancestor of skills/foo/SKILL.md.
	p := planOf(t, "write Skills/Foo", "write skills/foo/SKILL.md")
	for _, eq := range []Equality{Darwin, HFSPlus, Windows} {
		mustReject(t, p, eq, conflict{nested, []int{0, 1}})
	}
	mustAccept(t, p, Bytes)
	// And the exception with it: delete Skills/Foo excuses skills/foo/SKILL.md.
	v := mustAccept(t, planOf(t, "write skills/foo/SKILL.md", "delete Skills/Foo"), Windows)
	if got := orderOf(v); got[0] != "#1 delete Skills/Foo" {
		t.Errorf("order %q", got)
	}
}

func TestPathViolationsNameTheirIntentAndField(t *testing.T) {
	p := planOf(t, "write ok", "rename ../up fine", "delete /abs", "fetch a//b", "write ok2")
	_, err := Validate(p, Bytes)
	want := []conflict{
		{schema.RulePathTraversal, []int{1}},
		{schema.RulePathAbsolute, []int{2}},
		{schema.RulePathInvalid, []int{3}},
	}
	got := violations(t, err)
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	vs := rejection.All(err)
	if vs[0].Intents[0].Op != schema.OpRename || !strings.HasPrefix(vs[0].Detail, "from: ") {
		t.Errorf("first violation %v does not name the rename's from", vs[0])
	}
	if !strings.HasPrefix(vs[2].Detail, "dest: ") {
		t.Errorf("fetch violation %v does not name dest", vs[2])
	}
}

func TestPathAndConflictViolationsTogether(t *testing.T) {
	// The rename's bad to does not hide the conflict on its good from.
	p := planOf(t, "rename a ../x", "write a", "write C:x")
	mustReject(t, p, Bytes,
		conflict{schema.RulePathTraversal, []int{0}},
		conflict{same, []int{0, 1}},
		conflict{schema.RulePathAbsolute, []int{2}})
}

func TestConflictReportIsBounded(t *testing.T) {
	specs := make([]string, 3000)
	for i := range specs {
		specs[i] = "write same"
	}
	_, err := Validate(planOf(t, specs...), Bytes)
	vs := rejection.All(err)
	if len(vs) != MaxReportedConflicts {
		t.Fatalf("%d violations listed, want the bound %d", len(vs), MaxReportedConflicts)
	}
	if !strings.Contains(vs[len(vs)-1].Detail, "not listed") {
		t.Errorf("last violation does not say the list is truncated: %q", vs[len(vs)-1].Detail)
	}
}

func TestValidateRefusesNil(t *testing.T) {
	if _, err := Validate(nil, Bytes); err == nil {
		t.Error("nil plan accepted")
	}
	if _, err := Validate(planOf(t, "write a"), nil); err == nil {
		t.Error("nil relation accepted")
	}
}

func TestEmptyPlanIsValid(t *testing.T) {
	v := mustAccept(t, decode(t, nil), Bytes)
	if v.Len() != 0 || len(v.Steps()) != 0 || v.Equality() != Bytes {
		t.Errorf("empty plan: %d steps under %s", v.Len(), v.Equality().Name())
	}
}

// TestValidateTouchesNothing: the validator is pure. Hostile plans run in an
// empty working directory that must stay empty.
func TestValidateTouchesNothing(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for _, specs := range [][]string{
		{"write a", "delete a"}, {"delete x", "write x/y"}, {"write ../escape"},
		{"write /tmp/abs"}, {"rename a b", "rename b c", "rename c a"}, {"clone vendor/r", "fetch f"},
	} {
		_, _ = Validate(planOf(t, specs...), Darwin)
	}
	ents, err := os.ReadDir(dir)
	if err != nil || len(ents) != 0 {
		t.Fatalf("validation created %d entries in its working directory (%v)", len(ents), err)
	}
}
