package sync

import (
	"bufio"
	"bytes"
	"strings"
	"testing"
)

// FuzzParseRequirements: Parse never panics and treats every line on its
// own: each line is a requirement, a LineError or nothing (blank,
// comment), exactly as ParseLine reads it alone, so a bad line cannot
// change, or take with it, any other; a requirement names one reference
// without spaces and no git ref that could pass for an option.
func FuzzParseRequirements(f *testing.F) {
	for _, s := range []string{
		"python-tools>=1.0.0\nhttps://github.com/user/module.git@main\n",
		"https://github.com/quay/ai-helpers.git@main#subdirectory=plugins/dev\n",
		"https://github.com/quay/ai-helpers.git@main --module-content=plugins/dev\nbad>=x\n",
		"git+ssh://git@github.com/u/r.git@v2>=1.0#assistant=claude-code, cursor\n",
		"@community/tools~=1.4,!=1.4.3 # pinned\n\n# comment\n",
		"x --module-content a --content-path=b\n--\n#\n x#subdirectory=%zz\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		reqs, bad, err := Parse(b)
		if err != nil {
			return // over a bound: refused whole
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(make([]byte, 0, 4096), MaxFileBytes)
		ri, bi := 0, 0
		for n := 1; sc.Scan(); n++ {
			r, lerr := ParseLine(sc.Text(), n)
			switch {
			case lerr != nil:
				if bi >= len(bad) || bad[bi].Line != n || bad[bi].Err.Error() != lerr.Error() {
					t.Fatalf("line %d %q: alone %v; in the file %v", n, sc.Text(), lerr, bad)
				}
				bi++
			case r != nil:
				if ri >= len(reqs) || reqs[ri].Line != n || reqs[ri].Ref != r.Ref || reqs[ri].GitRef != r.GitRef || reqs[ri].Subdirectory != r.Subdirectory || reqs[ri].Spec.String() != r.Spec.String() {
					t.Fatalf("line %d %q: alone %+v; in the file %+v", n, sc.Text(), r, reqs)
				}
				if r.Ref == "" || strings.ContainsAny(r.Ref, " \t\n") || strings.HasPrefix(r.GitRef, "-") {
					t.Fatalf("line %d %q: requirement %+v", n, sc.Text(), r)
				}
				ri++
			}
		}
		if ri != len(reqs) || bi != len(bad) {
			t.Fatalf("%d requirements and %d bad lines, of which %d and %d are lines", len(reqs), len(bad), ri, bi)
		}
	})
}
