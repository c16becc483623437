package lolatest

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/lola-pm/lola/schema"
	lola "github.com/lola-pm/lola/sdk-go"
	"github.com/lola-pm/lola/sdk-go/managed"
)

var update = flag.Bool("update", false, "rewrite testdata/*.plan.json from the current output (review the diff)")

// Case is one golden case: a request and either the plan it must yield or
// a text its error must contain.
type Case struct {
	Name     string // the file stem: <dir>/<Name>.request.json
	Request  []byte // the request's bytes
	PlanPath string // <dir>/<Name>.plan.json; empty for a failure case
	ErrText  string // the trimmed content of <dir>/<Name>.error.txt; empty for a success case
}

// Cases reads every <dir>/*.request.json, in lexical order. A case with an
// <name>.error.txt is a failure case; any other must have a plan golden.
// No request at all fails t: a harness over nothing would pass vacuously.
func Cases(t testing.TB, dir string) []Case {
	t.Helper()
	reqs, err := filepath.Glob(filepath.Join(dir, "*.request.json"))
	if err != nil || len(reqs) == 0 {
		t.Fatalf("no %s/*.request.json", dir)
	}
	var out []Case
	for _, r := range reqs {
		name := strings.TrimSuffix(filepath.Base(r), ".request.json")
		c := Case{Name: name, Request: mustRead(t, r), PlanPath: filepath.Join(dir, name+".plan.json")}
		if b, err := os.ReadFile(filepath.Join(dir, name+".error.txt")); err == nil {
			c.ErrText, c.PlanPath = strings.TrimSpace(string(b)), ""
		}
		out = append(out, c)
	}
	return out
}

// Golden runs the registered handler in-process (lola.Process) on every
// case of dir. A failure case must end in lola.StatusHandlerError with an
// error containing its text; a success case's plan must pass every check
// the host makes before applying a plan (the host's own code, with the
// capabilities and path grant of the lola-extension.yaml in the package
// directory, under every path-equality relation: see hostCheck), must
// yield exactly its plan golden, in Indent's form, and the golden must
// validate against the protocol's plan.schema.json. With -update the plan
// goldens are rewritten, but only for plans the host accepts.
func Golden(t *testing.T, dir string) {
	t.Helper()
	s := planSchema(t)
	ext := loadManifest(t, ".")
	for _, c := range Cases(t, dir) {
		t.Run(c.Name, func(t *testing.T) {
			plan, status, err := lola.Process(c.Request)
			if c.ErrText != "" {
				if status != lola.StatusHandlerError || err == nil || !strings.Contains(err.Error(), c.ErrText) {
					t.Fatalf("status %s err %v, want a handler error containing %q", status, err, c.ErrText)
				}
				return
			}
			if status != lola.StatusOK {
				t.Fatalf("status %s: %v", status, err)
			}
			if err := hostCheck(ext, c.Request, plan); err != nil {
				t.Fatal(err)
			}
			got, err := Indent(plan)
			if err != nil {
				t.Fatal(err)
			}
			if *update {
				if err := os.WriteFile(c.PlanPath, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want := mustRead(t, c.PlanPath)
			if !bytes.Equal(got, want) {
				t.Fatalf("plan differs from %s\n got %s\nwant %s", c.PlanPath, got, want)
			}
			v, err := jsonschema.UnmarshalJSON(bytes.NewReader(want))
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Validate(v); err != nil {
				t.Fatalf("%s does not validate: %v", c.PlanPath, err)
			}
		})
	}
}

// KeepsUserText asserts, for every success case of dir whose request hands
// over a current managed file (the path file(req) names) holding lola's
// section, that the plan's write of that file keeps managed.UserText
// byte for byte. Fewer than atLeast such writes fails t, so the check
// cannot pass by having nothing to check.
func KeepsUserText(t *testing.T, dir string, file func(req *lola.Request) string, atLeast int) {
	t.Helper()
	checked := 0
	for _, c := range Cases(t, dir) {
		if c.ErrText != "" {
			continue
		}
		var req lola.Request
		if err := json.Unmarshal(c.Request, &req); err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		path := file(&req)
		cur, ok := current(t, &req, path)
		if !ok || !strings.Contains(cur, managed.SectionStart) {
			continue
		}
		out, status, err := lola.Process(c.Request)
		if status != lola.StatusOK {
			t.Fatalf("%s: %v", c.Name, err)
		}
		var p struct {
			Intents []struct{ Op, Path, Content string }
		}
		if err := json.Unmarshal(out, &p); err != nil {
			t.Fatal(err)
		}
		for _, in := range p.Intents {
			if in.Path == path && in.Op == "write" {
				if got, want := managed.UserText(in.Content), managed.UserText(cur); got != want {
					t.Errorf("%s: user text changed:\n got %q\nwant %q", c.Name, got, want)
				}
				checked++
			}
		}
	}
	if checked < atLeast {
		t.Fatalf("only %d goldens exercise a current managed file, want at least %d", checked, atLeast)
	}
}

// current is the content the request hands over for path, and whether it
// does.
func current(t testing.TB, req *lola.Request, path string) (string, bool) {
	t.Helper()
	for _, f := range req.Current {
		if f.Path == path {
			b, err := lola.Bytes(f)
			if err != nil {
				t.Fatalf("current %s: %v", path, err)
			}
			return string(b), true
		}
	}
	return "", false
}

// Indent is the golden files' form of a plan: the plan as the SDK emits
// it, one intent a line, each intent's bytes unchanged.
func Indent(plan []byte) ([]byte, error) {
	var p struct {
		Protocol int               `json:"protocol"`
		Intents  []json.RawMessage `json:"intents"`
	}
	if err := json.Unmarshal(plan, &p); err != nil {
		return nil, fmt.Errorf("plan is not JSON: %w", err)
	}
	if p.Protocol != schema.Protocol {
		return nil, fmt.Errorf("plan protocol %d, want %d", p.Protocol, schema.Protocol)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "{\"protocol\": %d, \"intents\": [", p.Protocol)
	for i, in := range p.Intents {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n  ")
		b.Write(in)
	}
	if len(p.Intents) > 0 {
		b.WriteString("\n")
	}
	b.WriteString("]}\n")
	return b.Bytes(), nil
}

// planSchema compiles plan.schema.json from the schema module the test
// builds against, wherever the go command finds it (workspace, replace or
// module cache), so the goldens are checked against the very protocol.
func planSchema(t testing.TB) *jsonschema.Schema {
	t.Helper()
	out, err := exec.Command(goTool(), "list", "-m", "-f", "{{.Dir}}", "github.com/lola-pm/lola/schema").Output()
	dir := strings.TrimSpace(string(out))
	if err != nil || dir == "" {
		t.Fatalf("cannot locate the schema module (go list -m): %v", err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(mustRead(t, filepath.Join(dir, "plan.schema.json"))))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("plan.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("plan.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func goTool() string { return filepath.Join(runtime.GOROOT(), "bin", "go") }

func mustRead(t testing.TB, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
