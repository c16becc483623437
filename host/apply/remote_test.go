package apply

import (
	"errors"
	"os"
	"testing"

	"github.com/lola-pm/lola/host/fsroot"
	"github.com/lola-pm/lola/host/pathrule"
)

// fakeRemote stands in for host/remote: it writes fixed bytes for fetch
// and a small checkout for clone, or fails for one intent.
type fakeRemote struct{ failIntent int }

func (f fakeRemote) Fetch(step pathrule.Step, dst *os.File) error {
	if step.Index() == f.failIntent {
		return errors.New("remote.bound: body over its byte bound")
	}
	_, err := dst.WriteString("fetched bytes")
	return err
}

func (f fakeRemote) Clone(step pathrule.Step, dir *fsroot.Dir, _ string) error {
	if step.Index() == f.failIntent {
		return errors.New("clone failed")
	}
	if err := dir.Mkdir(".git", 0o755); err != nil {
		return err
	}
	w, err := dir.CreateFile("README", 0o644)
	if err != nil {
		return err
	}
	defer w.Close()
	_, err = w.WriteString("checked out")
	return err
}

const remotePlan = `{"protocol":1,"intents":[
	{"op":"delete","path":"vendor/r"},
	{"op":"clone","url":"https://example.org/r.git","dest":"vendor/r","ref":"v1.2.0","depth":1},
	{"op":"fetch","url":"https://example.org/x.tgz","dest":"vendor/x.tgz"},
	{"op":"write","path":"w.txt","content":"w"}
]}`

func TestRemoteSeamPlacesContent(t *testing.T) {
	root := t.TempDir()
	tree(t, root, map[string]string{"vendor/r/.git/HEAD": "old", "vendor/r/old.txt": "old"})
	p, v := decode(t, remotePlan)
	res, err := Apply(openRoot(t, root), v, p, Options{Key: testKey, Remote: fakeRemote{failIntent: -1}})
	must(t, err)
	if res.Outcome != OutcomeCommitted {
		t.Fatalf("%+v", res)
	}
	want := t.TempDir()
	tree(t, want, map[string]string{"vendor/r/.git/": "", "vendor/r/README": "checked out", "vendor/x.tgz": "fetched bytes", "w.txt": "w"})
	if got, w := snapshot(t, root), snapshot(t, want); got != w {
		t.Fatal(diffLines(w, got))
	}
}

func TestRemoteFailureRollsBackNamingIntent(t *testing.T) {
	for _, fail := range []int{1, 2} {
		root := t.TempDir()
		tree(t, root, map[string]string{"vendor/r/.git/HEAD": "old", "vendor/r/old.txt": "old"})
		before := snapshot(t, root)
		p, v := decode(t, remotePlan)
		res, err := Apply(openRoot(t, root), v, p, Options{Key: testKey, Remote: fakeRemote{failIntent: fail}})
		must(t, err)
		if res.Outcome != OutcomeRolledBack || res.Trigger != fail {
			t.Fatalf("fail %d: %+v", fail, res)
		}
		if after := snapshot(t, root); after != before {
			t.Fatal(diffLines(before, after))
		}
		noStaging(t, root)
	}
}
