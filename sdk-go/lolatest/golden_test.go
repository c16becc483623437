package lolatest

import (
	"os"
	"path/filepath"
	"testing"
)

func TestIndent(t *testing.T) {
	for in, want := range map[string]string{
		`{"protocol":1,"intents":[]}`: "{\"protocol\": 1, \"intents\": []}\n",
		`{"protocol":1,"intents":[{"op":"delete","path":"a"},{"op":"write","path":"b","content":"\u003c"}]}`: "{\"protocol\": 1, \"intents\": [\n  {\"op\":\"delete\",\"path\":\"a\"},\n  {\"op\":\"write\",\"path\":\"b\",\"content\":\"\\u003c\"}\n]}\n",
	} {
		got, err := Indent([]byte(in))
		if err != nil || string(got) != want {
			t.Errorf("Indent(%s) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{``, `{`, `{"protocol":2,"intents":[]}`, `{"intents":[]}`} {
		if got, err := Indent([]byte(bad)); err == nil {
			t.Errorf("Indent(%q) accepted: %q", bad, got)
		}
	}
}

func TestCases(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"ok.request.json":  `{"protocol":1}`,
		"bad.request.json": `{"protocol":1,"x":1}`,
		"bad.error.txt":    "  some text \n",
		"stray.plan.json":  `{}`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cs := Cases(t, dir)
	if len(cs) != 2 || cs[0].Name != "bad" || cs[1].Name != "ok" {
		t.Fatalf("cases %+v", cs)
	}
	if cs[0].ErrText != "some text" || cs[0].PlanPath != "" || string(cs[0].Request) != `{"protocol":1,"x":1}` {
		t.Errorf("failure case %+v", cs[0])
	}
	if cs[1].ErrText != "" || cs[1].PlanPath != filepath.Join(dir, "ok.plan.json") {
		t.Errorf("success case %+v", cs[1])
	}
}

// TestCasesRefusesNothing: a directory without requests fails the test
// rather than passing a harness over nothing.
func TestCasesRefusesNothing(t *testing.T) {
	ft := &fatalRecorder{TB: t}
	func() {
		defer func() { _ = recover() }()
		Cases(ft, t.TempDir())
	}()
	if !ft.failed {
		t.Fatal("an empty testdata passed")
	}
}

// fatalRecorder turns Fatal into a recorded failure and a panic, so a
// helper's refusal can be asserted.
type fatalRecorder struct {
	testing.TB
	failed bool
}

func (f *fatalRecorder) Fatalf(string, ...any) { f.failed = true; panic("fatal") }
func (f *fatalRecorder) Fatal(...any)          { f.failed = true; panic("fatal") }
func (f *fatalRecorder) Helper()               {}
