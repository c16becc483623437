package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/lola-pm/lola/host/extension"
	"github.com/lola-pm/lola/host/remote/remotetest"
)

// Tests of today's Lola's command line that the other files do not cover;
// docs/upstream-cli-parity.md names each.

// mod info takes a path too, as today's Lola's MODULE_NAME_OR_PATH does:
// "." and anything with a '/' is a folder, read in place (nothing is
// added to the store); a bare name is the store's module.
func TestModInfoPath(t *testing.T) {
	home := modTestHome(t)
	dir := t.TempDir()
	src := filepath.Join(dir, "local-mod")
	modWriteFiles(t, src, map[string]string{
		"module/skills/one/SKILL.md": "---\ndescription: the one skill\n---\n",
		"module/commands/go.md":      "---\ndescription: go\n---\n",
	})
	t.Chdir(dir)
	for _, arg := range []string{"./local-mod", src} {
		code, out, errs := runModCLI(t, "info", arg)
		if code != exitOK || !strings.Contains(out, "local-mod") || !strings.Contains(out, "the one skill") || !strings.Contains(out, "/go") {
			t.Errorf("mod info %s: %d %q %q", arg, code, out, errs)
		}
	}
	t.Chdir(src)
	if code, out, errs := runModCLI(t, "info", "."); code != exitOK || !strings.Contains(out, "local-mod") || !strings.Contains(out, "one") {
		t.Errorf("mod info .: %d %q %q", code, out, errs)
	}
	if code, _, errs := runModCLI(t, "info", "./absent"); code != exitInternal || !strings.Contains(errs, "Path not found") {
		t.Errorf("mod info ./absent: %d %q", code, errs)
	}
	empty := filepath.Join(dir, "empty")
	if err := os.MkdirAll(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := runModCLI(t, "info", empty); code != exitOK || !strings.Contains(out+errs, "No skills or commands found") {
		t.Errorf("mod info of an empty folder: %d %q %q", code, out, errs)
	}
	if es, _ := os.ReadDir(filepath.Join(home, "modules")); len(es) != 0 {
		t.Errorf("mod info PATH added to the store: %v", es)
	}
}

// mod info of a stored module names where it came from, as today's Lola's
// "Source" section does.
func TestModInfoShowsSource(t *testing.T) {
	modTestHome(t)
	src := filepath.Join(t.TempDir(), "sourced")
	modWriteFiles(t, src, map[string]string{"skills/one/SKILL.md": "---\ndescription: one\n---\n"})
	if code, _, errs := runModCLI(t, "add", src); code != exitOK {
		t.Fatal(errs)
	}
	code, out, errs := runModCLI(t, "info", "sourced")
	if code != exitOK || !strings.Contains(out, "Source") || !strings.Contains(out, "folder") || !strings.Contains(out, src) {
		t.Fatalf("%d %q %q", code, out, errs)
	}
}

// search: --mod and --market together is a usage error; the store is
// searched by module, skill, command and agent names (today's Lola); mod
// search says on stderr that it is the old spelling.
func TestSearchParity(t *testing.T) {
	modTestHome(t)
	src := filepath.Join(t.TempDir(), "toolbox")
	modWriteFiles(t, src, map[string]string{
		"skills/alpha/SKILL.md": "---\ndescription: a\n---\n",
		"commands/deploy.md":    "---\ndescription: d\n---\n",
		"agents/reviewer.md":    "---\ndescription: r\n---\n",
	})
	if code, _, errs := runModCLI(t, "add", src); code != exitOK {
		t.Fatal(errs)
	}
	if code, out, errs := runLola(t, "search", "x", "--mod", "--market"); code != exitUsage || !strings.Contains(errs, "mutually exclusive") {
		t.Errorf("--mod --market: %d %q %q", code, out, errs)
	}
	for _, q := range []string{"deploy", "REVIEW", "alpha", "toolbox"} {
		if code, out, errs := runLola(t, "search", q, "--mod"); code != exitOK || !strings.Contains(out, "toolbox") {
			t.Errorf("search %s --mod: %d %q %q", q, code, out, errs)
		}
	}
	if code, out, errs := runLola(t, "mod", "search", "deploy"); code != exitOK || !strings.Contains(out, "toolbox") || !strings.Contains(errs, "deprecated") || strings.Contains(out, "deprecated") {
		t.Errorf("mod search: %d %q %q", code, out, errs)
	}
	if code, out, _ := runLola(t, "search", "nothing-like-it", "--mod"); code != exitOK || !strings.Contains(out, "No modules found matching 'nothing-like-it'") {
		t.Errorf("no match: %d %q", code, out)
	}
}

// market update NAME --all is a usage error (today's Lola refuses it too).
func TestMarketUpdateNameAndAll(t *testing.T) {
	modTestHome(t)
	if code, out, errs := runLola(t, "market", "update", "community", "--all"); code != exitUsage || !strings.Contains(errs, "NAME and --all") {
		t.Fatalf("%d %q %q", code, out, errs)
	}
}

// -a names an assistant target: one lola does not know is a usage error
// (exit 2) on every command that takes it, before anything else is looked
// at, as today's Lola's choice check is.
func TestUnknownAssistantIsUsage(t *testing.T) {
	modTestHome(t)
	project := t.TempDir()
	if err := os.WriteFile(filepath.Join(project, ".lola-req"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"list", "-a", "bogus"},
		{"update", "-a", "bogus"},
		{"install", "nonexistent", "-a", "bogus", project},
		{"uninstall", "nonexistent", "-a", "bogus", project},
		{"sync", project, "-a", "bogus"},
	} {
		if code, out, errs := runLola(t, args...); code != exitUsage || !strings.Contains(errs, "Invalid value for '-a'") {
			t.Errorf("%v: %d %q %q", args, code, out, errs)
		}
	}
}

// The assistants -a admits without their files (extension.ShippedTargets)
// are exactly the built-in targets make build ships.
func TestShippedTargetsAreTheBuiltins(t *testing.T) {
	_, names := builtLola(t)
	if strings.Join(names, " ") != strings.Join(extension.ShippedTargets, " ") {
		t.Fatalf("lola has the built-ins %v; extension.ShippedTargets says %v", names, extension.ShippedTargets)
	}
}

// mod rm -f uninstalls the module from every install installed.yml
// records before removing it from the store, as today's Lola does, so no
// install is left that lola could no longer uninstall. All the uninstalls
// share one correlation id. The first one refused stops the run: the
// finished ones stay uninstalled and unrecorded, the refused one and the
// rest are untouched and named, and the module stays in the store; once
// the cause is gone, mod rm -f finishes. A project that no longer exists
// only loses its record.
func TestEndToEndModRmUninstallsEverywhere(t *testing.T) {
	exe, _ := builtLola(t)
	base := t.TempDir()
	home, src := filepath.Join(base, "home"), filepath.Join(base, "mm")
	env := []string{"LOLA_HOME=" + home, "HOME=" + filepath.Join(base, "userhome")}
	modWriteFiles(t, src, map[string]string{
		"skills/s1/SKILL.md": "---\nname: s1\ndescription: s1\n---\nbody\n",
		"AGENTS.md":          "# MM\n\nUse s1.\n",
	})
	if r := runBuilt(t, exe, env, "mod", "add", src); r.code != 0 {
		t.Fatalf("mod add: %+v", r)
	}
	var projects []string
	for _, p := range []string{"a", "b", "c", "gone"} {
		dir := filepath.Join(base, p)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if r := runBuilt(t, exe, env, "install", "mm", "-a", "claude-code", dir); r.code != 0 {
			t.Fatalf("install %s: %+v", p, r)
		}
		projects = append(projects, dir)
	}
	if err := os.RemoveAll(projects[3]); err != nil {
		t.Fatal(err)
	}
	if r := runBuilt(t, exe, env, "mod", "rm", "mm"); r.code != exitUsage || !strings.Contains(r.err, "--force") {
		t.Fatalf("mod rm without -f, no terminal: %+v", r)
	}
	// b's .claude becomes a symbolic link: lola acts through none.
	outside := t.TempDir()
	bClaude := filepath.Join(projects[1], ".claude")
	if err := os.Rename(bClaude, filepath.Join(outside, "claude")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "claude"), bClaude); err != nil {
		t.Fatal(err)
	}
	bBefore, cBefore := projectEntries(t, projects[1]), projectEntries(t, projects[2])
	r := runBuilt(t, exe, env, "mod", "rm", "mm", "-f")
	if r.code != exitRejected {
		t.Fatalf("mod rm -f with b refused: %+v", r)
	}
	if got := projectEntries(t, projects[0]); len(got) != 0 {
		t.Errorf("a, uninstalled before the refusal, holds %v", got)
	}
	if got := projectEntries(t, projects[1]); strings.Join(got, " ") != strings.Join(bBefore, " ") {
		t.Errorf("the refused install changed: %v -> %v", bBefore, got)
	}
	if got := projectEntries(t, projects[2]); strings.Join(got, " ") != strings.Join(cBefore, " ") {
		t.Errorf("a remaining install was touched: %v -> %v", cBefore, got)
	}
	if !strings.Contains(r.err, "not uninstalled (the run stopped): mm for claude-code in project "+projects[2]) || !strings.Contains(r.err, "stays in the store") {
		t.Errorf("the remaining install is not named:\n%s", r.err)
	}
	reg := readFileOr(filepath.Join(home, "installed.yml"))
	if strings.Contains(reg, projects[0]+"\n") || !strings.Contains(reg, projects[1]) || !strings.Contains(reg, projects[2]) {
		t.Errorf("installed.yml after the stopped rm:\n%s", reg)
	}
	if _, err := os.Stat(filepath.Join(home, "modules", "mm")); err != nil {
		t.Fatal("a stopped mod rm removed the module from the store")
	}
	corr := correlationIn(t, r.out+r.err)
	show := runBuilt(t, exe, env, "audit", "show", "--correlation", corr)
	// b is refused before its target runs (lola acts through no link), so
	// the run's one plan is a's uninstall.
	if show.code != 0 || strings.Count(show.out, " plan ") != 1 || !strings.Contains(show.out, "committed") || !strings.Contains(r.err, "path.symlink") {
		t.Errorf("audit show --correlation %s: the uninstall of a under the run's id:\n%s\n%s", corr, show.out, r.err)
	}

	if err := os.Remove(bClaude); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(outside, "claude"), bClaude); err != nil {
		t.Fatal(err)
	}
	r = runBuilt(t, exe, env, "mod", "rm", "mm", "-f")
	if r.code != 0 || !strings.Contains(r.out, "Removed mm") || !strings.Contains(r.err, "no longer exists") {
		t.Fatalf("mod rm -f: %+v", r)
	}
	for _, p := range projects[1:3] {
		if got := projectEntries(t, p); len(got) != 0 {
			t.Errorf("%s still holds %v", p, got)
		}
	}
	if reg := readFileOr(filepath.Join(home, "installed.yml")); strings.Contains(reg, "module: mm") {
		t.Errorf("installed.yml still records mm:\n%s", reg)
	}
	if _, err := os.Stat(filepath.Join(home, "modules", "mm")); err == nil {
		t.Error("mm is still in the store")
	}
	if r := runBuilt(t, exe, env, "audit", "verify"); r.code != 0 {
		t.Errorf("audit verify: %+v", r)
	}
}

