//go:build unix

package fsroot

import (
	"os"
	"testing"
)

// TestProbeCaseSensitiveHere: this machine's filesystems (ext4 without
// casefold) distinguish case and normalization; the probe must say so and
// leave nothing behind. The folding side is covered where a folding
// filesystem exists (see the FUSE note in the package's tests).
func TestProbeCaseSensitiveHere(t *testing.T) {
	dir := t.TempDir()
	r, err := Open(dir)
	must(t, err)
	defer r.Close()
	f, err := Probe(r.Dir())
	must(t, err)
	if f.CaseInsensitive || f.NormalizationInsensitive || f.IgnoresIgnorable || f.CasefoldFlag {
		t.Fatalf("findings %+v on a byte-exact filesystem", f)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 0 {
		t.Fatalf("probe left %v", ents)
	}
}

func TestKindStrings(t *testing.T) {
	seen := map[string]bool{}
	for k := KindNone; k <= KindOther; k++ {
		s := k.String()
		if s == "" || seen[s] || s == "kind(?)" {
			t.Fatalf("kind %d spelled %q", k, s)
		}
		seen[s] = true
	}
}
