package plan_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/plan"
	"github.com/lola-pm/lola/schema"
)

// plan10k is a 10 000-intent plan mixing every op in the proportions a
// target extension emits: mostly writes of a few hundred bytes.
func plan10k() []byte {
	var b strings.Builder
	b.WriteString(`{"protocol": 1, "intents": [`)
	body := strings.Repeat(`Some skill text, with \"quotes\" and caf\u00e9.\n`, 8)
	for i := 0; i < 10_000; i++ {
		if i > 0 {
			b.WriteString(",\n")
		}
		switch i % 10 {
		case 0:
			fmt.Fprintf(&b, `{"op": "delete", "path": "skills/old-%d"}`, i)
		case 1:
			fmt.Fprintf(&b, `{"op": "rename", "from": "a/%d", "to": "b/%d"}`, i, i)
		case 2:
			fmt.Fprintf(&b, `{"op": "write", "path": "bin/tool-%d", "content": "IyEvYmluL3NoCmVjaG8gaGkK", "encoding": "base64", "executable": true}`, i)
		case 3:
			fmt.Fprintf(&b, `{"op": "fetch", "url": "https://example.org/x-%d.tgz", "dest": "vendor/x-%d.tgz", "method": "GET", "headers": {"Accept": "*/*"}}`, i, i)
		case 4:
			fmt.Fprintf(&b, `{"op": "clone", "url": "https://example.org/r-%d.git", "dest": "vendor/r-%d", "ref": "v1.2.0", "depth": 1}`, i, i)
		default:
			fmt.Fprintf(&b, `{"op": "write", "path": "skills/s-%d/SKILL.md", "content": "%s"}`, i, body)
		}
	}
	b.WriteString("]}\n")
	return []byte(b.String())
}

func BenchmarkDecode10kIntents(b *testing.B) {
	in := plan10k()
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		p, err := plan.Decode(bytes.NewReader(in), plan.DefaultLimits())
		if err != nil || p.Len() != 10_000 {
			b.Fatal(err)
		}
	}
}

// BenchmarkEncodingJSON10kIntents is the lenient baseline the strict
// decoder replaces, for comparison only.
func BenchmarkEncodingJSON10kIntents(b *testing.B) {
	in := plan10k()
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		var p schema.Plan
		if err := json.Unmarshal(in, &p); err != nil || len(p.Intents) != 10_000 {
			b.Fatal(err)
		}
	}
}
