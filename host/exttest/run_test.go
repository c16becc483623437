package exttest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lola-pm/lola/host/extension"
)

// fakeExt writes an extension whose tier-2 artifact is a shell script
// printing plan whatever the request, with one case and, if golden is not
// "", its golden. It returns the loaded extension.
func fakeExt(t *testing.T, plan, golden string) *extension.Extension {
	t.Helper()
	dir := t.TempDir()
	must := func(p, body string, mode os.FileMode) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(body), mode); err != nil {
			t.Fatal(err)
		}
	}
	must("lola-extension.yaml", "name: fake\nversion: 0.1.0\nkind: target\nartifacts:\n  tier2: dist/fake\ncapabilities: []\npaths:\n  - fake/\n", 0o644)
	must("dist/fake", "#!/bin/sh\ncat >/dev/null\nprintf '%s' '"+plan+"'\n", 0o755)
	must("testdata/c.request.json", `{"protocol":1,"operation":"generate","modules":[]}`, 0o644)
	if golden != "" {
		must("testdata/c.plan.json", golden, 0o644)
	}
	e, err := extension.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func runFake(t *testing.T, e *extension.Extension, update bool) Result {
	t.Helper()
	rs, err := Run(context.Background(), Options{Ext: e, Update: update, Timeout: 20 * time.Second})
	if err != nil || len(rs) != 1 {
		t.Fatalf("Run: %v, %d results", err, len(rs))
	}
	return rs[0]
}

const okPlan = `{"protocol":1,"intents":[{"op":"write","path":"fake/a.md","content":"x"}]}`

// A plan the host refuses fails its case by the host's own rule, even when
// the golden holds exactly that plan, and --update writes no golden for it.
func TestRunRefusesWhatTheHostRefuses(t *testing.T) {
	for _, c := range []struct{ name, plan, rule string }{
		{"two writes to one path", `{"protocol":1,"intents":[{"op":"write","path":"fake/a.md","content":"x"},{"op":"write","path":"fake/a.md","content":"y"}]}`, "conflict.same-path"},
		{"outside the path grant", `{"protocol":1,"intents":[{"op":"write","path":"other/a.md","content":"x"}]}`, "grant.outside"},
		{"case-fold clash", `{"protocol":1,"intents":[{"op":"write","path":"fake/a.md","content":"x"},{"op":"write","path":"fake/A.md","content":"y"}]}`, "conflict.same-path"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := fakeExt(t, c.plan, "")
			r := runFake(t, e, true)
			if r.Err == nil || !strings.Contains(r.Err.Error(), c.rule) || r.Wrote {
				t.Fatalf("got %v (wrote %v), want a refusal by %s", r.Err, r.Wrote, c.rule)
			}
			if _, err := os.Stat(filepath.Join(e.Dir(), "testdata", "c.plan.json")); !os.IsNotExist(err) {
				t.Fatal("a golden was written for a refused plan")
			}
		})
	}
}

func TestRunComparesWithTheGolden(t *testing.T) {
	golden := "{\"protocol\": 1, \"intents\": [\n  {\"op\":\"write\",\"path\":\"fake/a.md\",\"content\":\"x\"}\n]}\n"
	if r := runFake(t, fakeExt(t, okPlan, golden), false); r.Err != nil {
		t.Fatalf("matching golden: %v\n%s", r.Err, r.Diff)
	}
	other := strings.Replace(golden, `"content":"x"`, `"content":"old"`, 1)
	r := runFake(t, fakeExt(t, okPlan, other), false)
	if r.Err == nil || !strings.Contains(r.Diff, "-  {\"op\":\"write\",\"path\":\"fake/a.md\",\"content\":\"old\"}") ||
		!strings.Contains(r.Diff, "+  {\"op\":\"write\",\"path\":\"fake/a.md\",\"content\":\"x\"}") {
		t.Fatalf("mismatch: %v\n%s", r.Err, r.Diff)
	}
	r = runFake(t, fakeExt(t, okPlan, ""), false)
	if r.Err == nil || !strings.Contains(r.Err.Error(), "--update") {
		t.Fatalf("missing golden: %v", r.Err)
	}
	e := fakeExt(t, okPlan, "")
	if r := runFake(t, e, true); r.Err != nil || !r.Wrote {
		t.Fatalf("update: %v", r.Err)
	}
	if b, _ := os.ReadFile(filepath.Join(e.Dir(), "testdata", "c.plan.json")); string(b) != golden {
		t.Fatalf("written golden %q", b)
	}
}

func TestDiff(t *testing.T) {
	if d := Diff("a", "b", "x\ny\n", "x\ny\n"); d != "" {
		t.Fatalf("equal: %q", d)
	}
	d := Diff("a", "b", "1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\n2\n3\n4\nfive\n6\n7\n8\n9\n")
	want := "--- a\n+++ b\n@@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n@@\n"
	if d != want {
		t.Fatalf("got\n%s\nwant\n%s", d, want)
	}
}

// CheckPlan (what sdk-go/lolatest calls) refuses what Run refuses, and a
// plan the decoder refuses, by its rule.
func TestCheckPlan(t *testing.T) {
	e := fakeExt(t, okPlan, "")
	if err := CheckPlan(context.Background(), e.Manifest(), []byte(okPlan)); err != nil {
		t.Fatalf("a good plan: %v", err)
	}
	for plan, rule := range map[string]string{
		`{"protocol":1,"intents":[{"op":"write","path":"fake/a.md","content":"x"},{"op":"write","path":"fake/A.md","content":"y"}]}`: "conflict.same-path",
		`{"protocol":1,"intents":[{"op":"write","path":"other/a.md","content":"x"}]}`:                                                "grant.outside",
		`{"protocol":1,"intents":[{"op":"write","path":"fake/a.md","content":"x","extra":1}]}`:                                       "plan.",
	} {
		if err := CheckPlan(context.Background(), e.Manifest(), []byte(plan)); err == nil || !strings.Contains(err.Error(), rule) {
			t.Errorf("%s: %v, want %s", plan, err, rule)
		}
	}
}
