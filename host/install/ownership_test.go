package install

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/apply"
	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/pipeline"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// plainModule is sampleModule without hooks (ownership tests need none).
func plainModule() map[string]string {
	m := sampleModule("", "")
	for _, k := range []string{"lola.yaml", "scripts/pre.sh", "scripts/post.sh"} {
		delete(m, k)
	}
	return m
}

func mustInstall(t *testing.T, o Options) Report {
	t.Helper()
	rep, err := Install(context.Background(), o)
	if err != nil || !rep.Applied() {
		t.Fatalf("install: %v %+v", err, rep.Result)
	}
	return rep
}

// writtenPaths lists the files (not managed) an install of the plain
// module writes into an empty project, learned from a scratch install.
func writtenPaths(t *testing.T) []string {
	t.Helper()
	e := newEnv(t)
	e.addModule(t, "sample", plainModule())
	e.addClaudeCode(t, "tier2")
	rep := mustInstall(t, e.options("sample", "claude-code"))
	var out []string
	for _, c := range rep.Result.Changes {
		if c.Op == schema.OpWrite && c.Path != "CLAUDE.md" {
			out = append(out, c.Path)
		}
	}
	sort.Strings(out)
	if len(out) < 4 {
		t.Fatalf("the target wrote only %v", out)
	}
	return out
}

func auditOf(t *testing.T, home string, c audit.Correlation, kinds ...audit.Kind) []audit.Entry {
	t.Helper()
	es, err := audit.Read(filepath.Join(home, audit.FileName), audit.Filter{Correlation: c, Kinds: kinds})
	if err != nil {
		t.Fatal(err)
	}
	return es
}

// A user's file at every path the target writes is refused, each named by
// conflict.unowned; the tree stays byte-identical, nothing is recorded,
// and the refusal is in the audit log. --force then takes them over, and
// the audit log names every path it took.
func TestUserFilesAtWrittenPathsAreRefusedUnlessForced(t *testing.T) {
	paths := writtenPaths(t)
	e := newEnv(t)
	e.addModule(t, "sample", plainModule())
	e.addClaudeCode(t, "tier2")
	user := map[string]string{}
	for _, p := range paths {
		user[p] = "the user's own " + p + "\n"
	}
	writeTree(t, e.project, user)
	before := snapshot(t, e.project)
	o := e.options("sample", "claude-code")
	rep, err := Install(context.Background(), o)
	if err != nil || rep.Result == nil || rep.Result.Outcome != pipeline.OutcomeRejected {
		t.Fatalf("err = %v, result %+v", err, rep.Result)
	}
	named := map[string]bool{}
	for _, v := range rejection.All(rep.Result.Err) {
		if v.Rule != schema.RuleConflictUnowned {
			t.Errorf("unexpected rule %v", v)
		}
		named[strings.Fields(v.Detail)[0]] = true
	}
	for _, p := range paths {
		if !named[p] {
			t.Errorf("%s not named by conflict.unowned (got %v)", p, rep.Result.Err)
		}
	}
	sameTree(t, "project after the refused install", snapshot(t, e.project), before)
	if _, err := os.Stat(filepath.Join(e.home, InstalledFile)); err == nil {
		t.Error("installed.yml written for a refused install")
	}
	rej := auditOf(t, e.home, rep.Correlation, audit.KindRejected)
	if len(rej) != 1 || len(rej[0].Rejected.Violations) != len(paths) || rej[0].Rejected.Violations[0].Rule != schema.RuleConflictUnowned {
		t.Fatalf("audit rejection under %s: %+v", rep.Correlation, rej)
	}

	o.Force = true
	rep = mustInstall(t, o)
	if strings.Join(rep.Forced, ",") != strings.Join(paths, ",") {
		t.Errorf("forced %v, want %v", rep.Forced, paths)
	}
	ov := auditOf(t, e.home, rep.Correlation, audit.KindOverride)
	if len(ov) != 1 || ov[0].Override.Action != audit.OverrideForce || strings.Join(ov[0].Override.Paths, ",") != strings.Join(paths, ",") {
		t.Fatalf("override records %+v", ov)
	}
	if plans := auditOf(t, e.home, rep.Correlation, audit.KindPlan); len(plans) != 1 || plans[0].Seq < ov[0].Seq {
		t.Error("the force override is not audited before the plan record")
	}
	// Forced files are lola's now: uninstall removes them.
	if _, err := Uninstall(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		if _, err := os.Lstat(filepath.Join(e.project, p)); err == nil {
			t.Errorf("%s left after uninstalling a forced install", p)
		}
	}
}

