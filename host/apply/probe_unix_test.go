//go:build unix

package apply

import (
	"errors"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/fsroot/fsroottest"

	"github.com/lola-pm/lola/host/fsroot"
)

// unknownFS stands in for a filesystem Inspect cannot identify (FUSE,
// NFS, an f_type not in its table), on whatever filesystem the test's
// directory is.
var unknownFS = fsroot.Inspection{FS: "unknown (f_type 0x1234)", Why: "the filesystem (unknown (f_type 0x1234)) is not one whose name comparison lola knows"}

// A dry run on a filesystem that cannot be identified without writing
// writes nothing beneath the root: Probe says ErrUnidentified instead of
// observing the filesystem, and Prepare, which checks the relation
// against the findings, skips that check rather than probing. Every
// entry's modification and change time stays as it was.
func TestDryRunOnUnknownFilesystemWritesNothing(t *testing.T) {
	root := t.TempDir()
	tree(t, root, atomicityTree)
	before := fsroottest.Stamps(t, root)
	p, v := decode(t, atomicityPlan)
	s, err := Begin(openRoot(t, root), Options{Key: testKey, DryRun: true})
	must(t, err)
	s.inspection = &unknownFS
	if _, err := s.Probe(); !errors.Is(err, ErrUnidentified) || !strings.Contains(err.Error(), "f_type 0x1234") {
		t.Fatalf("Probe in a dry run on an unknown filesystem: %v", err)
	}
	prep, err := s.Prepare(v, p)
	must(t, err)
	if len(prep.Changes()) == 0 {
		t.Fatal("nothing prepared: the test proves nothing")
	}
	must(t, prep.Discard())
	must(t, s.Close())
	if after := fsroottest.Stamps(t, root); after != before {
		t.Fatalf("the dry run wrote beneath the root:\n%s", diffLines(before, after))
	}
}

// On a filesystem Inspect cannot identify, a real apply observes the name
// comparison in the staging directory it then stages through: one staging
// directory, made by Probe, tagged once the observer's Begin names the
// apply, and gone after the commit.
func TestProbeStagingIsTheApplysStaging(t *testing.T) {
	root := t.TempDir()
	tree(t, root, atomicityTree)
	p, v := decode(t, atomicityPlan)
	var atBegin []string
	opts := Options{Key: testKey, Observer: tagged{}, hooks: &hooks{point: func(_ int, what string) {
		if what == "begin" {
			atBegin = stagingNames(t, root)
		}
	}}}
	s, err := Begin(openRoot(t, root), opts)
	must(t, err)
	defer s.Close()
	s.inspection = &unknownFS
	f, err := s.Probe()
	must(t, err)
	if f.CaseInsensitive || f.NormalizationInsensitive || f.IgnoresIgnorable {
		t.Fatalf("probe of a byte-exact filesystem: %+v", f)
	}
	probed := stagingNames(t, root)
	if len(probed) != 1 {
		t.Fatalf("staging after Probe: %v", probed)
	}
	prep, err := s.Prepare(v, p)
	must(t, err)
	if res := s.Commit(prep); res.Outcome != OutcomeCommitted {
		t.Fatalf("%+v", res)
	}
	if len(atBegin) != 1 || atBegin[0] != probed[0] {
		t.Fatalf("the apply staged in %v, not in the probe's %v", atBegin, probed)
	}
	noStaging(t, root)
}

// The staging directory Probe made is the apply's tag's too: an apply
// killed after its program is recovered under the tag, as when Commit
// made the staging itself.
func TestProbeStagingCarriesTheTag(t *testing.T) {
	root := t.TempDir()
	tree(t, root, atomicityTree)
	p, v := decode(t, atomicityPlan)
	done := make(chan error, 1)
	go func() {
		stopped := true
		defer func() {
			if stopped {
				done <- nil
			}
		}()
		opts := Options{Key: testKey, Observer: tagged{}, hooks: &hooks{point: func(_ int, what string) {
			if what == "after aside" {
				runtime.Goexit()
			}
		}}}
		s, err := Begin(openRoot(t, root), opts)
		if err == nil {
			defer s.Close()
			s.inspection = &unknownFS
			var prep *Prepared
			if _, err = s.Probe(); err == nil {
				if prep, err = s.Prepare(v, p); err == nil {
					s.Commit(prep)
					err = ErrNotInterrupted
				}
			}
		}
		stopped = false
		done <- err
	}()
	must(t, <-done)
	rep, err := Recover(openRoot(t, root), testKey)
	must(t, err)
	if rep.Kind != RecoveryRolledBack || rep.Tag != tagOf {
		t.Fatalf("recovery %+v; want rolled-back under tag %q", rep, tagOf)
	}
	noStaging(t, root)
}

// A real apply that probed but did not commit — refused by Prepare, every
// intent a no-op, or never committed — leaves no staging directory, and
// the root's modification time as it was.
func TestProbeStagingRemovedWithoutCommit(t *testing.T) {
	for _, tc := range []struct {
		name, plan string
		commit     bool
	}{
		{"refused", `{"protocol":1,"intents":[{"op":"rename","from":"nothing","to":"x"}]}`, false},
		{"no-op", `{"protocol":1,"intents":[{"op":"write","path":"mv.txt","content":"mv"}]}`, true},
		{"not committed", atomicityPlan, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			tree(t, root, atomicityTree)
			fi, err := os.Stat(root)
			must(t, err)
			before := snapshot(t, root)
			p, v := decode(t, tc.plan)
			s, err := Begin(openRoot(t, root), Options{Key: testKey})
			must(t, err)
			s.inspection = &unknownFS
			_, err = s.Probe()
			must(t, err)
			if len(stagingNames(t, root)) != 1 {
				t.Fatal("Probe made no staging: the test proves nothing")
			}
			prep, err := s.Prepare(v, p)
			switch {
			case tc.commit:
				must(t, err)
				if res := s.Commit(prep); res.Outcome != OutcomeCommitted {
					t.Fatalf("%+v", res)
				}
				noStaging(t, root)
			case err == nil:
				prep.Discard()
			}
			must(t, s.Close())
			noStaging(t, root)
			after, err := os.Stat(root)
			must(t, err)
			if snapshot(t, root) != before || !after.ModTime().Equal(fi.ModTime()) {
				t.Fatal("the tree or the root's modification time changed")
			}
		})
	}
}

// A dry-run session commits nothing.
func TestDryRunSessionRefusesCommit(t *testing.T) {
	root := t.TempDir()
	p, v := decode(t, `{"protocol":1,"intents":[{"op":"write","path":"a","content":"a"}]}`)
	s, err := Begin(openRoot(t, root), Options{Key: testKey, DryRun: true})
	must(t, err)
	defer s.Close()
	prep, err := s.Prepare(v, p)
	must(t, err)
	if res := s.Commit(prep); res.Outcome == OutcomeCommitted {
		t.Fatalf("%+v", res)
	}
	if snapshot(t, root) != "" {
		t.Fatal("a dry-run session applied")
	}
}

const tagOf = "0123456789abcdef0123456789abcdef"

// tagged is an observer that names its apply tagOf.
type tagged struct{ nopObserver }

func (tagged) Tag() string { return tagOf }

func stagingNames(t testing.TB, root string) []string {
	t.Helper()
	ents, err := os.ReadDir(root)
	must(t, err)
	var out []string
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), StagingPrefix) {
			out = append(out, e.Name())
		}
	}
	return out
}
