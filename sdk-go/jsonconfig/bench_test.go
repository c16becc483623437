package jsonconfig

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkApply: add then remove one server in a user config holding 200
// servers (some 20 KiB), the shape of a large .mcp.json.
func BenchmarkApply(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("{\n  \"mcpServers\": {\n")
	for i := range 200 {
		if i > 0 {
			sb.WriteString(",\n")
		}
		fmt.Fprintf(&sb, "    \"s%03d\": {\"command\": \"srv\", \"args\": [\"--port\", \"%d\"]}", i, i)
	}
	sb.WriteString("\n  }\n}\n")
	doc := sb.String()
	v, _ := Parse([]byte(`{"command":"npx","args":["-y","kit"],"env":{"T":"${T}"}}`))
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		out, _, err := Apply(doc, true, NewObject(), "mcpServers", []Change{{"kit", &v}})
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := Apply(out, true, NewObject(), "mcpServers", []Change{{"kit", nil}}); err != nil {
			b.Fatal(err)
		}
	}
}
