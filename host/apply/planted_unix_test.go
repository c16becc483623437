//go:build unix

package apply

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/fsroot"
)

const plantedStaging = ".lola-staging-0123456789abcdef"

// plant commits what a hostile repository would: a staging directory whose
// journal "undoes" an aside of an executable aside/1 into
// .git/hooks/pre-commit. The identity it journals is the planted file's
// real one (a stronger attacker than a clone allows), so only the
// journal's authentication stands between it and the hook. format
// "plain" is the unauthenticated format of earlier hosts; "forged" is
// this host's format MAC'd under a key the attacker chose.
func plant(t *testing.T, root, format string) {
	t.Helper()
	tree(t, root, map[string]string{
		".git/hooks/":                "",
		plantedStaging + "/new/":     "",
		plantedStaging + "/aside/1*": "#!/bin/sh\necho pwned\n",
		"README.md":                  "hello",
	})
	r := openRoot(t, root)
	sd, err := r.Dir().OpenDir(plantedStaging)
	must(t, err)
	defer sd.Close()
	aside, err := sd.OpenDir("aside")
	must(t, err)
	e, err := aside.Lstat("1")
	aside.Close()
	must(t, err)
	program := record{Phase: phaseProgram, Actions: []action{{Op: actAside, Path: ".git/hooks/pre-commit", Slot: 1, ID: identOf(e)}}}
	var js strings.Builder
	switch format {
	case "plain":
		b, _ := json.Marshal(program)
		js.WriteString(`{"phase":"begin"}` + "\n" + strings.Replace(string(b), `"id":{`, fmt.Sprintf(`"ino":%d,"id":{`, e.Ino), 1) + "\n")
	case "forged":
		re, _ := r.Dir().Stat()
		de, _ := sd.Stat()
		j := &journal{key: []byte("the attacker's own key, 32 bytes"), base: journalBinding(re, de, plantedStaging)}
		for _, rec := range []record{{Phase: phaseBegin}, program} {
			b, _ := json.Marshal(rec)
			mac := j.sum(b)
			j.mac = mac
			js.WriteString(hex.EncodeToString(mac) + " " + string(b) + "\n")
		}
	}
	must(t, os.WriteFile(filepath.Join(root, plantedStaging, journalName), []byte(js.String()), 0o600))
}

// A journal found in the root that does not verify under the host key is
// reported, never executed, and its staging directory is left exactly as
// found (the evidence); the apply itself proceeds.
func TestPlantedJournalIsNotExecuted(t *testing.T) {
	for _, format := range []string{"plain", "forged"} {
		t.Run(format, func(t *testing.T) {
			root := t.TempDir()
			plant(t, root, format)
			before := snapshot(t, root)
			p, v := decode(t, `{"protocol":1,"intents":[{"op":"write","path":"new.txt","content":"n"}]}`)
			s, err := Begin(openRoot(t, root), Options{Key: testKey})
			must(t, err)
			rep := s.Recovered()
			prep, err := s.Prepare(v, p)
			must(t, err)
			res := s.Commit(prep)
			s.Close()
			if res.Outcome != OutcomeCommitted {
				t.Fatalf("%+v", res)
			}
			if _, err := os.Lstat(filepath.Join(root, ".git/hooks/pre-commit")); !os.IsNotExist(err) {
				t.Fatalf("the planted journal was executed: .git/hooks/pre-commit exists (%v)", err)
			}
			if rep.Kind != RecoveryNone || len(rep.Untrusted) != 1 || rep.Untrusted[0] != plantedStaging {
				t.Fatalf("recovery report %+v; want the planted staging reported untrusted", rep)
			}
			want := before + "\nnew.txt -rw-r--r-- \"n\""
			if got := snapshot(t, root); got != want {
				t.Fatal(diffLines(want, got))
			}
		})
	}
}

// A genuine journal of this host is bound to its root and its staging
// directory: copied into another root it does not verify.
func TestJournalBoundToRootAndStaging(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	tree(t, a, map[string]string{"victim": "v"})
	tree(t, b, map[string]string{"other": "o"})
	p, v := decode(t, `{"protocol":1,"intents":[{"op":"delete","path":"victim"}]}`)
	var staging string
	stop := errStop
	res, err := Apply(openRoot(t, a), v, p, Options{Key: testKey, hooks: &hooks{fail: func(phase string, _ int) error {
		if phase == "act" {
			names, _ := os.ReadDir(a)
			for _, n := range names {
				if strings.HasPrefix(n.Name(), StagingPrefix) {
					staging = n.Name()
				}
			}
			// Copy the genuine staging directory (journal and all) to b.
			copyTree(t, filepath.Join(a, staging), filepath.Join(b, staging))
			return stop
		}
		return nil
	}}})
	must(t, err)
	if res.Outcome != OutcomeRolledBack || staging == "" {
		t.Fatalf("%+v", res)
	}
	before := snapshot(t, b)
	rep, err := Recover(openRoot(t, b), testKey)
	must(t, err)
	if len(rep.Untrusted) != 1 || snapshot(t, b) != before {
		t.Fatalf("a journal copied from another root was not refused: %+v", rep)
	}
}

var errStop = fsroot.ErrUnsupported

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	must(t, filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o700)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o600)
	}))
}

// Whatever else bears a staging name — a symlink, a file, a directory
// with no journal, or a journal that is one huge line — is reported and
// left alone, and applies still run (a repository cannot block them).
func TestPlantedLookalikesDoNotBlockApplies(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	huge := strings.Repeat("a", 1<<20)
	tree(t, root, map[string]string{
		".lola-staging-00000000000000aa@":        outside,
		".lola-staging-00000000000000bb":         "a file",
		".lola-staging-00000000000000cc/aside/1": "x",
		".lola-staging-00000000000000dd/journal": huge,
	})
	before := snapshot(t, root)
	p, v := decode(t, `{"protocol":1,"intents":[{"op":"write","path":"new.txt","content":"n"}]}`)
	s, err := Begin(openRoot(t, root), Options{Key: testKey})
	must(t, err)
	defer s.Close()
	if rep := s.Recovered(); len(rep.Untrusted) != 4 || rep.Kind != RecoveryNone {
		t.Fatalf("%+v", rep)
	}
	prep, err := s.Prepare(v, p)
	must(t, err)
	if res := s.Commit(prep); res.Outcome != OutcomeCommitted {
		t.Fatalf("%+v", res)
	}
	if got, want := snapshot(t, root), before+"\nnew.txt -rw-r--r-- \"n\""; got != want {
		t.Fatal(diffLines(want, got))
	}
}
