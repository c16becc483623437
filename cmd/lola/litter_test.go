package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// statTree renders every entry beneath root with its mode, size, content
// and modification time (directories included, the root itself too), so
// that any trace a command leaves shows.
func statTree(t *testing.T, root string) string {
	t.Helper()
	var lines []string
	err := filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		line := fmt.Sprintf("%s %v %d %d", rel, info.Mode(), info.Size(), info.ModTime().UnixNano())
		if info.Mode().IsRegular() {
			b, _ := os.ReadFile(p)
			line += " " + string(b)
		}
		lines = append(lines, line)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// A dry run leaves no trace beneath the root, not even a changed
// modification time; an apply of writes followed by an apply of their
// deletes leaves the tree's entries and contents as they were, with no
// file of lola's (lock, staging) anywhere.
func TestNoLitter(t *testing.T) {
	root, home := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "README.md"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	writes := filepath.Join(dir, "w.json")
	os.WriteFile(writes, []byte(`{"protocol":1,"intents":[{"op":"write","path":".claude/skills/s/SKILL.md","content":"s"},{"op":"write","path":"AGENTS.md","content":"a"}]}`), 0o644)
	deletes := filepath.Join(dir, "d.json")
	os.WriteFile(deletes, []byte(`{"protocol":1,"intents":[{"op":"delete","path":".claude"},{"op":"delete","path":"AGENTS.md"}]}`), 0o644)

	before := statTree(t, root)
	for _, p := range []string{writes, deletes} {
		code, out, errs := runApplyCLI(t, "", "plan", "apply", "--dry-run", "--root", root, "--home", home, p)
		if code != exitOK {
			t.Fatalf("dry run: exit %d %s %s", code, out, errs)
		}
		if after := statTree(t, root); after != before {
			t.Fatalf("a dry run left a trace:\nbefore:\n%s\nafter:\n%s", before, after)
		}
	}
	listed := listTree(t, root)
	for _, p := range []string{writes, deletes} {
		if code, out, errs := runApplyCLI(t, "", "plan", "apply", "--root", root, "--home", home, p); code != exitOK {
			t.Fatalf("apply: exit %d %s %s", code, out, errs)
		}
	}
	if after := listTree(t, root); after != listed {
		t.Fatalf("install then uninstall left:\n%s\nwant:\n%s", after, listed)
	}
}

// 'plan validate' and 'plan apply' agree on the host's reserved names.
func TestValidateAgreesWithApplyOnReservedNames(t *testing.T) {
	for _, name := range []string{".lola.lock", ".lola-staging-0123456789abcdef/journal", ".LOLA-STAGING-x"} {
		plan := filepath.Join(t.TempDir(), "p.json")
		os.WriteFile(plan, []byte(`{"protocol":1,"intents":[{"op":"write","path":"`+name+`","content":"x"}]}`), 0o644)
		vcode, vout, _ := runApplyCLI(t, "", "plan", "validate", plan)
		acode, aout, aerr := runApplyCLI(t, "", "plan", "apply", "--root", t.TempDir(), "--home", t.TempDir(), plan)
		aout += aerr
		if vcode != exitRejected || acode != exitRejected || !strings.Contains(vout, "path.invalid") || !strings.Contains(aout, "path.invalid") {
			t.Fatalf("%s: validate %d %s; apply %d %s", name, vcode, vout, acode, aout)
		}
	}
}

// Re-applying a plan whose writes are already on disk rewrites nothing and
// says so.
func TestReapplyReportsUnchanged(t *testing.T) {
	root, home := t.TempDir(), t.TempDir()
	plan := filepath.Join(t.TempDir(), "p.json")
	os.WriteFile(plan, []byte(`{"protocol":1,"intents":[{"op":"write","path":"a/x.md","content":"x"},{"op":"write","path":"y.sh","content":"y","executable":true}]}`), 0o644)
	if code, out, errs := runApplyCLI(t, "", "plan", "apply", "--root", root, "--home", home, plan); code != exitOK || !strings.Contains(out, "2 added") {
		t.Fatalf("first apply: %d %s %s", code, out, errs)
	}
	before := statTree(t, root)
	code, out, errs := runApplyCLI(t, "", "plan", "apply", "--root", root, "--home", home, plan)
	if code != exitOK || !strings.Contains(out, "0 added, 0 removed, 0 replaced, 0 renamed, 2 unchanged") {
		t.Fatalf("second apply: %d %s %s", code, out, errs)
	}
	if after := statTree(t, root); after != before {
		t.Fatalf("an unchanged re-apply touched the tree:\n%s\n%s", before, after)
	}
}

// A dry run whose relation stood in for an unidentified filesystem says
// so after its tree diff; one that knew the filesystem adds nothing.
func TestDryRunPrintsTheRelationNote(t *testing.T) {
	var b strings.Builder
	printTreeDiff(&b, nil, "the root's filesystem cannot be identified without writing")
	if !strings.HasSuffix(b.String(), "note: the root's filesystem cannot be identified without writing\n") {
		t.Fatalf("%q", b.String())
	}
	b.Reset()
	printTreeDiff(&b, nil, "")
	if strings.Contains(b.String(), "note:") {
		t.Fatalf("%q", b.String())
	}
}