// correlationIn finds the "audit correlation ID" a command printed.
func correlationIn(t *testing.T, s string) string {
	t.Helper()
	_, rest, ok := strings.Cut(s, "audit correlation ")
	if !ok {
		t.Fatalf("no audit correlation in:\n%s", s)
	}
	id, _, _ := strings.Cut(rest, " ")
	id, _, _ = strings.Cut(id, "\n")
	return id
}

// A .lola-req line spelled as today's Lola's documentation spells it,
// git+https://HOST/repo.git@REF, is cloned by lola's remote client at REF
// (the "git+" dropped): the module installed is the tagged one, its
// source record keeps the ref, and the sync is recorded under one
// correlation id.
func TestEndToEndSyncGitURLAtRef(t *testing.T) {
	exe, _ := builtLola(t)
	repo := remotetest.NewGitRepo(t)
	repo.Commit(map[string]string{"skills/s1/SKILL.md": "---\nname: s1\ndescription: s1\n---\nv1\n"})
	repo.Tag("v1")
	repo.Commit(map[string]string{"skills/s2/SKILL.md": "---\nname: s2\ndescription: s2\n---\nv2\n"})
	srv := extTLSServer(t, repo.Handler())
	home, certs := extRemoteHome(t, srv), remotetest.CertFile(t, srv)
	project := t.TempDir()
	env := []string{"LOLA_HOME=" + home, "SSL_CERT_FILE=" + certs, "SSL_CERT_DIR=" + filepath.Dir(certs), "HOME=" + t.TempDir()}
	line := "git+" + srv.URL + "/repo.git@v1#assistant=claude-code\n"
	if err := os.WriteFile(filepath.Join(project, ".lola-req"), []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runBuilt(t, exe, env, "sync", project)
	if r.code != 0 || !strings.Contains(r.out, "installed repo (claude-code)") {
		t.Fatalf("sync: %+v", r)
	}
	if _, err := os.Stat(filepath.Join(project, ".claude/skills/s1/SKILL.md")); err != nil {
		t.Error("the tagged skill is not installed")
	}
	if _, err := os.Stat(filepath.Join(project, ".claude/skills/s2")); err == nil {
		t.Error("a skill committed after the tag is installed")
	}
	if info := runBuilt(t, exe, env, "mod", "info", "repo"); !strings.Contains(info.out, "ref: v1") {
		t.Errorf("the source record lost the ref:\n%+v", info)
	}
	corr := correlationIn(t, r.out)
	if show := runBuilt(t, exe, env, "audit", "show", "--correlation", corr); show.code != 0 || !strings.Contains(show.out, "committed") {
		t.Errorf("audit show --correlation %s:\n%+v", corr, show)
	}
}

// install @MARKET/MODULE[@REF], as today's Lola: the module is cloned
// from the catalog entry's repository at the entry's ref (or @REF), the
// entry's hooks run when the module's lola.yaml names none, and
// installed.yml records the catalog version and the ref, which lola list
// shows and lola update keeps.
func TestEndToEndInstallFromMarketplaceRecordsVersionAndRef(t *testing.T) {
	exe, _ := builtLola(t)
	repo := remotetest.NewGitRepo(t)
	repo.Commit(map[string]string{
		"skills/s1/SKILL.md": "---\nname: s1\ndescription: s1\n---\nv1\n",
		"scripts/post.sh":    "#!/bin/bash\necho \"$LOLA_HOOK\" > \"$LOLA_PROJECT_PATH/../hook-ran\"\n",
	})
	repo.Tag("v1")
	repo.Commit(map[string]string{"skills/s2/SKILL.md": "---\nname: s2\ndescription: s2\n---\nv2\n"})
	mux := http.NewServeMux()
	git := repo.Handler()
	mux.Handle("/repo.git/", git)
	var catalog string
	mux.HandleFunc("/catalog.yml", func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, catalog) })
	srv := extTLSServer(t, mux)
	catalog = "name: Community\nversion: 1.0.0\nmodules:\n  - name: tools\n    description: Tools\n    version: 1.2.0\n    repository: " + srv.URL + "/repo.git\n    ref: v1\n    hooks:\n      post-install: scripts/post.sh\n"
	home, certs := extRemoteHome(t, srv), remotetest.CertFile(t, srv)
	base := t.TempDir()
	project := filepath.Join(base, "project")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	env := []string{"LOLA_HOME=" + home, "SSL_CERT_FILE=" + certs, "SSL_CERT_DIR=" + filepath.Dir(certs), "HOME=" + t.TempDir()}
	if r := runBuilt(t, exe, env, "market", "add", "community", srv.URL+"/catalog.yml"); r.code != 0 {
		t.Fatalf("market add: %+v", r)
	}
	if r := runBuilt(t, exe, env, "install", "@community/tools", "-a", "claude-code", project); r.code != 0 {
		t.Fatalf("install: %+v", r)
	}
	if _, err := os.Stat(filepath.Join(project, ".claude/skills/s2")); err == nil {
		t.Error("installed past the entry's ref")
	}
	if b, err := os.ReadFile(filepath.Join(base, "hook-ran")); err != nil || strings.TrimSpace(string(b)) != "post-install" {
		t.Errorf("the catalog entry's post-install hook did not run: %q %v", b, err)
	}
	reg := readFileOr(filepath.Join(home, "installed.yml"))
	if !strings.Contains(reg, "version: 1.2.0") || !strings.Contains(reg, "ref: v1") {
		t.Fatalf("installed.yml does not record the version and ref:\n%s", reg)
	}
	if r := runBuilt(t, exe, env, "list"); !strings.Contains(r.out, "version: 1.2.0") || !strings.Contains(r.out, "ref: v1") {
		t.Errorf("list does not show the version and ref:\n%s", r.out)
	}
	if r := runBuilt(t, exe, env, "update"); r.code != 0 {
		t.Fatalf("update: %+v", r)
	}
	if reg := readFileOr(filepath.Join(home, "installed.yml")); !strings.Contains(reg, "version: 1.2.0") || !strings.Contains(reg, "ref: v1") {
		t.Errorf("update dropped the version and ref:\n%s", reg)
	}
	if r := runBuilt(t, exe, env, "install", "@community/tools@main", "-a", "claude-code", project); r.code != 0 {
		t.Fatalf("install @main: %+v", r)
	}
	if _, err := os.Stat(filepath.Join(project, ".claude/skills/s2/SKILL.md")); err != nil {
		t.Error("@main did not install main's content")
	}
	if reg := readFileOr(filepath.Join(home, "installed.yml")); !strings.Contains(reg, "ref: main") {
		t.Errorf("installed.yml does not record the ref asked for:\n%s", reg)
	}
}

