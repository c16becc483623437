package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lola-pm/lola/host/child"
	"github.com/lola-pm/lola/host/extrun"
	"github.com/lola-pm/lola/host/pipeline"
)

// TestExtRun drives `lola ext run` in-process through run(), against real
// native extensions: the program in testdata/extrun/fixture, built once and
// linked under one name per behaviour (it picks its behaviour from its name,
// since ext run passes it neither arguments nor the test's environment).
func TestExtRun(t *testing.T) {
	t.Setenv("LOLA_HOME", t.TempDir())
	fx := extRunFixtures(t)
	root := t.TempDir()
	// A file under root proves nothing touches the tree in a dry run; a/x
	// is what the fixture's rename moves.
	if err := os.WriteFile(filepath.Join(root, "keep"), []byte("before"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "a"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "a", "x"), []byte("moved"), 0o600); err != nil {
		t.Fatal(err)
	}
	defer extRunAssertTreeUnchanged(t, root)

	t.Run("plan-human", func(t *testing.T) {
		code, out, errOut := extRunLola(t, nil, "ext", "run", "--root", root, "--dry-run", "--trust-native", "--caps", "net.http,net.git", "-v", fx("good"))
		if code != exitOK {
			t.Fatalf("exit %d, stderr %s", code, errOut)
		}
		req := extRunDefaultRequest(t)
		sum := sha256.Sum256(req)
		for _, want := range []string{
			"extension good (native/tier2): plan of 6 intents, dry run, nothing applied",
			"write   echo/request.json  " + strconv.Itoa(len(req)) + " B  sha256:" + hex.EncodeToString(sum[:])[:12],
			"write   bin/tool  15 B  sha256:",
			"base64  executable",
			"delete  skills/old",
			"rename  a/x -> b/x",
			"fetch   https://example.org/x.tgz?sig=redacted -> vendor/x.tgz  headers: Accept",
			"clone   https://example.org/r.git -> vendor/r  ref v1.2.0  depth 1",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("stdout lacks %q:\n%s", want, out)
			}
		}
		for _, secret := range []string{"TOP-SECRET-BODY", "VE9QLVNFQ1JFVC1CT0RZ", "QUERY-SECRET", `"modules"`} {
			if strings.Contains(out+errOut, secret) {
				t.Errorf("output carries a content body or credential %q", secret)
			}
		}
		if !strings.Contains(errOut, "  | good: planned 6 intents") {
			t.Errorf("stderr diagnostics not shown: %q", errOut)
		}
	})

	t.Run("plan-json", func(t *testing.T) {
		code, out, errOut := extRunLola(t, nil, "ext", "run", "--root", root, "--dry-run", "--trust-native", "--caps", "net.http,net.git", "--json", fx("good"))
		if code != exitOK {
			t.Fatalf("exit %d, stderr %s", code, errOut)
		}
		rep := extRunDecodeReport(t, out)
		if rep.Outcome != "dry-run" || rep.Tier != "native/tier2" || rep.Child.Outcome.String() != "plan-received" || len(rep.Intents) != 6 {
			t.Fatalf("report %+v", rep)
		}
		if rep.Child.ExitStatus == nil || *rep.Child.ExitStatus != 0 || !rep.Child.Reaped {
			t.Fatalf("child %+v", rep.Child)
		}
		req := extRunDefaultRequest(t)
		sum := sha256.Sum256(req)
		w := rep.Intents[0]
		if w.Op != "write" || w.Size == nil || *w.Size != len(req) || w.SHA256 != hex.EncodeToString(sum[:]) {
			t.Fatalf("intent 0 %+v: the extension did not get the default request", w)
		}
		if strings.Contains(out, "TOP-SECRET-BODY") || strings.Contains(out, "VE9QLVNFQ1JFVC1CT0RZ") {
			t.Fatal("--json output carries a content body")
		}
	})

	t.Run("request-file", func(t *testing.T) {
		body := `{"protocol":1,"operation":"install","assistant":"claude-code","modules":[{"name":"m","files":[{"path":"SKILL.md","content":"x"}]}]}`
		file := filepath.Join(t.TempDir(), "req.json")
		if err := os.WriteFile(file, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		want := sha256.Sum256([]byte(body)) // already canonical
		for _, args := range [][]string{{"--request", file}, {"--request", "-"}} {
			code, out, errOut := extRunLola(t, strings.NewReader(body), append([]string{"ext", "run", "--root", root, "--dry-run", "--trust-native", "--caps", "net.http,net.git", "--json", fx("good")}, args...)...)
			if code != exitOK {
				t.Fatalf("%v: exit %d, stderr %s", args, code, errOut)
			}
			if got := extRunDecodeReport(t, out).Intents[0].SHA256; got != hex.EncodeToString(want[:]) {
				t.Fatalf("%v: the extension got another request (sha256 %s)", args, got)
			}
		}
		for name, bad := range map[string]string{
			"unknown field": `{"protocol":1,"operation":"install","modules":[],"extra":1}`,
			"protocol 2":    `{"protocol":2,"operation":"install","modules":[]}`,
			"operation":     `{"protocol":1,"operation":"format-disk","modules":[]}`,
			"trailing":      `{"protocol":1,"operation":"install","modules":[]} {}`,
			"not json":      `modules: []`,
		} {
			code, _, errOut := extRunLola(t, strings.NewReader(bad), "ext", "run", "--root", root, "--dry-run", "--trust-native", "--caps", "net.http,net.git", "--request", "-", fx("good"))
			if code != exitUsage || !strings.Contains(errOut, "--request") {
				t.Errorf("%s: exit %d (%s), want %d", name, code, errOut, exitUsage)
			}
		}
	})

	t.Run("usage", func(t *testing.T) {
		notExec := filepath.Join(t.TempDir(), "plain")
		wasm := filepath.Join(t.TempDir(), "ext.wasm")
		for _, p := range []string{notExec, wasm} {
			if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		cases := map[string][]string{
			"native dry run, untrusted": {"ext", "run", "--root", root, "--dry-run", fx("good")},
			"unknown capability":        {"ext", "run", "--root", root, "--dry-run", "--trust-native", "--caps", "fs.write", fx("good")},
			"no --root":                 {"ext", "run", "--dry-run", "--trust-native", "--caps", "net.http,net.git", fx("good")},
			"root not a dir":            {"ext", "run", "--root", fx("good"), "--dry-run", "--trust-native", "--caps", "net.http,net.git", fx("good")},
			"missing ext":               {"ext", "run", "--root", root, "--dry-run", "--trust-native", "--caps", "net.http,net.git", filepath.Join(root, "nope")},
			"ext is a dir":              {"ext", "run", "--root", root, "--dry-run", "--trust-native", "--caps", "net.http,net.git", root},
			"zero timeout":              {"ext", "run", "--root", root, "--dry-run", "--trust-native", "--caps", "net.http,net.git", "--timeout", "0s", fx("good")},
			"two extensions":            {"ext", "run", "--root", root, "--dry-run", "--trust-native", "--caps", "net.http,net.git", fx("good"), fx("good")},
			"missing request":           {"ext", "run", "--root", root, "--dry-run", "--trust-native", "--caps", "net.http,net.git", "--request", filepath.Join(root, "nope.json"), fx("good")},
		}
		if runtime.GOOS != "windows" {
			cases["not executable"] = []string{"ext", "run", "--root", root, "--dry-run", "--trust-native", "--caps", "net.http,net.git", notExec}
		}
		for name, args := range cases {
			if code, _, errOut := extRunLola(t, nil, args...); code != exitUsage {
				t.Errorf("%s: exit %d (%s), want %d", name, code, errOut, exitUsage)
			}
		}
		code, _, errOut := extRunLola(t, nil, "ext", "run", "--root", root, "--dry-run", fx("good"))
		if code != exitUsage || !strings.Contains(errOut, "--trust-native") {
			t.Errorf("a native extension under --dry-run: exit %d, %q", code, errOut)
		}
	})

	t.Run("help-teaches", func(t *testing.T) {
		code, out, _ := extRunLola(t, nil, "ext", "run", "--help")
		for _, want := range []string{"Examples:", "lola ext run --root . --dry-run ./dist/my-target.wasm", "--trust-native", "--request", "--caps", "--timeout", "Exit codes:"} {
			if code != exitOK || !strings.Contains(out, want) {
				t.Errorf("--help (exit %d) lacks %q", code, want)
			}
		}
	})

	t.Run("hostile-strings-escaped", func(t *testing.T) {
		code, out, errOut := extRunLola(t, nil, "ext", "run", "--root", root, "--dry-run", "--trust-native", "--caps", "net.http,net.git", fx("hostile"))
		// The plan is shown, then refused: a control character in a path.
		if code != exitRejected || !strings.Contains(errOut, "path.invalid: intent #0 (delete)") {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		if strings.ContainsRune(out+errOut, 0x1b) {
			t.Fatalf("an escape sequence from the extension reached the terminal: %q %q", out, errOut)
		}
		if !strings.Contains(out, `delete  evil\x1b[2Jpath`) || !strings.Contains(errOut, `  | \x1b[31mlola: all good`) {
			t.Fatalf("hostile strings not shown escaped: %q %q", out, errOut)
		}
	})

	t.Run("environment-minimal", func(t *testing.T) {
		t.Setenv("LOLA_TEST_SECRET_TOKEN", "s3cr3t")
		code, _, errOut := extRunLola(t, nil, "ext", "run", "--root", root, "--dry-run", "--trust-native", "--caps", "net.http,net.git", "-v", fx("env"))
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		if strings.Contains(errOut, "s3cr3t") {
			t.Fatal("the host's environment leaked to the extension")
		}
		if _, ok := os.LookupEnv("PATH"); ok && !strings.Contains(errOut, "| PATH=") {
			t.Fatalf("PATH not passed: %q", errOut)
		}
	})

	// The child lifecycle cases: each exits 4 (3 for a policy refusal) and
	// returns within the deadline plus the grace.
	const timeout = time.Second
	lifecycle := []struct {
		fixture, rule, childOutcome string
		code                        int
	}{
		{"hold", "", "killed-deadline", exitExtension},
		{"setsid", "", "killed-deadline", exitExtension},
		{"exit3", "", "exit-non-zero", exitExtension},
		{"garbage", "plan.malformed", "plan-refused", exitExtension},
		{"many", "plan.too-many-intents", "killed-stdout-bound", exitExtension},
		{"post", "remote.method", "plan-refused", exitRejected},
	}
	for _, c := range lifecycle {
		t.Run("lifecycle-"+c.fixture, func(t *testing.T) {
			start := time.Now()
			code, out, errOut := extRunLola(t, nil, "ext", "run", "--root", root, "--dry-run", "--trust-native", "--caps", "net.http,net.git", "--json",
				"--timeout", timeout.String(), fx(c.fixture))
			wall := time.Since(start)
			rep := extRunDecodeReport(t, out)
			extRunKillDescendant(t, rep.Child.Diagnostics)
			if code != c.code {
				t.Fatalf("exit %d, want %d (stderr %s)", code, c.code, errOut)
			}
			if wall > timeout+child.DefaultGrace {
				t.Fatalf("returned after %s, past the deadline plus grace %s", wall, timeout+child.DefaultGrace)
			}
			if rep.Outcome != "extension-failed" || rep.Child.Outcome.String() != c.childOutcome || len(rep.Intents) != 0 {
				t.Fatalf("report %+v", rep)
			}
			if c.rule != "" && (len(rep.Violations) != 1 || rep.Violations[0].Rule.String() != c.rule) {
				t.Fatalf("violations %+v, want %s", rep.Violations, c.rule)
			}
			if !strings.Contains(errOut, "nothing applied") {
				t.Fatalf("stderr %q does not say nothing was applied", errOut)
			}
		})
	}

	t.Run("stderr-flood", func(t *testing.T) {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		code, out, errOut := extRunLola(t, nil, "ext", "run", "--root", root, "--dry-run", "--trust-native", "--caps", "net.http,net.git", "--json", fx("flood"))
		runtime.ReadMemStats(&after)
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		rep := extRunDecodeReport(t, out)
		if len(rep.Intents) != 1 || !rep.Child.DiagnosticsTruncated || !strings.Contains(rep.Child.Diagnostics, "[lola: output truncated]") {
			t.Fatalf("plan kept %d intents, truncated %v", len(rep.Intents), rep.Child.DiagnosticsTruncated)
		}
		if len(rep.Child.Diagnostics) > pipeline.NativeStderrCap+128 {
			t.Fatalf("diagnostics %d bytes, cap %d", len(rep.Child.Diagnostics), pipeline.NativeStderrCap)
		}
		// 300 MiB went through stderr; holding it would allocate that much.
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
			t.Fatalf("lola allocated %d bytes for a 300 MiB stderr flood", alloc)
		}
	})
}

// extRunFixtures builds testdata/extrun/fixture once and returns a function
// giving the path of a link to it named after a behaviour.
func extRunFixtures(t *testing.T) func(name string) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		goTool = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	dir := t.TempDir()
	exe := ""
	if runtime.GOOS == "windows" {
		exe = ".exe"
	}
	bin := filepath.Join(dir, "fixture"+exe)
	build := exec.Command(goTool, "build", "-o", bin, "./testdata/extrun/fixture")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the fixture: %v\n%s", err, out)
	}
	made := map[string]string{}
	return func(name string) string {
		if p, ok := made[name]; ok {
			return p
		}
		p := filepath.Join(dir, name+exe)
		if err := os.Link(bin, p); err != nil {
			t.Fatalf("linking fixture %s: %v", name, err)
		}
		made[name] = p
		return p
	}
}

