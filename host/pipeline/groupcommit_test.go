package pipeline

import (
	"fmt"
	"strings"
)

// manyWrites is a plan of n writes spread over a few directories.
func manyWrites(n int) string {
	var b strings.Builder
	b.WriteString(`{"protocol":1,"intents":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"op":"write","path":"d%d/f%d.md","content":"body %d"}`, i%8, i, i)
	}
	b.WriteString(`]}`)
	return b.String()
}