// lola sync and lola update with three installs, the second refused: the
// first and third are installed and recorded, the second is untouched,
// the output names it with its cause, the exit code is the refusal's (3),
// and every audit record of the command carries the one correlation id it
// prints (lola audit show --correlation).
func TestEndToEndSyncAndUpdateGoOnPastTheSecondOfThree(t *testing.T) {
	exe, _ := builtLola(t)
	base := t.TempDir()
	home, project := filepath.Join(base, "home"), filepath.Join(base, "project")
	env := []string{"LOLA_HOME=" + home, "HOME=" + filepath.Join(base, "userhome")}
	for _, m := range []string{"m1", "m2", "m3"} {
		src := filepath.Join(base, "src", m)
		modWriteFiles(t, src, map[string]string{"skills/" + m + "-skill/SKILL.md": "---\nname: " + m + "-skill\ndescription: d\n---\nbody\n"})
		if r := runBuilt(t, exe, env, "mod", "add", src); r.code != 0 {
			t.Fatalf("mod add %s: %+v", m, r)
		}
	}
	if err := os.MkdirAll(filepath.Join(project, ".claude/skills"), 0o755); err != nil {
		t.Fatal(err)
	}
	// m2's skill directory is a symbolic link: lola writes through none.
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(project, ".claude/skills/m2-skill")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(project, ".lola-req"), []byte("m1\nm2\nm3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runBuilt(t, exe, env, "sync", project, "-a", "claude-code")
	if r.code != exitRejected || !strings.Contains(r.err, "not synced: line 2 (m2) for claude-code") || !strings.Contains(r.out, "2 installed, 0 already installed, 0 would install, 1 failed") {
		t.Fatalf("sync: %+v", r)
	}
	for _, m := range []string{"m1", "m3"} {
		if _, err := os.Stat(filepath.Join(project, ".claude/skills/"+m+"-skill/SKILL.md")); err != nil {
			t.Errorf("%s, beside the refusal, is not installed", m)
		}
	}
	if es, _ := os.ReadDir(outside); len(es) != 0 {
		t.Errorf("the refused install wrote through the link: %v", es)
	}
	reg := readFileOr(filepath.Join(home, "installed.yml"))
	if !strings.Contains(reg, "module: m1") || strings.Contains(reg, "module: m2") || !strings.Contains(reg, "module: m3") {
		t.Errorf("installed.yml after the sync:\n%s", reg)
	}
	oneCorrelation(t, exe, env, home, r, 2)

	// Now three recorded installs of m1 (projects a, b, c); b refuses.
	var projects []string
	for _, p := range []string{"a", "b", "c"} {
		dir := filepath.Join(base, p)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if r := runBuilt(t, exe, env, "install", "m1", "-a", "claude-code", dir); r.code != 0 {
			t.Fatalf("install %s: %+v", p, r)
		}
		projects = append(projects, dir)
	}
	if err := os.RemoveAll(project); err != nil { // its install is stale now
		t.Fatal(err)
	}
	bSkill := filepath.Join(projects[1], ".claude/skills/m1-skill")
	if err := os.RemoveAll(bSkill); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, bSkill); err != nil {
		t.Fatal(err)
	}
	// m1 gains a skill in its source: the update must bring it to a and c.
	modWriteFiles(t, filepath.Join(base, "src", "m1"), map[string]string{"skills/m1-new/SKILL.md": "---\nname: m1-new\ndescription: d\n---\nnew\n"})
	if r := runBuilt(t, exe, env, "mod", "update", "m1"); r.code != 0 {
		t.Fatalf("mod update: %+v", r)
	}
	r = runBuilt(t, exe, env, "update", "m1")
	if r.code != exitRejected || !strings.Contains(r.err, "not updated: m1 for claude-code in project "+projects[1]) || strings.Contains(r.out, "Update complete") {
		t.Fatalf("update: %+v", r)
	}
	for _, p := range []string{projects[0], projects[2]} {
		if !strings.Contains(r.out, "m1  claude-code  project "+p) {
			t.Errorf("the update of %s is not reported:\n%s", p, r.out)
		}
		if _, err := os.Stat(filepath.Join(p, ".claude/skills/m1-new/SKILL.md")); err != nil {
			t.Errorf("%s was not updated", p)
		}
	}
	if _, err := os.Stat(filepath.Join(projects[1], ".claude/skills/m1-new")); err == nil {
		t.Error("b, refused, was updated")
	}
	oneCorrelation(t, exe, env, home, r, 2)
}