func extRunLola(t *testing.T, stdin io.Reader, args ...string) (int, string, string) {
	t.Helper()
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	var out, errOut bytes.Buffer
	code := run(args, stdin, &out, &errOut)
	return code, out.String(), errOut.String()
}

func extRunDecodeReport(t *testing.T, out string) extRunReport {
	t.Helper()
	var rep extRunReport
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rep); err != nil {
		t.Fatalf("stdout is not one report object: %v\n%s", err, out)
	}
	return rep
}

func extRunDefaultRequest(t *testing.T) []byte {
	t.Helper()
	req, err := extrun.LoadRequest("", nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"protocol":1,"operation":"generate","modules":[]}` {
		t.Fatalf("default request %s", b)
	}
	return b
}

var extRunDescendantPid = regexp.MustCompile(`descendant pid=(\d+)`)

// extRunKillDescendant ends, by the pid it reported, the process a setsid fixture
// left behind; the host's containment of it is issue 8's.
func extRunKillDescendant(t *testing.T, diagnostics string) {
	m := extRunDescendantPid.FindStringSubmatch(diagnostics)
	if m == nil {
		return
	}
	pid, _ := strconv.Atoi(m[1])
	if p, err := os.FindProcess(pid); err == nil && pid > 0 {
		_ = p.Kill()
		_ = p.Release()
	}
}

func extRunAssertTreeUnchanged(t *testing.T, root string) {
	t.Helper()
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name()) // the executor leaves no lock file

	}
	if strings.Join(names, " ") != "a keep" {
		t.Fatalf("the dry runs changed the tree: %v", names)
	}
	for file, want := range map[string]string{"keep": "before", "a/x": "moved"} {
		if b, err := os.ReadFile(filepath.Join(root, file)); err != nil || string(b) != want {
			t.Fatalf("the dry runs changed %s: %q %v", file, b, err)
		}
	}
}
