package managed

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkSetBlock: replacing one block of a 50-module section inside a
// user file of some 10 KiB, the shape of a large CLAUDE.md.
func BenchmarkSetBlock(b *testing.B) {
	doc := strings.Repeat("user text, kept byte for byte\n", 350)
	for i := range 50 {
		var err error
		if doc, err = SetBlock(doc, "CLAUDE.md", fmt.Sprintf("module-%02d", i), strings.Repeat("an instruction line\n", 20)); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := SetBlock(doc, "CLAUDE.md", "module-25", "new body"); err != nil {
			b.Fatal(err)
		}
	}
}