// oneCorrelation checks that the command's printed correlation id selects,
// through lola audit show --correlation, exactly the plan records the
// command's committed installs made (committed of them), and no others.
func oneCorrelation(t *testing.T, exe string, env []string, home string, r lolaRun, committed int) {
	t.Helper()
	corr := correlationIn(t, r.out+r.err)
	show := runBuilt(t, exe, env, "audit", "show", "--correlation", corr)
	if show.code != 0 || strings.Count(show.out, " committed ") != committed {
		t.Fatalf("audit show --correlation %s: want %d committed plans\n%s", corr, committed, show.out)
	}
	all := runBuilt(t, exe, env, "audit", "show")
	if strings.Count(all.out, corr) != strings.Count(show.out, corr) {
		t.Fatalf("the filter and the log disagree on %s", corr)
	}
}

// Hostile catalogs through the CLI, each served over https by a server
// config.yaml admits: oversized, malformed, an unknown key, a module at a
// private address, a module over http, and a catalog URL that redirects to
// a loopback server that is not admitted; and an http:// catalog URL.
// market add refuses each with exit 3 naming the rule, registers nothing,
// and nothing can then be installed or synced from it. A catalog that turns
// hostile on market update is refused and the one before kept.
func TestEndToEndHostileCatalogsRefused(t *testing.T) {
	entry := func(repo string) string {
		return "name: x\nversion: '1'\nmodules:\n  - name: m\n    description: d\n    version: '1'\n    repository: " + repo + "\n"
	}
	inner := extTLSServer(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		io.WriteString(w, entry("https://example.com/m.git"))
	}))
	var body string
	srv := extTLSServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/redirect.yml" {
			http.Redirect(w, r, inner.URL+"/catalog.yml", http.StatusFound)
			return
		}
		io.WriteString(w, body)
	}))
	certs := remotetest.CertFile(t, srv, inner)
	for _, tc := range []struct {
		name, body, path, want string
	}{
		{"oversized", "name: x\nversion: '1'\nmodules: []\ndescription: '" + strings.Repeat("a", 1<<20) + "'\n", "/catalog.yml", "remote.bound"},
		{"malformed", "name: [unclosed\n", "/catalog.yml", "catalog"},
		{"unknown key", "name: x\nmodules: []\nbackdoor: 1\n", "/catalog.yml", "catalog"},
		{"module at a private address", entry("https://10.1.2.3/m.git"), "/catalog.yml", "remote.destination"},
		{"module over http", entry("http://example.com/m.git"), "/catalog.yml", "remote.scheme"},
		{"redirect to loopback", entry("https://example.com/m.git"), "/redirect.yml", "remote.destination"},
		{"catalog over http", "", "http", "remote.scheme"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body = tc.body
			home := extRemoteHome(t, srv) // the catalog server only; inner is loopback, not admitted
			url := srv.URL + tc.path
			if tc.path == "http" {
				url = strings.Replace(srv.URL, "https://", "http://", 1) + "/catalog.yml"
			}
			code, out, errOut := extLolaChild(t, home, certs, "market", "add", "community", url)
			if code != exitRejected || !strings.Contains(errOut, tc.want) {
				t.Fatalf("market add: exit %d, want 3 naming %s\n%s%s", code, tc.want, out, errOut)
			}
			if left := marketEntries(t, home); len(left) != 0 {
				t.Fatalf("a refused catalog left %v", left)
			}
			project := t.TempDir()
			if err := os.WriteFile(filepath.Join(project, ".lola-req"), []byte("@community/m\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, args := range [][]string{{"install", "@community/m", "-a", "claude-code", project}, {"sync", project, "-a", "claude-code"}} {
				if code, out, errOut := extLolaChild(t, home, certs, args...); code == exitOK {
					t.Errorf("%v from a refused catalog: exit 0\n%s%s", args, out, errOut)
				}
			}
			if es, _ := os.ReadDir(filepath.Join(home, "modules")); len(es) != 0 {
				t.Errorf("the store holds %v", es)
			}
			if got := projectEntries(t, project); len(got) != 1 {
				t.Errorf("the project holds %v", got)
			}
		})
	}
	t.Run("turns hostile on update", func(t *testing.T) {
		body = entry("https://example.com/m.git")
		home := extRemoteHome(t, srv)
		if code, out, errOut := extLolaChild(t, home, certs, "market", "add", "community", srv.URL+"/catalog.yml"); code != exitOK {
			t.Fatalf("market add: %d\n%s%s", code, out, errOut)
		}
		cache := filepath.Join(home, "market", "cache", "community.yml")
		before := readFileOr(cache)
		body = entry("https://192.168.1.1/m.git")
		if code, out, errOut := extLolaChild(t, home, certs, "market", "update", "community"); code != exitRejected || !strings.Contains(errOut, "remote.destination") {
			t.Fatalf("market update: %d\n%s%s", code, out, errOut)
		}
		if after := readFileOr(cache); after != before {
			t.Errorf("a refused update changed the cached catalog:\n%s", after)
		}
	})
}

