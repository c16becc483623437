package market

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkParseCatalog: a catalog at the module bound (5,000 entries).
func BenchmarkParseCatalog(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("name: big\nversion: '1'\nmodules:\n")
	for i := range MaxModules {
		fmt.Fprintf(&sb, "  - name: mod-%d\n    description: module number %d\n    version: 1.%d.0\n    repository: https://example.com/m%d.git\n    tags: [a, b]\n", i, i, i, i)
	}
	body := []byte(sb.String())
	if len(body) > MaxCatalogBytes {
		b.Fatalf("fixture %d bytes exceeds the bound", len(body))
	}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseCatalog(body, nil); err != nil {
			b.Fatal(err)
		}
	}
}
