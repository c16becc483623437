package module

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
)

// TestSourceLinkExpansionBounded: links multiply content (many links to
// one big file, a directory linked many times, directories linking twice
// to the next, 2^16 copies of the deepest), and the module's bounds apply to the
// expanded result: every source kind stops at the bound crossed, names
// it, and stores nothing.
func TestSourceLinkExpansionBounded(t *testing.T) {
	big := strings.Repeat("x", 1000)
	var manyFileLinks, manyDirLinks, doubling []entry
	for i := range 10 {
		manyFileLinks = append(manyFileLinks, link("copies/big"+strconv.Itoa(i), "../shared/big.bin"))
		manyDirLinks = append(manyDirLinks, link("copies/notes"+strconv.Itoa(i), "../shared/notes"))
	}
	for i := range 16 {
		d, next := "d"+strconv.Itoa(i), "../d"+strconv.Itoa(i+1)
		doubling = append(doubling, file(d+"/f.md", "f\n"), link(d+"/a", next), link(d+"/b", next))
	}
	doubling = append(doubling, file("d16/f.md", "f\n"))
	cases := []struct {
		name    string
		entries []entry
		b       Bounds
		limit   Limit
	}{
		{"links-to-one-file", append(manyFileLinks, file("shared/big.bin", big)), smallBounds(t, 100, 4096, 6000, 256), LimitTotalBytes},
		{"directory-linked-many-times", append(manyDirLinks, file("shared/notes/1.md", "1"), file("shared/notes/2.md", "2"), file("shared/notes/3.md", "3")), smallBounds(t, 40, 4096, 1<<20, 256), LimitFiles},
		{"doubling-directory-links", doubling, smallBounds(t, 300, 4096, 1<<20, 1024), LimitFiles},
	}
	for _, kind := range sourceKinds {
		for _, c := range cases {
			t.Run(kind+"/"+c.name, func(t *testing.T) {
				t.Parallel() // a git source waits on git's processes most of its time
				src, o := linkedSource(t, kind, append(append([]entry(nil), goodEntries...), c.entries...))
				o.Bounds = c.b
				s, _ := newStore(t)
				_, err := s.Add(context.Background(), src, o)
				var le *LimitError
				if !errors.As(err, &le) || le.Limit != c.limit {
					t.Fatalf("error %v; want limit %s", err, c.limit)
				}
				assertStoreEmpty(t, s)
			})
		}
	}
}