// Uninstall deletes a file lola wrote only if it still holds what lola
// wrote: an edited file (here one inside a skill directory the target
// deletes whole, and a command) is kept and reported; the rest goes.
func TestUninstallKeepsFilesTheUserEdited(t *testing.T) {
	e := newEnv(t)
	e.addModule(t, "sample", plainModule())
	e.addClaudeCode(t, "tier2")
	o := e.options("sample", "claude-code")
	mustInstall(t, o)
	edited := map[string]string{
		".claude/skills/beta/reference.md": "my notes on beta\n",
		".claude/commands/hello.md":        "my own hello\n",
	}
	for p := range edited {
		if _, err := os.Stat(filepath.Join(e.project, p)); err != nil {
			t.Fatalf("the target did not write %s: %v", p, err)
		}
	}
	writeTree(t, e.project, edited)
	// A file the user added inside a directory lola deletes is not lola's.
	writeTree(t, e.project, map[string]string{".claude/skills/alpha/mine.md": "mine\n"})
	rep, err := Uninstall(context.Background(), o)
	if err != nil || !rep.Applied() {
		t.Fatalf("uninstall: %v %+v", err, rep.Result)
	}
	kept := map[string]string{}
	for _, k := range rep.Kept {
		kept[k.Path] = k.Reason
	}
	want := map[string]string{".claude/skills/beta/reference.md": KeptEdited, ".claude/commands/hello.md": KeptEdited, ".claude/skills/alpha/mine.md": KeptUnowned}
	if len(kept) != len(want) {
		t.Errorf("kept %v, want %v", kept, want)
	}
	for p, why := range want {
		if kept[p] != why {
			t.Errorf("%s kept as %q, want %q", p, kept[p], why)
		}
	}
	got := snapshot(t, e.project)
	for p, body := range edited {
		if got[p] != body {
			t.Errorf("%s = %q after uninstall, want the user's edit", p, got[p])
		}
	}
	if got[".claude/skills/alpha/mine.md"] != "mine\n" {
		t.Error("the user's file inside a deleted skill directory is gone")
	}
	for _, gone := range []string{".claude/skills/alpha/SKILL.md", ".claude/skills/beta/SKILL.md", ".claude/agents/reviewer.md"} {
		if _, ok := got[gone]; ok {
			t.Errorf("%s (unchanged, lola's) was not removed", gone)
		}
	}
	if reg, _ := ReadRegistry(e.home); len(reg.All()) != 0 {
		t.Error("the record stayed")
	}
}

// Installing the same module twice with unchanged content changes nothing
// and says so: every write is unchanged, none replaced.
func TestReinstallUnchangedReportsUnchanged(t *testing.T) {
	e := newEnv(t)
	e.addModule(t, "sample", plainModule())
	e.addClaudeCode(t, "tier2")
	o := e.options("sample", "claude-code")
	mustInstall(t, o)
	before := snapshot(t, e.project)
	rep := mustInstall(t, o)
	for _, c := range rep.Result.Changes {
		if c.Kind != apply.ChangeNoop {
			t.Errorf("second install: %s %s, want unchanged", c.Kind, c.Path)
		}
	}
	sameTree(t, "project after the second install", snapshot(t, e.project), before)
	if reg, _ := ReadRegistry(e.home); len(reg.All()) != 1 || len(reg.All()[0].Files) == 0 {
		t.Errorf("records after reinstall: %+v", reg.All())
	}
}

