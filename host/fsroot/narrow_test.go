//go:build unix

package fsroot

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// TestRefusalNamesTheComponentAtFault: a refusal names the component that
// is the link, mount or non-directory, not the whole prefix resolved in
// one call.
func TestRefusalNamesTheComponentAtFault(t *testing.T) {
	forEachResolution(t, func(t *testing.T) {
		root, _ := hostileTree(t)
		must(t, os.MkdirAll(filepath.Join(root, "real", "sub0", "deeper"), 0o755))
		must(t, os.Symlink("real", filepath.Join(root, "d")))
		r, err := Open(root)
		must(t, err)
		defer r.Close()
		for _, c := range []struct {
			path, detail string
			rule         schema.Rule
		}{
			{"d/sub0/x", "d is a symbolic link", schema.RulePathSymlink},
			{"d/sub0/deeper/x", "d is a symbolic link", schema.RulePathSymlink},
			{"real/sub0/deeper/x", "", 0},
			{"a/hop/y/x", "a/hop is a symbolic link", schema.RulePathSymlink},
			{"real/f/x/y", "real/f is not a directory", schema.RulePathNotDirectory},
		} {
			rs := r.NewResolver()
			_, err := rs.Resolve(p(c.path), 0)
			rs.Close()
			if c.rule == 0 {
				must(t, err)
				continue
			}
			wantRule(t, err, c.rule)
			vs := rejection.All(err)
			if len(vs) != 1 || vs[0].Detail != c.detail {
				t.Errorf("%s: %q, want the detail %q", c.path, err, c.detail)
			}
			if strings.Contains(err.Error(), root) {
				t.Errorf("%s: host path in %q", c.path, err)
			}
		}
	})
}
