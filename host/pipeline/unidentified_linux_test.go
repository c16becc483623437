package pipeline

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/fsroot/fsroottest"

	"golang.org/x/sys/unix"

	"github.com/lola-pm/lola/host/pathrule"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// A dry run on a filesystem lola cannot identify without writing (here a
// hugetlbfs, whose f_type is in no table) writes nothing, compares
// names under the relation that folds the most, and says so: README.md
// and Readme.md are one name there, so the plan is refused although the
// filesystem may hold both. A relation named with --fs is used as named
// and the note says it was not checked.
func TestDryRunOnUnidentifiedFilesystem(t *testing.T) {
	mnt := t.TempDir()
	type result struct {
		before, after string
		auto, named   Result
		autoE, namedE error
	}
	var out result
	fsroottest.InPrivateMounts(t, func() string {
		if err := unix.Mount("hugetlbfs", mnt, "hugetlbfs", 0, ""); err != nil {
			return "cannot mount a hugetlbfs: " + err.Error()
		}
		defer unix.Unmount(mnt, unix.MNT_DETACH)
		if err := unix.Mkdir(mnt+"/skills", 0o755); err != nil {
			return "cannot make a directory on hugetlbfs: " + err.Error()
		}
		p := decode(t, `{"protocol":1,"intents":[{"op":"write","path":"skills/README.md","content":"a"},{"op":"write","path":"skills/Readme.md","content":"b"}]}`)
		out.before = fsroottest.Stamps(t, mnt)
		out.auto, out.autoE = Apply(context.Background(), mnt, p, proposer(t, nil, nil), Options{FS: pathrule.Auto, DryRun: true})
		out.named, out.namedE = Apply(context.Background(), mnt, p, proposer(t, nil, nil), Options{FS: "bytes", DryRun: true})
		out.after = fsroottest.Stamps(t, mnt)
		return ""
	})
	if out.autoE != nil || out.namedE != nil {
		t.Fatal(out.autoE, out.namedE)
	}
	if out.after != out.before {
		t.Fatalf("a dry run wrote on the unidentified filesystem:\n%s", diffStamps(out.before, out.after))
	}
	strict := pathrule.ForFindings(pathrule.Findings{CaseInsensitive: true, NormalizationInsensitive: true, IgnoresIgnorable: true})
	if out.auto.Relation != strict.Name() || !strings.Contains(out.auto.RelationNote, "cannot be identified without writing") || !strings.Contains(out.auto.RelationNote, strict.Name()) {
		t.Fatalf("auto: relation %q, note %q", out.auto.Relation, out.auto.RelationNote)
	}
	if out.auto.Outcome != OutcomeRejected || !errors.Is(out.auto.Err, rejection.Rule(schema.RuleConflictSamePath)) {
		t.Fatalf("auto: %v %v; want the two spellings refused as one name", out.auto.Outcome, out.auto.Err)
	}
	if out.named.Outcome != OutcomeDryRun || out.named.Relation != "bytes" || !strings.Contains(out.named.RelationNote, "did not check that bytes matches it") {
		t.Fatalf("named: %v %q %q", out.named.Outcome, out.named.Relation, out.named.RelationNote)
	}
}

func diffStamps(a, b string) string { return "before:\n" + a + "\nafter:\n" + b }
