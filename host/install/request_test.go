package install

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/lola-pm/lola/host/pipeline"
	"github.com/lola-pm/lola/schema"
)

// recorderTarget is a native target that keeps the request it received in
// $REQUEST_OUT and writes (install) or deletes (uninstall) rec/x.
const recorderTarget = `#!/bin/sh
cat > "$REQUEST_OUT"
if grep -q '"operation":"uninstall"' "$REQUEST_OUT"; then
  printf '{"protocol":1,"intents":[{"op":"delete","path":"rec/x"}]}'
else
  printf '{"protocol":1,"intents":[{"op":"write","path":"rec/x","content":"x"}]}'
fi
`

// TestRequestIsTheBytesInstallAndUninstallSend: Request builds, without
// running anything, exactly the bytes Install and Uninstall then send the
// target: the module's files and inventory, the assistant and scope, and
// the managed file as it is under the root.
func TestRequestIsTheBytesInstallAndUninstallSend(t *testing.T) {
	e := newEnv(t)
	e.addModule(t, "demo", map[string]string{
		"skills/demo/SKILL.md": "---\nname: demo\ndescription: Demo\n---\nHello.\n",
		"commands/go.md":       "---\ndescription: Go\n---\nrun\n",
		"AGENTS.md":            "Be kind.\n",
	})
	script := filepath.Join(t.TempDir(), "recorder")
	if err := os.WriteFile(script, []byte(recorderTarget), 0o755); err != nil {
		t.Fatal(err)
	}
	e.addTarget(t, "recorder", map[string]string{"tier2": script}, "capabilities: []\npaths: [rec/, REC.md]\nmanaged: [REC.md]\n")
	if err := os.WriteFile(filepath.Join(e.project, "REC.md"), []byte("the user's text\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got := filepath.Join(t.TempDir(), "request.json")
	o := e.options("demo", "recorder")
	o.ExtraEnv = []string{"REQUEST_OUT=" + got}

	for _, op := range []schema.Operation{schema.OperationInstall, schema.OperationUninstall} {
		before := snapshot(t, e.project)
		req, err := Request(o, op)
		if err != nil {
			t.Fatal(err)
		}
		sameTree(t, "the project after Request", snapshot(t, e.project), before)
		want, err := pipeline.EncodeRequest(req)
		if err != nil {
			t.Fatal(err)
		}
		if req.Modules[0].Inventory == nil || len(req.Current) != 1 || req.Current[0].Content != "the user's text\n" || req.Assistant != "recorder" {
			t.Fatalf("%s request: %s", op, want)
		}
		run := Install
		if op == schema.OperationUninstall {
			run = Uninstall
		}
		rep, err := run(context.Background(), o)
		if err != nil || !rep.Applied() {
			t.Fatalf("%s: %v %+v", op, err, rep.Result)
		}
		if sent, _ := os.ReadFile(got); !bytes.Equal(sent, want) {
			t.Fatalf("%s sent\n%s\nRequest built\n%s", op, sent, want)
		}
	}
}

// TestRequestRefusesWhatInstallRefuses: an unknown module or target, and
// a managed file that is a symbolic link, refuse the request as the
// install would be refused, and nothing is written.
func TestRequestRefusesWhatInstallRefuses(t *testing.T) {
	e := newEnv(t)
	e.addModule(t, "demo", map[string]string{"skills/demo/SKILL.md": "Hello.\n"})
	script := filepath.Join(t.TempDir(), "recorder")
	os.WriteFile(script, []byte(recorderTarget), 0o755)
	e.addTarget(t, "recorder", map[string]string{"tier2": script}, "capabilities: []\npaths: [rec/, REC.md]\nmanaged: [REC.md]\n")
	if _, err := Request(e.options("ghost", "recorder"), schema.OperationInstall); err == nil {
		t.Fatal("a request for a module not in the store")
	}
	if _, err := Request(e.options("demo", "nobody"), schema.OperationInstall); err == nil {
		t.Fatal("a request for an unknown target")
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(e.project, "REC.md")); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, e.project)
	if _, err := Request(e.options("demo", "recorder"), schema.OperationInstall); err == nil {
		t.Fatal("a request read through a managed symbolic link")
	}
	sameTree(t, "the project", snapshot(t, e.project), before)
}