// A catalog entry whose repository names a host that resolves to loopback
// passes the catalog's checks (names are resolved when cloned) and is
// refused by the remote client at the clone: each line naming it is
// refused in turn, the sync exits 3, and nothing is fetched or installed
// (TestInstallFromMarketplaceRefusedByPolicy is install's).
func TestSyncFromMarketplaceRefusedByPolicy(t *testing.T) {
	home := addLoopbackMarket(t)
	project := t.TempDir()
	if err := os.WriteFile(filepath.Join(project, ".lola-req"), []byte("@community/local-tools\nlocal-tools\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runLola(t, "sync", project, "-a", "claude-code")
	if code != exitRejected || strings.Count(errOut, "remote.destination") != 2 || !strings.Contains(errOut, "not synced: line 2 (local-tools)") {
		t.Fatalf("sync: %d\n%s%s", code, out, errOut)
	}
	if es, _ := os.ReadDir(filepath.Join(home, "modules")); len(es) != 0 {
		t.Errorf("the store holds %v", es)
	}
	if got := projectEntries(t, project); len(got) != 1 || got[0] != ".lola-req" {
		t.Errorf("the project holds %v, want only its .lola-req", got)
	}
}

// mod add --ref refuses a ref starting with '-' before fetching anything,
// as today's Lola does.
func TestModAddRefStartingWithDash(t *testing.T) {
	home := modTestHome(t)
	code, out, errs := runModCLI(t, "add", "https://127.0.0.1:9/u/r.git", "--ref", "-evil")
	if code != exitUsage || !strings.Contains(errs, "cannot start with '-'") || strings.Contains(out+errs, "cloning") {
		t.Fatalf("%d %q %q", code, out, errs)
	}
	if es, _ := os.ReadDir(filepath.Join(home, "modules")); len(es) != 0 {
		t.Fatalf("the store holds %v", es)
	}
}

// Every command of the tree, walked rather than listed, refuses an
// unknown flag (long and short) with exit 2 "No such option"; every group
// refuses an unknown subcommand with exit 2 "No such command" and, run
// alone, is a usage error too (its help on stderr). The "repo" alias of
// market answers as market does.
func TestEveryCommandRefusesUnknownFlagsAndSubcommands(t *testing.T) {
	modTestHome(t)
	t.Chdir(t.TempDir())
	root := newRoot(strings.NewReader(""), io.Discard, io.Discard)
	var walk func(c *cobra.Command, path []string)
	n := 0
	walk = func(c *cobra.Command, path []string) {
		if c.Name() == "help" {
			return
		}
		n++
		for _, flag := range []string{"--no-such-flag", "-Z"} {
			args := append(append([]string(nil), path...), flag)
			// The hidden tier-1 child answers in its own diagnostic format,
			// still exit 2.
			if code, out, errs := runUsage(t, args...); code != exitUsage || (!c.Hidden && !strings.Contains(errs, "No such option")) {
				t.Errorf("lola %v: exit %d, want 2 \"No such option\"\n%s%s", args, code, out, errs)
			}
		}
		if c.HasSubCommands() {
			for _, tail := range [][]string{{"no-such-command"}, nil} {
				args := append(append([]string(nil), path...), tail...)
				if code, out, errs := runUsage(t, args...); code != exitUsage || (tail != nil && !strings.Contains(errs, "No such command")) {
					t.Errorf("lola %v: exit %d, want 2\n%s%s", args, code, out, errs)
				}
			}
		}
		for _, sub := range c.Commands() {
			walk(sub, append(append([]string(nil), path...), sub.Name()))
		}
	}
	walk(root, nil)
	if n < 40 {
		t.Fatalf("walked %d commands; the tree is larger", n)
	}
	if code, _, errs := runUsage(t, "repo", "no-such-command"); code != exitUsage || !strings.Contains(errs, "No such command") {
		t.Errorf("lola repo no-such-command: %d %q", code, errs)
	}
}

// mod init's flags, as today's Lola has them: -s/-c/-g name the examples,
// --no-skill/--no-command/--no-agent/--no-mcps/--no-instructions leave one
// out, --minimal leaves only the folders and README.md, and without NAME
// the current directory becomes the module.
func TestModInitFlags(t *testing.T) {
	modTestHome(t)
	work := t.TempDir()
	t.Chdir(work)
	files := func(dir string) string {
		var out []string
		filepath.Walk(filepath.Join(work, dir), func(p string, info os.FileInfo, err error) error {
			if err == nil && !info.IsDir() {
				rel, _ := filepath.Rel(filepath.Join(work, dir), p)
				out = append(out, filepath.ToSlash(rel))
			}
			return nil
		})
		return strings.Join(out, " ")
	}
	for _, tc := range []struct {
		args []string
		dir  string
		want string
	}{
		{[]string{"init", "a", "-s", "code-review", "-c", "review-pr", "-g", "my-agent", "--no-mcps", "--no-instructions"}, "a",
			"README.md module/agents/my-agent.md module/commands/review-pr.md module/skills/code-review/SKILL.md"},
		{[]string{"init", "b", "--skill", "s", "--command", "c", "--agent", "g"}, "b",
			"README.md module/AGENTS.md module/agents/g.md module/commands/c.md module/mcps.json module/skills/s/SKILL.md"},
		{[]string{"init", "c", "--no-skill", "--no-command", "--no-agent"}, "c", "README.md module/AGENTS.md module/mcps.json"},
		{[]string{"init", "d", "--minimal"}, "d", "README.md"},
	} {
		if code, out, errs := runModCLI(t, tc.args...); code != exitOK {
			t.Fatalf("mod %v: %d %s %s", tc.args, code, out, errs)
		}
		if got := files(tc.dir); got != tc.want {
			t.Errorf("mod %v made %q, want %q", tc.args, got, tc.want)
		}
	}
	for _, d := range []string{"skills", "commands", "agents"} {
		if fi, err := os.Stat(filepath.Join(work, "d", "module", d)); err != nil || !fi.IsDir() {
			t.Errorf("--minimal made no module/%s/", d)
		}
	}
	here := filepath.Join(work, "here")
	if err := os.MkdirAll(here, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(here)
	if code, out, errs := runModCLI(t, "init"); code != exitOK || !strings.Contains(out, "Initialized module here") || !strings.Contains(out, "lola mod add .\n") {
		t.Fatalf("mod init without NAME: %d %q %q", code, out, errs)
	}
	if _, err := os.Stat(filepath.Join(here, "module", "skills", "example-skill", "SKILL.md")); err != nil {
		t.Error("mod init without NAME did not fill in the current directory")
	}
}

// market ls NAME lists a marketplace's modules.
func TestMarketLsName(t *testing.T) {
	modTestHome(t)
	cat := filepath.Join(t.TempDir(), "catalog.yml")
	if err := os.WriteFile(cat, []byte(marketTestCatalog), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := runLola(t, "market", "add", "community", cat); code != exitOK {
		t.Fatal(errs)
	}
	code, out, errs := runLola(t, "market", "ls", "community")
	if code != exitOK || !strings.Contains(out, "community (enabled)") || !strings.Contains(out, "git-tools") || !strings.Contains(out, "python-lint") || !strings.Contains(out, "2.0.0") {
		t.Fatalf("%d %q %q", code, out, errs)
	}
	pinned := filepath.Join(t.TempDir(), "pinned.yml")
	if err := os.WriteFile(pinned, []byte("name: p\nversion: '1'\nmodules:\n  - name: net-tools\n    description: n\n    version: 1.0.0\n    repository: https://example.com/n.git\n    ref: v1.0.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := runLola(t, "market", "add", "pinned", pinned); code != exitOK {
		t.Fatal(errs)
	}
	// As today's Lola's Ref column: a pinned ref is shown.
	for _, args := range [][]string{{"market", "ls", "pinned"}, {"search", "net-tools"}} {
		if code, out, _ := runLola(t, args...); code != exitOK || !strings.Contains(out, "(ref v1.0.0)") {
			t.Errorf("%v does not show the ref: %q", args, out)
		}
	}
	if code, _, errs := runLola(t, "market", "ls", "nope"); code != exitInternal || !strings.Contains(errs, "not found") {
		t.Fatalf("unknown: %d %q", code, errs)
	}
}

// update MODULE and -a select installs, -v lists each file; list -a
// filters; sync -v names what is already installed.
func TestUpdateListSyncFilters(t *testing.T) {
	w := newInstallWorld(t, installRecordingHook, installRecordingHook)
	w.reactorTarget(t, installSkillPlan, "[.claude/]")
	if code, out, errOut := runLola(t, "install", "sample", "-a", "fake", w.project); code != exitOK {
		t.Fatalf("install: %d %s %s", code, out, errOut)
	}
	for _, args := range [][]string{{"update", "-a", "claude-code"}, {"update", "other-module"}} {
		if code, out, _ := runLola(t, args...); code != exitOK || !strings.Contains(out, "No installations to update") {
			t.Errorf("%v: %d %q", args, code, out)
		}
	}
	if code, out, errOut := runLola(t, "update", "sample", "-a", "fake", "-v"); code != exitOK || !strings.Contains(out, "sample  fake") || !strings.Contains(out, ".claude/skills/alpha/SKILL.md") {
		t.Errorf("update -v: %d %q %q", code, out, errOut)
	}
	if code, out, _ := runLola(t, "list", "-a", "fake"); code != exitOK || !strings.Contains(out, "sample  fake") {
		t.Errorf("list -a fake: %d %q", code, out)
	}
	if code, out, _ := runLola(t, "list", "-a", "claude-code"); code != exitOK || !strings.Contains(out, "No modules installed") {
		t.Errorf("list -a claude-code: %d %q", code, out)
	}
	if err := os.WriteFile(filepath.Join(w.project, ".lola-req"), []byte("sample\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, _ := runLola(t, "sync", w.project, "-a", "fake"); code != exitOK || strings.Contains(out, "already installed sample") {
		t.Errorf("sync: %d %q", code, out)
	}
	if code, out, _ := runLola(t, "sync", w.project, "-a", "fake", "--verbose"); code != exitOK || !strings.Contains(out, "already installed sample (fake)") {
		t.Errorf("sync --verbose: %d %q", code, out)
	}
}

// install without -a installs for every assistant target but copilot-cli
// (today's Lola's default_assistants), one after the other under one
// correlation id, each recorded; without PROJECT openclaw's goes into its
// workspace (as -a openclaw does), with PROJECT into the project.
func TestEndToEndInstallWithoutAssistant(t *testing.T) {
	t.Parallel() // self-contained: its own $LOLA_HOME, project and child environment
	exe, _ := builtLola(t)
	base := t.TempDir()
	home, project, user, src := filepath.Join(base, "home"), filepath.Join(base, "project"), filepath.Join(base, "user"), filepath.Join(base, "mm")
	env := []string{"LOLA_HOME=" + home, "HOME=" + user}
	modWriteFiles(t, src, map[string]string{"skills/s1/SKILL.md": "---\nname: s1\ndescription: s1\n---\nbody\n"})
	for _, d := range []string{project, user} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if r := runBuilt(t, exe, env, "mod", "add", src); r.code != 0 {
		t.Fatalf("mod add: %+v", r)
	}
	r := runBuiltIn(t, exe, env, project, "install", "mm")
	if r.code != 0 {
		t.Fatalf("install: %+v", r)
	}
	want := []string{"claude-code", "copilot-vscode", "cursor", "gemini-cli", "openclaw", "opencode"}
	list := runBuilt(t, exe, env, "list")
	for _, a := range want {
		if !strings.Contains(list.out, "mm  "+a+"  ") {
			t.Errorf("no install recorded for %s:\n%s", a, list.out)
		}
	}
	if strings.Contains(list.out, "copilot-cli") {
		t.Errorf("copilot-cli installed without -a:\n%s", list.out)
	}
	if _, err := os.Stat(filepath.Join(user, ".openclaw/workspace/skills/s1/SKILL.md")); err != nil {
		t.Error("openclaw's install is not in its workspace")
	}
	oneCorrelation(t, exe, env, home, r, len(want))
	other := filepath.Join(base, "other")
	if err := os.MkdirAll(other, 0o755); err != nil {
		t.Fatal(err)
	}
	if r := runBuilt(t, exe, env, "install", "mm", other); r.code != 0 {
		t.Fatalf("install into PROJECT: %+v", r)
	}
	if _, err := os.Stat(filepath.Join(other, "skills/s1/SKILL.md")); err != nil {
		t.Error("with PROJECT, openclaw's install is not in the project (today's Lola's place)")
	}
}

// install -a openclaw PROJECT writes where today's Lola writes: into the
// workspace, ~/.openclaw/workspace, whatever PROJECT says, with a warning
// that PROJECT was not used and how to name a folder (--workspace PATH);
// PROJECT is left as it was, and uninstall -a openclaw PROJECT finds the
// install in the workspace again. --workspace PATH installs into PATH.
func TestEndToEndOpenClawProjectIsItsWorkspace(t *testing.T) {
	t.Parallel()
	exe, _ := builtLola(t)
	base := t.TempDir()
	home, project, user, src := filepath.Join(base, "home"), filepath.Join(base, "project"), filepath.Join(base, "user"), filepath.Join(base, "mm")
	env := []string{"LOLA_HOME=" + home, "HOME=" + user, "USERPROFILE=" + user}
	modWriteFiles(t, src, map[string]string{"skills/s1/SKILL.md": "---\nname: s1\ndescription: s1\n---\nbody\n"})
	modWriteFiles(t, project, map[string]string{"README.md": "mine\n"})
	if err := os.MkdirAll(user, 0o755); err != nil {
		t.Fatal(err)
	}
	if r := runBuilt(t, exe, env, "mod", "add", src); r.code != 0 {
		t.Fatalf("mod add: %+v", r)
	}
	before := modeTree(t, project)
	r := runBuilt(t, exe, env, "install", "mm", "-a", "openclaw", project)
	if r.code != 0 || !strings.Contains(r.err, "--workspace "+project) || !strings.Contains(r.err, "not into "+project) {
		t.Fatalf("install -a openclaw PROJECT: %+v", r)
	}
	ws := filepath.Join(user, ".openclaw", "workspace", "skills", "s1", "SKILL.md")
	if _, err := os.Stat(ws); err != nil {
		t.Fatalf("not in the workspace: %v", err)
	}
	if d := treeDiff(before, modeTree(t, project)); d != "" {
		t.Fatalf("install -a openclaw PROJECT changed PROJECT:\n%s", d)
	}
	if r := runBuilt(t, exe, env, "uninstall", "mm", "-a", "openclaw", project); r.code != 0 {
		t.Fatalf("uninstall -a openclaw PROJECT: %+v", r)
	}
	if _, err := os.Stat(ws); !os.IsNotExist(err) {
		t.Fatalf("uninstall left the workspace's skill: %v", err)
	}
	if r := runBuilt(t, exe, env, "install", "mm", "-a", "openclaw", "--workspace", project); r.code != 0 || strings.Contains(r.err, "warning") {
		t.Fatalf("install --workspace PROJECT: %+v", r)
	}
	if _, err := os.Stat(filepath.Join(project, "skills", "s1", "SKILL.md")); err != nil {
		t.Fatalf("--workspace PATH did not install into PATH: %v", err)
	}
}

// A catalog entry's repository may be an archive URL (today's Lola:
// "Git URL or archive URL"): install @MARKET/MODULE fetches it through the
// remote client and unpacks it as mod add does; a ref cannot be pinned on
// it (usage error, nothing fetched).
func TestEndToEndInstallFromMarketplaceArchive(t *testing.T) {
	exe, _ := builtLola(t)
	var tgz bytes.Buffer
	gz := gzip.NewWriter(&tgz)
	tw := tar.NewWriter(gz)
	for name, body := range map[string]string{"kit/skills/s1/SKILL.md": "---\nname: s1\ndescription: s1\n---\nbody\n"} {
		tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg})
		tw.Write([]byte(body))
	}
	tw.Close()
	gz.Close()
	mux := http.NewServeMux()
	mux.HandleFunc("/kit.tar.gz", func(w http.ResponseWriter, _ *http.Request) { w.Write(tgz.Bytes()) })
	var catalog string
	mux.HandleFunc("/catalog.yml", func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, catalog) })
	srv := extTLSServer(t, mux)
	catalog = "name: C\nversion: '1'\nmodules:\n  - name: kit\n    description: Kit\n    version: 0.3.0\n    repository: " + srv.URL + "/kit.tar.gz\n"
	home, certs := extRemoteHome(t, srv), remotetest.CertFile(t, srv)
	project := t.TempDir()
	env := []string{"LOLA_HOME=" + home, "SSL_CERT_FILE=" + certs, "SSL_CERT_DIR=" + filepath.Dir(certs), "HOME=" + t.TempDir()}
	if r := runBuilt(t, exe, env, "market", "add", "community", srv.URL+"/catalog.yml"); r.code != 0 {
		t.Fatalf("market add: %+v", r)
	}
	if r := runBuilt(t, exe, env, "install", "@community/kit@v1", "-a", "claude-code", project); r.code != exitUsage || !strings.Contains(r.err, "not a git") {
		t.Fatalf("install @v1 of an archive: %+v", r)
	}
	if es, _ := os.ReadDir(filepath.Join(home, "modules")); len(es) != 0 {
		t.Fatalf("a refused ref fetched %v", es)
	}
	if r := runBuilt(t, exe, env, "install", "@community/kit", "-a", "claude-code", project); r.code != 0 {
		t.Fatalf("install: %+v", r)
	}
	if _, err := os.Stat(filepath.Join(project, ".claude/skills/s1/SKILL.md")); err != nil {
		t.Error("the archive's skill is not installed")
	}
	if reg := readFileOr(filepath.Join(home, "installed.yml")); !strings.Contains(reg, "version: 0.3.0") {
		t.Errorf("installed.yml:\n%s", reg)
	}
}

// --pre-install and --post-install name scripts in the module that run
// instead of the ones lola.yaml declares.
func TestInstallHookFlagsWinOverLolaYAML(t *testing.T) {
	yamlPost := "#!/bin/bash\necho yaml > \"$HOOK_OUT.yaml-post\"\n"
	w := newInstallWorld(t, installRecordingHook, yamlPost)
	w.reactorTarget(t, installSkillPlan, "[.claude/]")
	code, out, errOut := runLola(t, "install", "sample", "-a", "fake", "--post-install", "scripts/pre.sh", w.project)
	if code != exitOK {
		t.Fatalf("install: %d %s %s", code, out, errOut)
	}
	if _, err := os.Stat(w.hookOut + ".post-install"); err != nil {
		t.Error("--post-install's script did not run as the post-install hook")
	}
	if _, err := os.Stat(w.hookOut + ".yaml-post"); err == nil {
		t.Error("lola.yaml's post-install ran although --post-install named another")
	}
	if _, err := os.Stat(w.hookOut + ".pre-install"); err != nil {
		t.Error("lola.yaml's pre-install, not overridden, did not run")
	}
}

// A module name only marketplaces offer, offered by two, is not guessed:
// exit 2 naming both (today's Lola asks at a terminal), nothing fetched.
func TestInstallAmbiguousMarketplaceModule(t *testing.T) {
	home := modTestHome(t)
	for _, m := range []string{"one", "two"} {
		cat := filepath.Join(t.TempDir(), m+".yml")
		if err := os.WriteFile(cat, []byte(marketTestCatalog), 0o644); err != nil {
			t.Fatal(err)
		}
		if code, _, errs := runLola(t, "market", "add", m, cat); code != exitOK {
			t.Fatal(errs)
		}
	}
	code, out, errs := runLola(t, "install", "git-tools", "-a", "claude-code", t.TempDir())
	if code != exitUsage || !strings.Contains(errs, "@one") || !strings.Contains(errs, "@two") {
		t.Fatalf("%d %q %q", code, out, errs)
	}
	// sync of a .lola-req line naming it: the same usage error.
	project := t.TempDir()
	if err := os.WriteFile(filepath.Join(project, ".lola-req"), []byte("git-tools\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs = runLola(t, "sync", "-a", "claude-code", project)
	if code != exitUsage || !strings.Contains(errs, "@one") || !strings.Contains(errs, "@two") {
		t.Fatalf("sync: %d %q %q", code, out, errs)
	}
	if got := projectEntries(t, project); len(got) != 1 || got[0] != ".lola-req" {
		t.Errorf("sync left the project holding %v, want only its .lola-req", got)
	}
	if es, _ := os.ReadDir(filepath.Join(home, "modules")); len(es) != 0 {
		t.Fatalf("fetched %v", es)
	}
}

// docs/upstream-cli-parity.md names a test for each row; each must exist.
func TestUpstreamCLIParityDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "upstream-cli-parity.md"))
	if err != nil {
		t.Fatal(err)
	}
	var src strings.Builder
	for _, dir := range []string{".", "../../host"} {
		filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
			if err == nil && strings.HasSuffix(p, "_test.go") {
				b, _ := os.ReadFile(p)
				src.Write(b)
			}
			return nil
		})
	}
	names := regexp.MustCompile(`\bTest[A-Z][A-Za-z0-9_]*`).FindAllString(string(doc), -1)
	if len(names) < 40 {
		t.Fatalf("only %d test names in the document", len(names))
	}
	for _, n := range names {
		if !strings.Contains(src.String(), "func "+n+"(") {
			t.Errorf("docs/upstream-cli-parity.md names %s, which no test defines", n)
		}
	}
	for _, row := range strings.Split(string(doc), "\n") {
		if strings.HasPrefix(row, "| `") && !regexp.MustCompile(`\bTest[A-Z][A-Za-z0-9_]*`).MatchString(row) {
			t.Errorf("a row names no test: %s", row)
		}
	}
}