// installed.yml records what the plan wrote, not what the module holds:
// a target that writes one skill only records that skill, no
// instructions, no MCP servers.
func TestRecordListsWhatWasWritten(t *testing.T) {
	e := newEnv(t)
	mod := plainModule()
	mod["mcps.json"] = `{"mcpServers": {"github": {"command": "gh"}, "notes": {"url": "https://example.org/mcp"}}}`
	e.addModule(t, "sample", mod)
	script := filepath.Join(t.TempDir(), "target")
	body := "#!/bin/sh\ncat >/dev/null\n" + `echo '{"protocol":1,"intents":[{"op":"write","path":".claude/skills/alpha/SKILL.md","content":"x"},{"op":"write","path":".claude/mcp.json","content":"{\"mcpServers\":{\"github\":{}}}"}]}'` + "\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	e.addTarget(t, "claude-code", map[string]string{"tier2": script}, "paths: [.claude/]\n")
	rep := mustInstall(t, e.options("sample", "claude-code"))
	r := rep.Record
	if strings.Join(r.Skills, ",") != "alpha" || len(r.Commands) != 0 || len(r.Agents) != 0 || r.HasInstructions || strings.Join(r.MCPs, ",") != "github" {
		t.Errorf("record %+v: want skills [alpha], mcps [github], nothing else", r)
	}
	if d, _ := ServerDigest([]byte(`{}`)); len(r.MCPValues) != 1 || len(r.MCPValues[".claude/mcp.json"]) != 1 || r.MCPValues[".claude/mcp.json"]["github"] != d {
		t.Errorf("mcp_values %v: want the digest of github's value in .claude/mcp.json only", r.MCPValues)
	}
	// The real target writes the instructions into CLAUDE.md: recorded.
	e2 := newEnv(t)
	e2.addModule(t, "sample", plainModule())
	e2.addClaudeCode(t, "tier2")
	r = mustInstall(t, e2.options("sample", "claude-code")).Record
	if !r.HasInstructions || strings.Join(r.Skills, ",") != "alpha,beta" || strings.Join(r.Commands, ",") != "hello" || strings.Join(r.Agents, ",") != "reviewer" {
		t.Errorf("claude-code record %+v", r)
	}
}

// A target never writes or deletes inside $LOLA_HOME (the module store):
// with scope user and $LOLA_HOME under the user's home, a plan touching
// .lola/modules/<M>/ is refused and the store is unchanged. A project
// inside $LOLA_HOME is refused before anything runs.
func TestTargetsNeverTouchTheStore(t *testing.T) {
	e := newEnv(t)
	e.home = filepath.Join(e.userHome, ".lola")
	modDir := e.addModule(t, "sample", plainModule())
	for _, op := range []string{
		`{"op":"write","path":".lola/modules/sample/skills/alpha/SKILL.md","content":"x"}`,
		`{"op":"delete","path":".lola/modules/sample"}`,
		`{"op":"delete","path":".lola"}`,
	} {
		script := filepath.Join(t.TempDir(), "target")
		body := "#!/bin/sh\ncat >/dev/null\necho '{\"protocol\":1,\"intents\":[" + op + "]}'\n"
		if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
		e.addTarget(t, "gemini-cli", map[string]string{"tier2": script}, "paths: [.gemini/, .lola/]\n")
		before := snapshot(t, modDir)
		o := e.options("sample", "gemini-cli")
		o.Scope = schema.ScopeUser
		rep, err := Install(context.Background(), o)
		if err != nil || rep.Result == nil || !errors.Is(rep.Result.Err, rejection.Rule(schema.RuleConflictUnowned)) {
			t.Fatalf("%s: err = %v, result %+v", op, err, rep.Result)
		}
		sameTree(t, "the store", snapshot(t, modDir), before)
	}
	o := e.options("sample", "gemini-cli")
	o.Project = filepath.Join(e.home, "modules")
	if _, err := Install(context.Background(), o); !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), "lola's home") {
		t.Errorf("project inside $LOLA_HOME: %v", err)
	}
}

