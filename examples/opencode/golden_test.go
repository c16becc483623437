package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	lola "github.com/lola-pm/lola/sdk-go"
)

var update = flag.Bool("update", false, "rewrite testdata/*.plan.json from the current output (review the diff)")

// golden is one testdata case: a request and either the plan it must yield
// (<case>.plan.json) or a text its error must contain (<case>.error.txt).
type golden struct {
	name     string
	request  []byte
	planPath string
	errText  string
}

func goldens(t *testing.T) []golden {
	t.Helper()
	reqs, _ := filepath.Glob("testdata/*.request.json")
	if len(reqs) == 0 {
		t.Fatal("no testdata")
	}
	var out []golden
	for _, r := range reqs {
		name := strings.TrimSuffix(filepath.Base(r), ".request.json")
		g := golden{name: name, request: mustRead(t, r), planPath: filepath.Join("testdata", name+".plan.json")}
		if b, err := os.ReadFile(filepath.Join("testdata", name+".error.txt")); err == nil {
			g.errText, g.planPath = strings.TrimSpace(string(b)), ""
		}
		out = append(out, g)
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

// indent is the golden files' form: the canonical plan, one intent a line.
func indent(t testing.TB, plan []byte) []byte {
	t.Helper()
	var p struct {
		Protocol int               `json:"protocol"`
		Intents  []json.RawMessage `json:"intents"`
	}
	if err := json.Unmarshal(plan, &p); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	b.WriteString("{\"protocol\": 1, \"intents\": [")
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
	return b.Bytes()
}

func planSchema(t testing.TB) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(mustRead(t, "../../schema/plan.schema.json")))
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

// TestGolden runs the target in-process on every testdata request and
// compares the plan with the golden file, which is also checked against
// plan.schema.json. Run with -update to rewrite the goldens.
func TestGolden(t *testing.T) {
	s := planSchema(t)
	for _, g := range goldens(t) {
		t.Run(g.name, func(t *testing.T) {
			plan, status, err := lola.Process(g.request)
			if g.errText != "" {
				if status != lola.StatusHandlerError || err == nil || !strings.Contains(err.Error(), g.errText) {
					t.Fatalf("status %s err %v, want a handler error containing %q", status, err, g.errText)
				}
				return
			}
			if status != lola.StatusOK {
				t.Fatalf("status %s: %v", status, err)
			}
			got := indent(t, plan)
			if *update {
				if err := os.WriteFile(g.planPath, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want := mustRead(t, g.planPath)
			if !bytes.Equal(got, want) {
				t.Fatalf("plan differs from %s\n got %s\nwant %s", g.planPath, got, want)
			}
			v, err := jsonschema.UnmarshalJSON(bytes.NewReader(want))
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Validate(v); err != nil {
				t.Fatalf("%s does not validate: %v", g.planPath, err)
			}
		})
	}
}

// outsideSection is doc without lola's instructions section (markers
// included): the user's text.
func outsideSection(doc string) string {
	s, e := strings.Index(doc, sectionStart), strings.Index(doc, sectionEnd)
	if s < 0 || e < s {
		return doc
	}
	return doc[:s] + doc[e+len(sectionEnd):]
}

// TestGoldenKeepsUserTextByteForByte: for every golden whose request hands
// over a current managed file, the plan rewrites that file with the text
// outside lola's section unchanged.
func TestGoldenKeepsUserTextByteForByte(t *testing.T) {
	checked := 0
	for _, g := range goldens(t) {
		if g.errText != "" {
			continue
		}
		var req lola.Request
		if err := json.Unmarshal(g.request, &req); err != nil {
			t.Fatal(err)
		}
		file := instructionsPath(req.Scope)
		cur, ok, err := currentContent(&req, file)
		if err != nil || !ok || !strings.Contains(cur, sectionStart) {
			continue
		}
		out, status, err := lola.Process(g.request)
		if status != lola.StatusOK {
			t.Fatalf("%s: %v", g.name, err)
		}
		var p struct {
			Intents []struct{ Op, Path, Content string }
		}
		if err := json.Unmarshal(out, &p); err != nil {
			t.Fatal(err)
		}
		for _, in := range p.Intents {
			if in.Path == file && in.Op == "write" {
				if got, want := outsideSection(in.Content), outsideSection(cur); got != want {
					t.Errorf("%s: user text changed:\n got %q\nwant %q", g.name, got, want)
				}
				checked++
			}
		}
	}
	if checked < 2 {
		t.Fatalf("only %d goldens exercise a current managed file", checked)
	}
}
