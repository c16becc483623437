package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkApplyAuditSyncs applies a plan of n writes through the pipeline
// and reports the audit log's fsyncs per applied plan on an existing log
// (the pre-apply record and the outcome; creating the log costs one more,
// once): the figure must not grow with n. The time is the whole apply's
// (executor included).
func BenchmarkApplyAuditSyncs(b *testing.B) {
	for _, n := range []int{1, 1000} {
		b.Run(fmt.Sprintf("intents=%d", n), func(b *testing.B) {
			p := decode(b, manyWrites(n))
			who := proposer(b, nil, nil)
			log, _ := openLog(b)
			var syncs uint64
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				root := b.TempDir()
				before := log.Syncs()
				b.StartTimer()
				res, err := Apply(context.Background(), root, p, who, Options{FS: "bytes", Log: log})
				if err != nil || res.Outcome != OutcomeCommitted {
					b.Fatalf("%v %v %v", res.Outcome, res.Err, err)
				}
				syncs += log.Syncs() - before
			}
			b.ReportMetric(float64(syncs)/float64(b.N), "audit-fsyncs/plan")
		})
	}
}

// BenchmarkArtifactSum is the host-side read and hash of a tier-1 target
// artifact (the claude-code target as `make build` built it) that a warm
// install no longer pays: the shim's digest of the bytes it ran is used
// instead (Launched.ArtifactSum).
func BenchmarkArtifactSum(b *testing.B) {
	p, err := filepath.Abs(filepath.Join("..", "..", "examples", "claude-code", "dist", "claude-code.wasm"))
	if err != nil {
		b.Fatal(err)
	}
	st, err := os.Stat(p)
	if err != nil {
		b.Skip("examples/claude-code is not built: run make build")
	}
	b.SetBytes(st.Size())
	for i := 0; i < b.N; i++ {
		if _, err := ArtifactSum(p); err != nil {
			b.Fatal(err)
		}
	}
}
