package lola_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

const vectorsDir = "../schema/vectors/requests"

// vector is one request with exactly one expectation.
type vector struct {
	name    string
	request []byte
	plan    []byte // expected plan, or nil
	failure *struct {
		Status int32  `json:"status"`
		Rule   string `json:"rule"`
	}
}

func loadVectors(t *testing.T) []vector {
	t.Helper()
	reqs, err := filepath.Glob(filepath.Join(vectorsDir, "*.request.json"))
	if err != nil || len(reqs) == 0 {
		t.Fatalf("no request vectors in %s (%v)", vectorsDir, err)
	}
	var out []vector
	for _, r := range reqs {
		name := strings.TrimSuffix(filepath.Base(r), ".request.json")
		v := vector{name: name, request: mustRead(t, r)}
		planPath := filepath.Join(vectorsDir, name+".plan.json")
		failPath := filepath.Join(vectorsDir, name+".failure.json")
		_, planErr := os.Stat(planPath)
		_, failErr := os.Stat(failPath)
		switch {
		case planErr == nil && failErr == nil:
			t.Fatalf("vector %s has both a plan and a failure", name)
		case planErr == nil:
			v.plan = mustRead(t, planPath)
		case failErr == nil:
			if err := json.Unmarshal(mustRead(t, failPath), &v.failure); err != nil {
				t.Fatalf("%s: %v", failPath, err)
			}
		default:
			t.Fatalf("vector %s has no expectation", name)
		}
		out = append(out, v)
	}
	return out
}

func mustRead(t testing.TB, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// canonical re-encodes a JSON value with sorted keys, so that two values
// compare equal exactly when their JSON values are equal.
func canonical(t testing.TB, b []byte) string {
	t.Helper()
	var v any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func planSchema(t testing.TB) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(mustRead(t, "../schema/plan.schema.json")))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.AddResource("plan.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("plan.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func validatePlan(t testing.TB, s *jsonschema.Schema, plan []byte) {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(plan))
	if err != nil {
		t.Fatalf("plan is not JSON: %v", err)
	}
	if err := s.Validate(v); err != nil {
		t.Fatalf("plan does not validate against plan.schema.json: %v", err)
	}
}

// builds holds the fixture built once per test binary for both tiers.
var builds struct {
	once         sync.Once
	dir          string
	native, wasm string
	err          error
}

func buildFixture(t testing.TB) (native, wasm string) {
	t.Helper()
	builds.once.Do(func() {
		builds.dir, builds.err = os.MkdirTemp("", "lola-sdk-go-fixture-")
		if builds.err != nil {
			return
		}
		builds.native = filepath.Join(builds.dir, "fixture")
		builds.wasm = filepath.Join(builds.dir, "fixture.wasm")
		builds.err = goBuild(builds.native, nil, "-trimpath", "-ldflags=-s -w", "./internal/fixture")
		if builds.err == nil {
			builds.err = goBuild(builds.wasm, []string{"GOOS=wasip1", "GOARCH=wasm"}, "-buildmode=c-shared", "-trimpath", "-ldflags=-s -w", "./internal/fixture")
		}
	})
	if builds.err != nil {
		t.Fatal(builds.err)
	}
	return builds.native, builds.wasm
}

func goBuild(out string, env []string, args ...string) error {
	cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), append([]string{"build", "-o", out}, args...)...)
	cmd.Env = append(append(os.Environ(), "CGO_ENABLED=0"), env...)
	if b, err := cmd.CombinedOutput(); err != nil {
		return errors.New("go build " + strings.Join(args, " ") + ": " + err.Error() + "\n" + string(b))
	}
	return nil
}

func TestMain(m *testing.M) {
	strayMainIfAsked()
	code := m.Run()
	if builds.dir != "" {
		os.RemoveAll(builds.dir)
	}
	os.Exit(code)
}

// TestFixtureVectors runs the fixture, built natively (tier 2) and as a
// wasip1 reactor (tier 1, through the in-test ABI driver), on every request
// vector: each plan validates against the schema and equals the expected
// plan, both tiers emit byte-identical plans, and failures have the
// expected status and rule.
func TestFixtureVectors(t *testing.T) {
	native, wasm := buildFixture(t)
	schema := planSchema(t)
	driver := newABIDriver(t, mustRead(t, wasm))
	for _, v := range loadVectors(t) {
		t.Run(v.name, func(t *testing.T) {
			cmd := exec.Command(native)
			cmd.Stdin = bytes.NewReader(v.request)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			runErr := cmd.Run()
			nativeStatus := int32(0)
			var exit *exec.ExitError
			if errors.As(runErr, &exit) {
				nativeStatus = int32(exit.ExitCode())
			} else if runErr != nil {
				t.Fatal(runErr)
			}

			in := driver.instantiate(t)
			wasmPlan, wasmStatus, err := in.run(v.request)
			if err != nil {
				t.Fatalf("tier 1: %v", err)
			}

			if v.failure != nil {
				for tier, got := range map[string]struct {
					status int32
					out    []byte
					stderr string
				}{
					"tier 1": {wasmStatus, wasmPlan, in.stderr.String()},
					"tier 2": {nativeStatus, stdout.Bytes(), stderr.String()},
				} {
					if got.status != v.failure.Status || len(got.out) != 0 {
						t.Fatalf("%s: status %d with %d plan bytes, want status %d and no plan", tier, got.status, len(got.out), v.failure.Status)
					}
					if !strings.Contains(got.stderr, v.failure.Rule) {
						t.Fatalf("%s: stderr %q does not name %q", tier, got.stderr, v.failure.Rule)
					}
				}
				return
			}
			if nativeStatus != 0 || wasmStatus != 0 {
				t.Fatalf("status: tier 2 %d (%s), tier 1 %d (%s)", nativeStatus, stderr.String(), wasmStatus, in.stderr.String())
			}
			if !bytes.Equal(stdout.Bytes(), wasmPlan) {
				t.Fatalf("tier parity: plans differ\ntier 2 %s\ntier 1 %s", stdout.Bytes(), wasmPlan)
			}
			validatePlan(t, schema, wasmPlan)
			if got, want := canonical(t, wasmPlan), canonical(t, v.plan); got != want {
				t.Fatalf("plan\n got %s\nwant %s", got, want)
			}
		})
	}
}

func goVersionM(bin string) (string, error) {
	out, err := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "version", "-m", bin).CombinedOutput()
	return string(out), err
}
