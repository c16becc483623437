package conformance

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// requestVector is one schema/vectors/requests/<name>.request.json with its
// one expectation: a plan, or a failure status (and rule).
type requestVector struct {
	name     string
	request  string // file path
	wantPlan []byte // nil for a failure vector
	status   int
	rule     string
}

func loadRequestVectors(t *testing.T) []requestVector {
	t.Helper()
	dir := filepath.Join(repoRoot(t), "schema/vectors/requests")
	reqs, err := filepath.Glob(filepath.Join(dir, "*.request.json"))
	if err != nil || len(reqs) == 0 {
		t.Fatalf("no request vectors in %s (%v)", dir, err)
	}
	sort.Strings(reqs)
	var out []requestVector
	for _, r := range reqs {
		name := strings.TrimSuffix(filepath.Base(r), ".request.json")
		v := requestVector{name: name, request: r}
		plan, perr := os.ReadFile(filepath.Join(dir, name+".plan.json"))
		fail, ferr := os.ReadFile(filepath.Join(dir, name+".failure.json"))
		switch {
		case perr == nil && ferr == nil:
			t.Fatalf("vector %s has both a plan and a failure expectation", name)
		case perr == nil:
			v.wantPlan = plan
		case ferr == nil:
			var f struct {
				Status int    `json:"status"`
				Rule   string `json:"rule"`
			}
			dec := json.NewDecoder(bytes.NewReader(fail))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&f); err != nil || f.Status == 0 {
				t.Fatalf("vector %s: bad failure file: %v", name, err)
			}
			v.status, v.rule = f.Status, f.Rule
		default:
			t.Fatalf("vector %s has no expectation", name)
		}
		out = append(out, v)
	}
	return out
}

// canonical re-encodes a JSON value with sorted keys and no insignificant
// whitespace, the comparison schema/vectors/requests/README.md defines.
func canonical(t *testing.T, b []byte) []byte {
	t.Helper()
	var v any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, b)
	}
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// runNative runs a tier-2 executable on a request file directly.
func runNative(t *testing.T, exe, request string) (stdout, stderr []byte, status int) {
	t.Helper()
	in, err := os.Open(request)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	var o, e bytes.Buffer
	cmd := exec.Command(exe)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = in, &o, &e
	err = cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return o.Bytes(), e.Bytes(), ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running %s: %v", exe, err)
	}
	return o.Bytes(), e.Bytes(), 0
}

func checkVector(t *testing.T, v requestVector, plan, stderr []byte, status int) {
	t.Helper()
	if v.wantPlan == nil {
		if status != v.status {
			t.Fatalf("status %d, want %d (stderr: %s)", status, v.status, stderr)
		}
		if len(bytes.TrimSpace(plan)) != 0 {
			t.Fatalf("a failed run emitted a plan: %s", plan)
		}
		if v.rule != "" && !bytes.Contains(stderr, []byte(v.rule)) {
			t.Fatalf("diagnostics do not name %s: %q", v.rule, stderr)
		}
		return
	}
	if status != 0 {
		t.Fatalf("status %d (stderr: %s)", status, stderr)
	}
	validatePlanSchema(t, plan)
	if got, want := canonical(t, plan), canonical(t, v.wantPlan); !bytes.Equal(got, want) {
		t.Fatalf("plan differs from the vector\n got: %s\nwant: %s", got, want)
	}
}

// TestNativeFixturesMatchVectors runs each SDK's tier-2 fixture on every
// request vector.
func TestNativeFixturesMatchVectors(t *testing.T) {
	vectors := loadRequestVectors(t)
	for _, p := range fixtures {
		t.Run(p.lang, func(t *testing.T) {
			fx := build(t, p)
			for _, v := range vectors {
				t.Run(v.name, func(t *testing.T) {
					plan, stderr, status := runNative(t, fx.native, v.request)
					checkVector(t, v, plan, stderr, status)
				})
			}
		})
	}
}