// A symlinked .claude/skills is refused without consent, naming the link;
// with --replace-symlinks it becomes a real directory, the replacement is
// audited with the old target, and uninstall restores the link exactly.
func TestSymlinkedSkillsDirNeedsConsentAndIsRestored(t *testing.T) {
	e := newEnv(t)
	e.addModule(t, "sample", plainModule())
	e.addClaudeCode(t, "tier2")
	writeTree(t, e.project, map[string]string{"shared/skills/mine/SKILL.md": "my skill\n", ".claude/settings.json": "{}\n"})
	if err := os.Symlink("../shared/skills", filepath.Join(e.project, ".claude/skills")); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, e.project)
	o := e.options("sample", "claude-code")
	rep, err := Install(context.Background(), o)
	if err != nil || rep.Result == nil || !errors.Is(rep.Result.Err, rejection.Rule(schema.RulePathSymlink)) {
		t.Fatalf("without consent: err = %v, result %+v", err, rep.Result)
	}
	if len(rep.Symlinks) != 1 || rep.Symlinks[0].Path != ".claude/skills" || rep.Symlinks[0].Target != "../shared/skills" {
		t.Errorf("symlinks reported %+v", rep.Symlinks)
	}
	sameTree(t, "project after the refusal", snapshot(t, e.project), before)

	asked := 0
	o.ConfirmSymlinks = func(ls []Symlink) bool { asked++; return false }
	if rep, _ := Install(context.Background(), o); asked != 1 || rep.Applied() {
		t.Fatalf("a declined prompt: asked %d, applied %v", asked, rep.Applied())
	}
	sameTree(t, "project after a declined prompt", snapshot(t, e.project), before)

	o.ConfirmSymlinks, o.ReplaceSymlinks = nil, true
	rep = mustInstall(t, o)
	fi, err := os.Lstat(filepath.Join(e.project, ".claude/skills"))
	if err != nil || !fi.IsDir() {
		t.Fatalf(".claude/skills after consent: %v %v", fi, err)
	}
	ov := auditOf(t, e.home, rep.Correlation, audit.KindOverride)
	if len(ov) != 1 || ov[0].Override.Action != audit.OverrideReplaceSymlink || ov[0].Override.LinkTarget != "../shared/skills" || ov[0].Override.Paths[0] != ".claude/skills" {
		t.Fatalf("override records %+v", ov)
	}
	if readOr(t, filepath.Join(e.project, "shared/skills/mine/SKILL.md")) != "my skill\n" {
		t.Error("the link's target was changed")
	}
	urep, err := Uninstall(context.Background(), e.options("sample", "claude-code"))
	if err != nil || !urep.Applied() || len(urep.Restored) != 1 {
		t.Fatalf("uninstall: %v %+v restored %v", err, urep.Result, urep.Restored)
	}
	sameTree(t, "project after install and uninstall", snapshot(t, e.project), before)
	if rs := auditOf(t, e.home, urep.Correlation, audit.KindOverride); len(rs) != 1 || rs[0].Override.Action != audit.OverrideRestoreSymlink {
		t.Errorf("restore records %+v", rs)
	}
}

