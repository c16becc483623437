package extrun

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/capability"
	"github.com/lola-pm/lola/host/child"
	"github.com/lola-pm/lola/host/exitcode"
	"github.com/lola-pm/lola/host/pipeline"
)

func run(t *testing.T, o Options) (Result, error, []Notice) {
	t.Helper()
	if o.Home == "" {
		o.Home = t.TempDir()
	}
	if o.Root == "" {
		o.Root = t.TempDir()
	}
	o.Timeout = 20 * time.Second
	var notes []Notice
	o.Notify = func(n Notice) { notes = append(notes, n) }
	res, err := Run(context.Background(), o)
	if err != nil {
		var ee *exitcode.Error
		if !errors.As(err, &ee) {
			t.Fatalf("Run returned an error without an exit code: %v", err)
		}
	}
	return res, err, notes
}

func tree(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if p != root {
			rel, _ := filepath.Rel(root, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	return out
}

// Every way a run ends maps to its exit code, with the report (or none)
// the CLI prints; nothing is applied but a committed plan.
func TestRunOutcomes(t *testing.T) {
	inside := `{"protocol":1,"intents":[{"op":"write","path":".claude/skills/x/SKILL.md","content":"x"}]}`
	outside := `{"protocol":1,"intents":[{"op":"write","path":"elsewhere","content":"x"},{"op":"fetch","url":"https://example.org/x","dest":".claude/x"}]}`

	t.Run("committed", func(t *testing.T) {
		home, root := t.TempDir(), t.TempDir()
		res, err, _ := run(t, Options{Extension: extDir(t, grantsManifest, printing(inside)), Home: home, Root: root})
		if err != nil || res.Report == nil || res.Report.Outcome != "committed" || res.Report.Correlation == "" || res.Applied == nil {
			t.Fatalf("%v %+v", err, res.Report)
		}
		if b, err := os.ReadFile(filepath.Join(root, ".claude/skills/x/SKILL.md")); err != nil || string(b) != "x" {
			t.Fatalf("not applied: %q %v", b, err)
		}
		entries, _ := audit.Read(filepath.Join(home, audit.FileName), audit.Filter{Kinds: []audit.Kind{audit.KindPlan}})
		if len(entries) != 1 || entries[0].Plan.Extension.Name != "grants" || entries[0].Plan.Extension.SHA256 == "" {
			t.Fatalf("plan record %+v", entries)
		}
	})

	t.Run("rejected", func(t *testing.T) {
		home, root := t.TempDir(), t.TempDir()
		res, err, _ := run(t, Options{Extension: extDir(t, grantsManifest, printing(outside)), Home: home, Root: root})
		if exitcode.Of(err) != exitcode.Rejected || res.Report == nil || res.Report.Outcome != "rejected" {
			t.Fatalf("%d %v %+v", exitcode.Of(err), err, res.Report)
		}
		var rules []string
		for _, v := range res.Report.Violations {
			rules = append(rules, v.Rule.String())
		}
		if got := strings.Join(rules, " "); !strings.Contains(got, "grant.outside") || !strings.Contains(got, "capability.missing") {
			t.Fatalf("rules %q", got)
		}
		if len(tree(t, root)) != 0 {
			t.Fatalf("a rejected plan changed the tree: %v", tree(t, root))
		}
		if entries, _ := audit.Read(filepath.Join(home, audit.FileName), audit.Filter{Kinds: []audit.Kind{audit.KindRejected}}); len(entries) != 1 {
			t.Fatalf("the rejection was not audited: %+v", entries)
		}
	})

	t.Run("extension failed", func(t *testing.T) {
		res, err, _ := run(t, Options{Extension: extDir(t, grantsManifest, "echo boom >&2\nexit 3\n")})
		if exitcode.Of(err) != exitcode.Extension || res.Report == nil || res.Report.Outcome != "extension-failed" || res.Applied != nil {
			t.Fatalf("%d %v %+v", exitcode.Of(err), err, res.Report)
		}
		if res.Report.Child.Outcome != child.OutcomeExitNonZero || res.Report.Child.ExitStatus == nil || *res.Report.Child.ExitStatus != 3 ||
			!strings.Contains(res.Report.Child.Diagnostics, "boom") || !strings.Contains(err.Error(), "extension grants failed") {
			t.Fatalf("report %+v, err %v", res.Report.Child, err)
		}
	})

	t.Run("plan refused by a lexical policy rule", func(t *testing.T) {
		head := `{"protocol":1,"intents":[{"op":"fetch","url":"https://example.org/x","dest":".claude/x","method":"HEAD"}]}`
		res, err, _ := run(t, Options{Extension: extDir(t, grantsManifest, printing(head))})
		if exitcode.Of(err) != exitcode.Rejected || res.Report == nil || res.Report.Outcome != "extension-failed" {
			t.Fatalf("%d %v %+v", exitcode.Of(err), err, res.Report)
		}
	})

	// Refused before anything ran: usage, no report, the script's
	// marker never written.
	marker := filepath.Join(t.TempDir(), "ran")
	touch := "touch " + marker + "\n" + printing(inside)
	caps, _ := capability.ParseSet("net.http")
	bare := script(t, t.TempDir(), "bare", touch)
	for name, o := range map[string]Options{
		"no such extension":         {Extension: filepath.Join(t.TempDir(), "missing")},
		"--caps with a manifest":    {Extension: extDir(t, grantsManifest, touch), Caps: &caps},
		"native under --dry-run":    {Extension: bare, DryRun: true},
		"a request that is not one": {Extension: bare, RequestFile: "-", Stdin: strings.NewReader("{}")},
	} {
		res, err, _ := run(t, o)
		if exitcode.Of(err) != exitcode.Usage || res.Report != nil || !strings.HasPrefix(err.Error(), "ext run: ") {
			t.Errorf("%s: %d %v %+v", name, exitcode.Of(err), err, res.Report)
		}
		if _, serr := os.Stat(marker); serr == nil {
			t.Fatalf("%s: the extension ran", name)
		}
	}
}

// The report describes a plan without its content: a size and sha256 for
// a body, header names without values, URLs without userinfo or query
// values; a dry run applies nothing and audits nothing.
func TestRunReportRedacts(t *testing.T) {
	p := `{"protocol":1,"intents":[` +
		`{"op":"write","path":"a","content":"aGk=","encoding":"base64","executable":true},` +
		`{"op":"fetch","url":"https://example.org/x?token=s3cr3t&hunter2","dest":"b","headers":{"X-Key":"v4lue","Accept":"*/*"}},` +
		`{"op":"clone","url":"https://example.org/r.git?sig=t0kv4l","dest":"c","ref":"v1","depth":1}]}`
	home, root := t.TempDir(), t.TempDir()
	caps, _ := capability.ParseSet("net.http,net.git")
	res, err, notes := run(t, Options{Extension: script(t, t.TempDir(), "src", printing(p)), Home: home, Root: root, DryRun: true, TrustNative: true, Caps: &caps})
	if err != nil || res.Report == nil || res.Report.Outcome != "dry-run" || res.Applied.Outcome != pipeline.OutcomeDryRun {
		t.Fatalf("%v %+v", err, res.Report)
	}
	if len(notes) != 1 || notes[0].Kind != NoticeBare || notes[0].Name != "src" {
		t.Fatalf("notices %+v", notes)
	}
	b, _ := json.Marshal(res.Report)
	for _, secret := range []string{"hunter2", "s3cr3t", "v4lue", "t0kv4l", "aGk=", root, home} {
		if strings.Contains(string(b), secret) {
			t.Errorf("the report carries %q: %s", secret, b)
		}
	}
	w, f, c := res.Report.Intents[0], res.Report.Intents[1], res.Report.Intents[2]
	if w.Size == nil || *w.Size != 2 || w.SHA256 != "8f434346648f6b96df89dda901c5176b10a6d83961dd3c1ac88b59b2dc327aa4" || w.Encoding != "base64" || !w.Executable {
		t.Errorf("write %+v", w)
	}
	if f.URL != "https://example.org/x?token=redacted&redacted" || strings.Join(f.Headers, ",") != "Accept,X-Key" || f.Dest != "b" {
		t.Errorf("fetch %+v", f)
	}
	if c.URL != "https://example.org/r.git?sig=redacted" || c.Ref != "v1" || c.Depth != 1 {
		t.Errorf("clone %+v", c)
	}
	if len(tree(t, root)) != 0 {
		t.Fatalf("a dry run changed the tree: %v", tree(t, root))
	}
	if _, err := os.Stat(filepath.Join(home, audit.FileName)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a dry run wrote the audit log (%v)", err)
	}
}
