package apply

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/benchtest"
)

// BenchmarkApply10kFiles compares an atomic, durable apply of 10 000 small
// files in 100 directories with a plain os.WriteFile loop writing the same
// tree on the same disk followed by one syncfs (the floor for the same
// durability). Read the ratio of the two medians (issue 11: at most 2x,
// audit included, through the CLI; this is the executor alone).
func BenchmarkApply10kFiles(b *testing.B) {
	const files, dirs = 10000, 100
	var js strings.Builder
	js.WriteString(`{"protocol":1,"intents":[`)
	for i := 0; i < files; i++ {
		if i > 0 {
			js.WriteByte(',')
		}
		fmt.Fprintf(&js, `{"op":"write","path":"skills/s%03d/f%05d.md","content":"content of file %d, small"}`, i%dirs, i, i)
	}
	js.WriteString(`]}`)
	p, v := decode(b, js.String())
	base := b.TempDir()
	seq := 0
	fresh := func(kind string) string {
		seq++
		root := filepath.Join(base, fmt.Sprintf("%s-%d", kind, seq))
		must(b, os.Mkdir(root, 0o755))
		return root
	}

	runApply := func() {
		r := openRoot(b, fresh("apply"))
		res, err := Apply(r, v, p, Options{Key: testKey})
		if err != nil || res.Outcome != OutcomeCommitted {
			b.Fatalf("%+v %v", res, err)
		}
	}
	runWriteFile := func() {
		root := fresh("plain")
		for j := 0; j < files; j++ {
			dir := filepath.Join(root, "skills", fmt.Sprintf("s%03d", j%dirs))
			if j < dirs {
				must(b, os.MkdirAll(dir, 0o755))
			}
			body, _ := p.Body(j)
			must(b, os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%05d.md", j)), body, 0o644))
		}
		syncRoot(b, root)
	}
	// The two sides run alternately, in pairs, and each reports its
	// median (apply-wall-ms, writefile-wall-ms; see host/benchtest).
	const pairs = 5
	apply, plain := benchtest.Pairs(pairs*b.N, runApply, runWriteFile)
	b.ReportMetric(benchtest.MedianMS(apply), "apply-wall-ms")
	b.ReportMetric(benchtest.MedianMS(plain), "writefile-wall-ms")
}