// A record written by today's Lola has no "files" map: uninstall counts as
// lola's exactly the files whose content is what the target's install
// writes now, so an unchanged file goes and an edited one stays.
func TestUninstallOfALegacyRecordKeepsEditedFiles(t *testing.T) {
	e := newEnv(t)
	e.addModule(t, "sample", plainModule())
	e.addClaudeCode(t, "tier2")
	o := e.options("sample", "claude-code")
	mustInstall(t, o)
	if err := UpdateRegistry(e.home, func(reg *Registry) error {
		r := reg.All()[0]
		r.Files = nil
		reg.Put(r)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	writeTree(t, e.project, map[string]string{".claude/commands/hello.md": "edited\n"})
	rep, err := Uninstall(context.Background(), o)
	if err != nil || !rep.Applied() {
		t.Fatalf("uninstall: %v %+v", err, rep.Result)
	}
	got := snapshot(t, e.project)
	if got[".claude/commands/hello.md"] != "edited\n" || len(rep.Kept) != 1 {
		t.Errorf("edited command: %q, kept %v", got[".claude/commands/hello.md"], rep.Kept)
	}
	if _, ok := got[".claude/agents/reviewer.md"]; ok {
		t.Error("the unchanged agent was kept")
	}
}

// Reinstalling over files today's Lola installed (a record without a
// "files" map) is not refused when the target writes back exactly what is
// there, even through a delete of the whole skill directory first; a
// user's own extra file in that directory still is.
func TestReinstallOverALegacyInstallWithIdenticalContent(t *testing.T) {
	e := newEnv(t)
	e.addModule(t, "sample", plainModule())
	e.addClaudeCode(t, "tier2")
	o := e.options("sample", "claude-code")
	mustInstall(t, o)
	if err := UpdateRegistry(e.home, func(reg *Registry) error {
		r := reg.All()[0]
		r.Files = nil
		reg.Put(r)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	rep := mustInstall(t, o)
	for _, c := range rep.Result.Changes {
		if c.Kind != apply.ChangeNoop {
			t.Errorf("%s %s, want unchanged", c.Kind, c.Path)
		}
	}
	writeTree(t, e.project, map[string]string{".claude/skills/alpha/notes.md": "mine\n"})
	if err := UpdateRegistry(e.home, func(reg *Registry) error {
		r := reg.All()[0]
		r.Files = nil
		reg.Put(r)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, e.project)
	rep, err := Install(context.Background(), o)
	if err != nil || rep.Result == nil || !errors.Is(rep.Result.Err, rejection.Rule(schema.RuleConflictUnowned)) {
		t.Fatalf("err = %v, result %+v", err, rep.Result)
	}
	if vs := rejection.All(rep.Result.Err); len(vs) != 1 || !strings.HasPrefix(vs[0].Detail, ".claude/skills/alpha/notes.md ") {
		t.Errorf("violations %v", vs)
	}
	sameTree(t, "project", snapshot(t, e.project), before)
}

// A managed file that is a link to another file of the project (CLAUDE.md
// -> AGENTS.md, a common setup) is refused without consent, naming it and
// the flag; with consent it becomes a copy of what it pointed at, the
// target merges its block into that copy, the linked file is untouched,
// and uninstall puts the link back. A link to a file outside the project
// is never copied (only removed).
func TestSymlinkedManagedFileIsCopiedWithConsentAndRestored(t *testing.T) {
	e := newEnv(t)
	e.addModule(t, "sample", plainModule())
	e.addClaudeCode(t, "tier2")
	writeTree(t, e.project, map[string]string{"AGENTS.md": "# Shared notes\n"})
	if err := os.Symlink("AGENTS.md", filepath.Join(e.project, "CLAUDE.md")); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, e.project)
	o := e.options("sample", "claude-code")
	rep, err := Install(context.Background(), o)
	if !errors.Is(err, rejection.Rule(schema.RulePathSymlink)) || !strings.Contains(err.Error(), "CLAUDE.md is a symbolic link") || !strings.Contains(err.Error(), "--replace-symlinks") {
		t.Fatalf("without consent: %v", err)
	}
	if len(rep.Symlinks) != 1 || !rep.Symlinks[0].Copy {
		t.Errorf("reported %+v", rep.Symlinks)
	}
	sameTree(t, "project after the refusal", snapshot(t, e.project), before)

	o.ReplaceSymlinks = true
	mustInstall(t, o)
	got := snapshot(t, e.project)
	if !strings.HasPrefix(got["CLAUDE.md"], "# Shared notes\n") || !strings.Contains(got["CLAUDE.md"], "Use the alpha skill first.") {
		t.Errorf("CLAUDE.md after install: %q", got["CLAUDE.md"])
	}
	if got["AGENTS.md"] != "# Shared notes\n" {
		t.Errorf("the link's target changed: %q", got["AGENTS.md"])
	}
	if _, err := Uninstall(context.Background(), e.options("sample", "claude-code")); err != nil {
		t.Fatal(err)
	}
	sameTree(t, "project after install and uninstall", snapshot(t, e.project), before)

	// A link out of the project: its content is never copied in.
	outside := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(outside, []byte("private\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(e.project, "CLAUDE.md"))
	if err := os.Symlink(outside, filepath.Join(e.project, "CLAUDE.md")); err != nil {
		t.Fatal(err)
	}
	mustInstall(t, o)
	if b := readOr(t, filepath.Join(e.project, "CLAUDE.md")); strings.Contains(b, "private") {
		t.Errorf("a file outside the project was copied in: %q", b)
	}
	if readOr(t, outside) != "private\n" {
		t.Error("the file outside the project changed")
	}
}

// Two modules writing one path: the second may replace what lola wrote
// for the first (lola's file), and uninstalling the first then keeps the
// file, which holds the second's content; uninstalling the second removes
// it.
func TestUninstallKeepsAFileAnotherModuleWroteOver(t *testing.T) {
	e := newEnv(t)
	a := plainModule()
	e.addModule(t, "first", a)
	b := map[string]string{"commands/hello.md": "---\ndescription: Other hello\n---\nHello from the second.\n"}
	e.addModule(t, "second", b)
	e.addClaudeCode(t, "tier2")
	mustInstall(t, e.options("first", "claude-code"))
	mustInstall(t, e.options("second", "claude-code"))
	hello := filepath.Join(e.project, ".claude/commands/hello.md")
	second := readOr(t, hello)
	if !strings.Contains(second, "Hello from the second.") {
		t.Fatalf("hello.md after the second install: %q", second)
	}
	rep, err := Uninstall(context.Background(), e.options("first", "claude-code"))
	if err != nil || !rep.Applied() {
		t.Fatalf("uninstall first: %v", err)
	}
	if readOr(t, hello) != second {
		t.Error("uninstalling the first module removed the second's file")
	}
	if _, err := Uninstall(context.Background(), e.options("second", "claude-code")); err != nil {
		t.Fatal(err)
	}
	if readOr(t, hello) != "<absent>" {
		t.Error("uninstalling the second module left its file")
	}
}

// A user's file that already holds, byte for byte, what the target
// renders is not lola's: the install's write of it changes nothing and is
// not recorded, and uninstall keeps it (it reports it as not lola's).
// Lola never deletes a file it did not write.
func TestNoOpWriteOverTheUsersIdenticalFileStaysTheUsers(t *testing.T) {
	scratch := newEnv(t)
	scratch.addModule(t, "sample", plainModule())
	scratch.addClaudeCode(t, "tier2")
	mustInstall(t, scratch.options("sample", "claude-code"))
	rendered := map[string]string{}
	for p, body := range snapshot(t, scratch.project) {
		if p != "CLAUDE.md" && body != "<dir>" {
			rendered[p] = body
		}
	}
	if len(rendered) < 4 {
		t.Fatalf("the target wrote only %v", rendered)
	}

	e := newEnv(t)
	e.addModule(t, "sample", plainModule())
	e.addClaudeCode(t, "tier2")
	writeTree(t, e.project, rendered)
	o := e.options("sample", "claude-code")
	rep := mustInstall(t, o)
	for p := range rendered {
		if _, ok := rep.Record.Files[p]; ok {
			t.Errorf("%s was the user's (identical content) and is recorded as lola's", p)
		}
	}
	rep, err := Uninstall(context.Background(), o)
	if err != nil || !rep.Applied() {
		t.Fatalf("uninstall: %v %+v", err, rep.Result)
	}
	got := snapshot(t, e.project)
	for p, body := range rendered {
		if got[p] != body {
			t.Errorf("%s = %q after uninstall, want the user's file kept", p, got[p])
		}
	}
	kept := map[string]string{}
	for _, k := range rep.Kept {
		kept[k.Path] = k.Reason
	}
	for p := range rendered {
		if kept[p] != KeptUnowned {
			t.Errorf("%s kept as %q, want %q", p, kept[p], KeptUnowned)
		}
	}
}

// A reinstall (lola update) over today's Lola's record (no "files") makes
// lola's what today's Lola wrote: a write equal to the file there is a
// no-op, and the previous record is the proof that lola wrote it, as the
// uninstall of such a record judges (legacyOwnership). Without that, the
// update recorded nothing and the uninstall after it left every file.
func TestUpdateOverALegacyRecordKeepsItsFilesLolas(t *testing.T) {
	e := newEnv(t)
	e.addModule(t, "sample", plainModule())
	e.addClaudeCode(t, "tier2")
	o := e.options("sample", "claude-code")
	first := mustInstall(t, o)
	if err := UpdateRegistry(e.home, func(reg *Registry) error {
		r := reg.All()[0]
		r.Files = nil
		reg.Put(r)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	rep := mustInstall(t, o)
	for p, sum := range first.Record.Files {
		if rep.Record.Files[p] != sum {
			t.Errorf("%s: recorded %q after the update, want %q (today's Lola wrote it)", p, rep.Record.Files[p], sum)
		}
	}
	if _, err := Uninstall(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	for p := range first.Record.Files {
		if _, err := os.Lstat(filepath.Join(e.project, filepath.FromSlash(p))); err == nil {
			t.Errorf("%s left by the uninstall after the update", p)
		}
	}
}
