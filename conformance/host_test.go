package conformance

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

var (
	lolaOnce sync.Once
	lolaBin  string
	lolaErr  error
	lolaLog  string
)

// lola builds the real lola binary once per test run.
func lola(t testing.TB) string {
	t.Helper()
	lolaOnce.Do(func() {
		lolaBin = filepath.Join(workDir, "lola")
		lolaLog, lolaErr = run(filepath.Join(repoRoot(t), "cmd"), nil, "go", "build", "-o", lolaBin, "./lola")
	})
	if lolaErr != nil {
		t.Fatalf("building lola: %v\n%s", lolaErr, lolaLog)
	}
	return lolaBin
}

// hostReport is the part of `lola ext run --json` these tests read.
type hostReport struct {
	Tier    string `json:"tier"`
	Outcome string `json:"outcome"`
	Child   struct {
		Outcome     string `json:"outcome"`
		ExitStatus  *int   `json:"exit_status"`
		Diagnostics string `json:"diagnostics"`
	} `json:"child"`
	Shim *struct {
		Kind string `json:"kind"`
		Code string `json:"code"`
	} `json:"shim"`
	Intents []json.RawMessage `json:"intents"`
}

// runThroughHost runs an artifact through `lola ext run --dry-run --json`,
// tier 1 via the shim and tier 2 via the child lifecycle.
func runThroughHost(t testing.TB, artifact, request string) (hostReport, int) {
	t.Helper()
	home := filepath.Join(workDir, "home")
	root := t.TempDir()
	// The root holds the request's current managed files, as the host
	// hands over what is there: a compare-and-swap write (if_content) is
	// checked against them.
	seeded := seedCurrent(t, root, request)
	defer assertNothingLeft(t, root, seeded)
	args := []string{"ext", "run", "--root", root, "--dry-run", "--json", "--fs", "bytes", "--request", request}
	if !strings.HasSuffix(artifact, ".wasm") {
		args = append(args, "--trust-native")
	}
	cmd := exec.Command(lola(t), append(args, artifact)...)
	cmd.Env = append(os.Environ(), "LOLA_HOME="+home)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	var rep hostReport
	if code == 2 {
		rep.Outcome = "usage: " + errOut.String()
		return rep, code
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("exit %d, not a report: %v\n%s\n%s", code, err, out.Bytes(), errOut.Bytes())
	}
	return rep, code
}

// seedCurrent writes the request file's current files beneath root and
// returns them (root-relative path -> content).
func seedCurrent(t testing.TB, root, request string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(request)
	if err != nil {
		t.Fatal(err)
	}
	var req struct {
		Current []struct{ Path, Content, Encoding string } `json:"current"`
	}
	if err := json.Unmarshal(b, &req); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, f := range req.Current {
		body := []byte(f.Content)
		if f.Encoding == "base64" {
			if body, err = base64.StdEncoding.DecodeString(f.Content); err != nil {
				t.Fatal(err)
			}
		}
		p := filepath.Join(root, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, body, 0o644); err != nil {
			t.Fatal(err)
		}
		out[f.Path] = string(body)
	}
	return out
}

