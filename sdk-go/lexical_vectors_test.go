package lola

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lola-pm/lola/schema"
)

const planVectors = "../schema/vectors"

// lexicalRules are the invalid/ directories whose verdict the guest can
// reach: rules decided from one intent's text. The others (decoding, bounds,
// conflicts) concern bytes or whole plans the builder never produces.
var lexicalRules = []schema.Rule{
	schema.RulePathAbsolute, schema.RulePathTraversal, schema.RulePathInvalid,
	schema.RuleRemoteScheme, schema.RuleRemoteMethod, schema.RuleRemoteURL, schema.RuleRemoteHeader,
	schema.RulePlanEncoding,
}

// notExpressible are invalid vectors whose fault the builder's Go API
// cannot state, so there is nothing for it to refuse.
var notExpressible = map[string]string{
	"plan.encoding/encoding-empty.json": `"encoding": "" is the Go zero value, which WriteFile reads as utf8`,
}

// replay adds one decoded plan intent to p through the public builder.
func replay(p *Plan, raw json.RawMessage) error {
	var in struct {
		Op         schema.Op
		Path       string
		Content    string
		Encoding   *string
		Executable bool
		From, To   string
		URL        string
		Dest       string
		Method     *string
		Headers    map[string]string
		Ref        string
		Depth      int
	}
	if err := json.Unmarshal(raw, &in); err != nil {
		return err
	}
	switch in.Op {
	case schema.OpWrite:
		var opts []WriteOption
		if in.Executable {
			opts = append(opts, Executable)
		}
		if in.Encoding == nil {
			return p.Write(in.Path, in.Content, opts...)
		}
		return p.WriteFile(in.Path, File{Path: in.Path, Content: in.Content, Encoding: schema.Encoding(*in.Encoding)}, opts...)
	case schema.OpDelete:
		return p.Delete(in.Path)
	case schema.OpRename:
		return p.Rename(in.From, in.To)
	case schema.OpFetch:
		var opts []FetchOption
		if in.Method != nil {
			opts = append(opts, Method(*in.Method))
		}
		for k, v := range in.Headers {
			opts = append(opts, Header(k, v))
		}
		return p.Fetch(in.URL, in.Dest, opts...)
	case schema.OpClone:
		return p.Clone(in.URL, in.Dest, in.Ref, in.Depth)
	}
	return errors.New("unknown op " + string(in.Op))
}

func replayFile(t *testing.T, file string) error {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var plan struct{ Intents []json.RawMessage }
	if err := json.Unmarshal(b, &plan); err != nil {
		t.Fatalf("%s does not decode leniently: %v", file, err)
	}
	var p Plan
	for _, in := range plan.Intents {
		if err := replay(&p, in); err != nil {
			return err
		}
	}
	return nil
}

// TestBuilderAgreesWithPlanVectors holds the guest's lexical rules to the
// host's shared vectors: the builder accepts every intent of every valid
// plan (an SDK must never refuse what the host accepts) and refuses every
// lexical invalid vector with exactly the vector's rule.
func TestBuilderAgreesWithPlanVectors(t *testing.T) {
	valid, _ := filepath.Glob(filepath.Join(planVectors, "valid", "*.json"))
	if len(valid) == 0 {
		t.Fatal("no valid plan vectors")
	}
	for _, f := range valid {
		if err := replayFile(t, f); err != nil {
			t.Errorf("valid/%s refused by the builder: %v", filepath.Base(f), err)
		}
	}
	checked := 0
	for _, rule := range lexicalRules {
		files, _ := filepath.Glob(filepath.Join(planVectors, "invalid", rule.String(), "*.json"))
		for _, f := range files {
			name := rule.String() + "/" + filepath.Base(f)
			err := replayFile(t, f)
			if why, skip := notExpressible[name]; skip {
				if err != nil {
					t.Errorf("%s is listed as not expressible (%s) but the builder refused it: %v", name, why, err)
				}
				continue
			}
			checked++
			if !errors.Is(err, RuleError(rule)) {
				t.Errorf("invalid/%s: builder says %v, want %s", name, err, rule)
			}
			if err != nil && strings.Contains(err.Error(), "not-a-secret") {
				t.Errorf("invalid/%s: diagnostic carries a header value", name)
			}
		}
	}
	if checked < 50 {
		t.Fatalf("only %d lexical invalid vectors checked", checked)
	}
}
