package apply

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/lola-pm/lola/host/fsroot/fsroottest"
	"github.com/lola-pm/lola/schema"
)

// A delete of a subtree that holds a bind mount is refused: commit would
// otherwise remove, through the mount, what lies outside the root. The
// apply runs on a thread with its own private mount namespace.
func TestDeleteOfSubtreeHoldingMountRefused(t *testing.T) {
	for _, kind := range []string{"dir", "file"} {
		t.Run(kind, func(t *testing.T) {
			base := t.TempDir()
			root, outside := filepath.Join(base, "root"), filepath.Join(base, "outside")
			tree(t, base, map[string]string{"outside/precious": "keep me", "root/sub/inner/mnt/": "", "root/sub/inner/fmnt": "", "root/sub/x": "x"})
			before := snapshot(t, root) // seen from outside the mount namespace
			var err error
			fsroottest.InPrivateMounts(t, func() string {
				src, dst := outside, filepath.Join(root, "sub", "inner", "mnt")
				if kind == "file" {
					src, dst = filepath.Join(outside, "precious"), filepath.Join(root, "sub", "inner", "fmnt")
				}
				if err := unix.Mount(src, dst, "", unix.MS_BIND, ""); err != nil {
					return "bind mount not permitted: " + err.Error()
				}
				p, v := decode(t, `{"protocol":1,"intents":[{"op":"delete","path":"sub"}]}`)
				r, oerr := openRootErr(root)
				if oerr != nil {
					err = oerr
					return ""
				}
				defer r.Close()
				_, err = Apply(r, v, p, Options{Key: testKey})
				return ""
			})
			wantRule(t, err, schema.RulePathCrossDevice)
			if b, err := os.ReadFile(filepath.Join(outside, "precious")); err != nil || string(b) != "keep me" {
				t.Fatalf("outside content harmed: %q %v", b, err)
			}
			if after := snapshot(t, root); after != before {
				t.Fatalf("the refused delete changed the tree:\n%s", diffLines(before, after))
			}
		})
	}
}