// assertNothingLeft fails when a dry run left anything under root but the
// seeded files, as they were (the executor creates no lock file and a dry
// run no staging).
func assertNothingLeft(t testing.TB, root string, seeded map[string]string) {
	t.Helper()
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || p == root {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			for s := range seeded {
				if strings.HasPrefix(s, rel+"/") {
					return nil
				}
			}
		} else if body, ok := seeded[rel]; ok {
			if b, err := os.ReadFile(p); err != nil || string(b) != body {
				t.Errorf("a dry run changed %s under the root", rel)
			}
			return nil
		}
		t.Errorf("a dry run left %s under the root", rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// describeExpected renders an expected plan's intents the way the host
// report describes them (op, path, size and sha256 of decoded content,
// encoding), so the vector can be compared with what the host received.
func describeExpected(t *testing.T, plan []byte) []string {
	t.Helper()
	var p struct {
		Intents []struct {
			Op, Path, Content, Encoding string
		}
	}
	if err := json.Unmarshal(plan, &p); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, in := range p.Intents {
		switch in.Op {
		case "write":
			body := []byte(in.Content)
			enc := in.Encoding
			if enc == "base64" {
				b, err := base64.StdEncoding.DecodeString(in.Content)
				if err != nil {
					t.Fatal(err)
				}
				body = b
			} else {
				enc = "utf8"
			}
			sum := sha256.Sum256(body)
			out = append(out, strings.Join([]string{"write", in.Path, hex.EncodeToString(sum[:]), enc}, " "))
		default:
			out = append(out, in.Op+" "+in.Path)
		}
	}
	return out
}

func describeReported(t *testing.T, intents []json.RawMessage) []string {
	t.Helper()
	var out []string
	for _, raw := range intents {
		var in struct {
			Op, Path, SHA256, Encoding string
		}
		if err := json.Unmarshal(raw, &in); err != nil {
			t.Fatal(err)
		}
		if in.Op == "write" {
			out = append(out, strings.Join([]string{"write", in.Path, in.SHA256, in.Encoding}, " "))
		} else {
			out = append(out, in.Op+" "+in.Path)
		}
	}
	return out
}

// TestTierParityThroughTheHost is the proof that promotion is a recompile:
// each SDK's fixture, built both ways, run through the real host on every
// request vector, yields the same plan in both tiers — and the vector's.
func TestTierParityThroughTheHost(t *testing.T) {
	vectors := loadRequestVectors(t)
	for _, p := range fixtures {
		t.Run(p.lang, func(t *testing.T) {
			fx := build(t, p)
			for _, v := range vectors {
				t.Run(v.name, func(t *testing.T) {
					one, code1 := runThroughHost(t, fx.wasm, v.request)
					two, code2 := runThroughHost(t, fx.native, v.request)
					if requestProtocol(t, v.request) != 1 {
						// The host refuses a request it does not speak before
						// launching anything; the SDKs' own refusal of it is
						// TestNativeFixturesMatchVectors' (and sdk-go's wasm tests').
						if code1 != 2 || code2 != 2 || !strings.Contains(one.Outcome, "protocol") {
							t.Fatalf("exit codes %d and %d (%s), want 2: the host refuses the request", code1, code2, one.Outcome)
						}
						return
					}
					if one.Tier != "wasm/tier1" || two.Tier != "native/tier2" {
						t.Fatalf("tiers %q and %q", one.Tier, two.Tier)
					}
					if v.wantPlan == nil {
						if code1 != 4 || code2 != 4 {
							t.Fatalf("exit codes %d and %d, want 4 (extension failed)", code1, code2)
						}
						want := "guest-status-" + strconvItoa(v.status)
						if one.Shim == nil || one.Shim.Code != want {
							t.Fatalf("tier 1 shim report %+v, want %s", one.Shim, want)
						}
						if two.Child.ExitStatus == nil || *two.Child.ExitStatus != v.status {
							t.Fatalf("tier 2 exit status %v, want %d", two.Child.ExitStatus, v.status)
						}
						if v.rule != "" && (!strings.Contains(one.Child.Diagnostics, v.rule) || !strings.Contains(two.Child.Diagnostics, v.rule)) {
							t.Fatalf("diagnostics do not name %s:\n tier 1: %q\n tier 2: %q", v.rule, one.Child.Diagnostics, two.Child.Diagnostics)
						}
						return
					}
					if code1 != 0 || code2 != 0 || one.Outcome != "dry-run" || two.Outcome != "dry-run" {
						t.Fatalf("exit %d/%d outcomes %q/%q\n tier 1: %s\n tier 2: %s", code1, code2, one.Outcome, two.Outcome, one.Child.Diagnostics, two.Child.Diagnostics)
					}
					d1, d2 := describeReported(t, one.Intents), describeReported(t, two.Intents)
					if strings.Join(d1, "\n") != strings.Join(d2, "\n") {
						t.Fatalf("tiers disagree\n tier 1: %q\n tier 2: %q", d1, d2)
					}
					if want := describeExpected(t, v.wantPlan); strings.Join(d1, "\n") != strings.Join(want, "\n") {
						t.Fatalf("plan differs from the vector\n got: %q\nwant: %q", d1, want)
					}
				})
			}
		})
	}
}

func requestProtocol(t *testing.T, file string) int {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var r struct{ Protocol int }
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return r.Protocol
}

func strconvItoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
