package apply

import (
	"fmt"
	"strings"
	"testing"
)

// Durability is batched: a committed apply flushes a fixed number of
// times (syncfs of staging, syncfs of the tree, fsync of the commit
// record) whatever the number of intents, never once per file.
func TestSyncsPerPlanIndependentOfIntents(t *testing.T) {
	count := func(n int) int {
		var js strings.Builder
		js.WriteString(`{"protocol":1,"intents":[`)
		for i := 0; i < n; i++ {
			if i > 0 {
				js.WriteByte(',')
			}
			fmt.Fprintf(&js, `{"op":"write","path":"d%d/f%d","content":"%d"}`, i%7, i, i)
		}
		js.WriteString(`]}`)
		p, v := decode(t, js.String())
		s, err := Begin(openRoot(t, t.TempDir()), Options{Key: testKey})
		must(t, err)
		defer s.Close()
		prep, err := s.Prepare(v, p)
		must(t, err)
		if res := s.Commit(prep); res.Outcome != OutcomeCommitted {
			t.Fatalf("%+v", res)
		}
		return s.syncs
	}
	one, many := count(1), count(300)
	if one != many || many > 3 {
		t.Fatalf("flushes: %d for 1 intent, %d for 300; want the same, at most 3", one, many)
	}
}

// syncRoot flushes the filesystem holding root once (syncfs).
func syncRoot(b testing.TB, root string) {
	r := openRoot(b, root)
	must(b, r.SyncFS())
}
