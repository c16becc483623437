package main

import (
	"archive/zip"
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// upstreamHookScript is a post-install hook of the kind real Lola modules
// ship (quay/ai-helpers' plugins have one): it finds the module's content
// through LOLA_MODULE_PATH/.lola/source.yml's content_dirname, as today's
// Lola's store records it, copies a script from there into the project,
// and notes where it found the content. Without the record it would look
// at the module's root, find no script, and fail.
const upstreamHookScript = `#!/usr/bin/env bash
set -eu
mod="$LOLA_MODULE_PATH"
rec="$mod/.lola/source.yml"
if [ -f "$rec" ]; then
  dir=$(sed -n 's/^content_dirname: *//p' "$rec")
  if [ -n "$dir" ] && [ -d "$mod/$dir" ]; then mod="$mod/$dir"; fi
fi
[ -f "$mod/scripts/tool.sh" ] || { echo "no content at $mod" >&2; exit 1; }
mkdir -p "$LOLA_PROJECT_PATH/.claude/scripts"
cp "$mod/scripts/tool.sh" "$LOLA_PROJECT_PATH/.claude/scripts/tool.sh"
printf '%s\n' "$mod" > "$LOLA_PROJECT_PATH/.claude/hook-content"
`

// upstreamWorld is a user's whole ~/.lola as today's Lola (upstream,
// 768057d) leaves it, written from its code (parsers.py save_source_info,
// models.py InstallationRegistry, cli/mod.py, targets/install.py): the
// modules it added from a folder, a git repository with --module-content,
// a zip and a tar.gz with content_dirname "/", each with its
// .lola/source.yml; installed.yml recording their claude-code installs
// into one project; and that project as upstream's install and the
// module's post-install hook left it.
type upstreamWorld struct {
	exe, base, home, project, src string
	env                           []string
}

func (w *upstreamWorld) run(t *testing.T, args ...string) lolaRun {
	t.Helper()
	return runBuilt(t, w.exe, w.env, args...)
}

func (w *upstreamWorld) mustRun(t *testing.T, args ...string) lolaRun {
	t.Helper()
	r := w.run(t, args...)
	if r.code != 0 {
		t.Fatalf("lola %s: %+v", strings.Join(args, " "), r)
	}
	return r
}

// monoRepo is a monorepo of plugins, each a module with a post-install
// hook, with a README and a shared script beside them.
var monoRepo = map[string]string{
	"README.md":                                 "# mono\n",
	"scripts/shared.sh":                         "echo shared\n",
	"plugins/dev/lola.yaml":                     "hooks:\n  post-install: scripts/post-install.sh\n",
	"plugins/dev/skills/dev-skill/SKILL.md":     "---\nname: dev-skill\ndescription: Develops\n---\n# Dev\n",
	"plugins/dev/scripts/post-install.sh":       upstreamHookScript,
	"plugins/dev/scripts/tool.sh":               "echo tool\n",
	"plugins/other/skills/other-skill/SKILL.md": "---\nname: other-skill\ndescription: Other\n---\n",
}

func newUpstreamWorld(t *testing.T) *upstreamWorld {
	t.Helper()
	exe, _ := builtLola(t)
	base := t.TempDir()
	w := &upstreamWorld{exe: exe, base: base, home: filepath.Join(base, "home", ".lola"), project: filepath.Join(base, "project"), src: filepath.Join(base, "src")}
	w.env = []string{"LOLA_HOME=" + w.home, "HOME=" + filepath.Join(base, "home")}

	plain := map[string]string{
		"skills/plain-skill/SKILL.md": "---\nname: plain-skill\ndescription: Plain\n---\n# Plain\n",
		"commands/plain-cmd.md":       "---\ndescription: A command\n---\nDo $ARGUMENTS.\n",
	}
	zipped := map[string]string{"module/skills/z-skill/SKILL.md": "---\nname: z-skill\ndescription: Zipped\n---\n"}
	tarred := map[string]string{
		"skills/t-skill/SKILL.md":      "---\nname: t-skill\ndescription: Tarred\n---\n",
		"module/skills/decoy/SKILL.md": "---\nname: decoy\ndescription: not content: content_dirname is /\n---\n",
	}
	modWriteFiles(t, filepath.Join(w.src, "plain"), plain)
	zipPath := filepath.Join(w.src, "zipped.zip")
	writeTestZip(t, zipPath, zipped)
	tarPath := filepath.Join(w.src, "tarred.tar.gz")
	if err := os.WriteFile(tarPath, extTarGz(t, "", tarred, nil), 0o644); err != nil {
		t.Fatal(err)
	}

	// $LOLA_HOME/modules as upstream stores them: the module's files, and
	// .lola/source.yml written by yaml.dump (keys sorted).
	store := func(name, sourceYML string, files map[string]string) {
		dir := filepath.Join(w.home, "modules", name)
		modWriteFiles(t, dir, files)
		modWriteFiles(t, dir, map[string]string{".lola/source.yml": sourceYML})
	}
	store("plain", "source: "+filepath.Join(w.src, "plain")+"\ntype: folder\n", plain)
	// A git module added with --module-content: the whole checkout is
	// stored. Its source is a loopback URL, which lola's remote policy
	// refuses, so a mod update of it fails here (and only it).
	store("dev", "content_dirname: plugins/dev\nref: main\nsource: https://127.0.0.1:9/org/mono.git\ntype: git\n", monoRepo)
	store("zipped", "source: "+zipPath+"\ntype: zip\n", zipped)
	store("tarred", "content_dirname: /\nsource: "+tarPath+"\ntype: tar\n", tarred)

	// installed.yml as InstallationRegistry._save writes it.
	reg := "version: '1.0'\ninstallations:\n"
	for _, m := range []struct{ name, skill, commands string }{
		{"plain", "plain-skill", "\n  - plain-cmd"}, {"dev", "dev-skill", " []"}, {"zipped", "z-skill", " []"}, {"tarred", "t-skill", " []"},
	} {
		reg += "- module: " + m.name + "\n  assistant: claude-code\n  scope: project\n  skills:\n  - " + m.skill +
			"\n  commands:" + m.commands + "\n  agents: []\n  mcps: []\n  has_instructions: false\n  project_path: " + w.project + "\n"
	}
	modWriteFiles(t, w.home, map[string]string{"installed.yml": reg})

	// The project as upstream's claude-code install left it (skills and
	// commands copied as they are), with upstream's own copies of the
	// modules in .lola/modules, and what the dev module's hook copied.
	modWriteFiles(t, w.project, map[string]string{
		".claude/skills/plain-skill/SKILL.md":             plain["skills/plain-skill/SKILL.md"],
		".claude/commands/plain-cmd.md":                   plain["commands/plain-cmd.md"],
		".claude/skills/dev-skill/SKILL.md":               monoRepo["plugins/dev/skills/dev-skill/SKILL.md"],
		".claude/skills/z-skill/SKILL.md":                 zipped["module/skills/z-skill/SKILL.md"],
		".claude/skills/t-skill/SKILL.md":                 tarred["skills/t-skill/SKILL.md"],
		".claude/scripts/tool.sh":                         "echo tool\n",
		".lola/modules/plain/skills/plain-skill/SKILL.md": plain["skills/plain-skill/SKILL.md"],
	})
	return w
}

func writeTestZip(t *testing.T, path string, files map[string]string) {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for n, c := range files {
		f, err := zw.Create(n)
		if err != nil {
			t.Fatal(err)
		}
		f.Write([]byte(c))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A user switching from today's Lola keeps their ~/.lola: every module it
// added is usable as it is (mod ls, mod info), mod update fetches each
// from the source its .lola/source.yml records (one that fails does not
// stop the others), lola update runs every recorded install again
// (the dev module's hook finding its content through content_dirname as
// under upstream), install and uninstall work, and a module lola adds
// itself with --module-content is laid out as upstream lays it out, so
// the same hook finds its content the same way.
func TestEndToEndUpstreamWrittenLolaHome(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the module's hook is a bash script")
	}
	w := newUpstreamWorld(t)

	ls := w.mustRun(t, "mod", "ls")
	for _, want := range []string{
		"dev  1 skill, 0 commands, 0 agents, hooks: post-install\n",
		"plain  1 skill, 1 command, 0 agents\n",
		"tarred  1 skill, 0 commands, 0 agents\n",
		"zipped  1 skill, 0 commands, 0 agents\n",
	} {
		if !strings.Contains(ls.out, want) {
			t.Errorf("mod ls lacks %q:\n%s", want, ls.out)
		}
	}
	if strings.Contains(ls.out, "unusable") {
		t.Errorf("mod ls:\n%s", ls.out)
	}
	info := w.mustRun(t, "mod", "info", "dev")
	for _, want := range []string{"content: plugins/dev/", "dev-skill  Develops", "post-install: scripts/post-install.sh",
		"type: git", "location: https://127.0.0.1:9/org/mono.git", "content: plugins/dev\n", "ref: main", "recorded in: .lola/source.yml"} {
		if !strings.Contains(info.out, want) {
			t.Errorf("mod info dev lacks %q:\n%s", want, info.out)
		}
	}
	if info := w.mustRun(t, "mod", "info", "tarred"); !strings.Contains(info.out, "t-skill") || strings.Contains(info.out, "decoy") {
		t.Errorf("content_dirname / is not the root:\n%s", info.out)
	}
	if r := w.mustRun(t, "list"); strings.Count(r.out, "claude-code  project "+w.project) != 4 {
		t.Errorf("list:\n%s", r.out)
	}

	// The folder source gains a skill; mod update fetches every module
	// from its recorded source. dev's is refused by the remote policy:
	// the others are updated all the same.
	modWriteFiles(t, filepath.Join(w.src, "plain"), map[string]string{"skills/plain-two/SKILL.md": "---\nname: plain-two\ndescription: Two\n---\n"})
	r := w.run(t, "mod", "update")
	if r.code != exitRejected || !strings.Contains(r.err, "dev: not updated") || !strings.Contains(r.err, "remote.destination") {
		t.Fatalf("mod update: %+v", r)
	}
	for _, m := range []string{"plain: 2 skills", "tarred: 1 skill", "zipped: 1 skill"} {
		if !strings.Contains(r.out, "Updated "+m) {
			t.Errorf("mod update did not update %s:\n%s", m, r.out)
		}
	}
	if info := w.mustRun(t, "mod", "info", "tarred"); strings.Contains(info.out, "decoy") || strings.Contains(info.out, "recorded in") {
		t.Errorf("after mod update, tarred's content or record:\n%s", info.out)
	}

	os.Remove(filepath.Join(w.project, ".claude/hook-content"))
	up := w.mustRun(t, "update")
	if !strings.Contains(up.out, "Update complete") || strings.Count(up.out, "  claude-code  project "+w.project) != 4 {
		t.Fatalf("update:\n%s\n%s", up.out, up.err)
	}
	if _, err := os.Stat(filepath.Join(w.project, ".claude/skills/plain-two/SKILL.md")); err != nil {
		t.Error("update did not install the folder module's new skill")
	}
	if got := strings.TrimSpace(readFileOr(filepath.Join(w.project, ".claude/hook-content"))); got != filepath.Join(w.home, "modules", "dev", "plugins", "dev") {
		t.Errorf("the hook found the content at %q, want the module's plugins/dev (as under upstream)", got)
	}

	if r := w.mustRun(t, "install", "tarred", "-a", "cursor", w.project); !strings.Contains(r.out, "t-skill") && !strings.Contains(readFileOr(filepath.Join(w.project, ".cursor/rules/t-skill.mdc")), "Tarred") {
		t.Errorf("install tarred for cursor: %+v", r)
	}
	w.mustRun(t, "uninstall", "dev", "-a", "claude-code", w.project)
	if _, err := os.Stat(filepath.Join(w.project, ".claude/skills/dev-skill")); err == nil {
		t.Error("uninstall left dev's skill")
	}
	if r := w.mustRun(t, "list"); strings.Contains(r.out, "dev  claude-code") {
		t.Errorf("dev is still listed:\n%s", r.out)
	}

	// lola adds the same plugin itself: the whole repository is stored,
	// with a .lola/source.yml naming the content as upstream's does, so
	// the hook resolves it the same way.
	mono := filepath.Join(w.src, "mono")
	modWriteFiles(t, mono, monoRepo)
	w.mustRun(t, "mod", "add", mono, "--module-content=plugins/dev", "--name", "dev2")
	rec := readFileOr(filepath.Join(w.home, "modules", "dev2", ".lola", "source.yml"))
	if rec != "content_dirname: plugins/dev\nsource: "+mono+"\ntype: folder\n" {
		t.Errorf("lola's .lola/source.yml:\n%s", rec)
	}
	if _, err := os.Stat(filepath.Join(w.home, "modules", "dev2", "scripts", "shared.sh")); err != nil {
		t.Error("mod add --module-content did not store the whole source, as upstream does")
	}
	other := filepath.Join(w.base, "other")
	if err := os.MkdirAll(other, 0o755); err != nil {
		t.Fatal(err)
	}
	w.mustRun(t, "install", "dev2", "-a", "claude-code", other)
	if got := strings.TrimSpace(readFileOr(filepath.Join(other, ".claude/hook-content"))); got != filepath.Join(w.home, "modules", "dev2", "plugins", "dev") {
		t.Errorf("for a module lola added, the hook found the content at %q", got)
	}
	if b, err := os.ReadFile(filepath.Join(other, ".claude/scripts/tool.sh")); err != nil || string(b) != "echo tool\n" {
		t.Errorf("the hook's copy: %q %v", b, err)
	}
}

// In an upstream-written ~/.lola, a module whose .lola/source.yml names a
// content directory outside it (or through a link) is unusable, named
// with its rule; lola update refuses its install and still updates every
// other install, then exits with the refusal's code.
func TestEndToEndUpstreamHomeWithAHostileModule(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the module's hook is a bash script")
	}
	w := newUpstreamWorld(t)
	secret := filepath.Join(w.base, "secret")
	modWriteFiles(t, secret, map[string]string{"skills/stolen/SKILL.md": "---\nname: stolen\ndescription: s\n---\n"})
	for name, cd := range map[string]string{"evil": "../plain", "evil-abs": secret, "evil-link": "content"} {
		dir := filepath.Join(w.home, "modules", name)
		modWriteFiles(t, dir, map[string]string{
			"skills/ok/SKILL.md": "---\nname: ok\ndescription: ok\n---\n",
			".lola/source.yml":   "content_dirname: " + cd + "\nsource: /x\ntype: folder\n",
		})
		if name == "evil-link" {
			if err := os.Symlink(secret, filepath.Join(dir, "content")); err != nil {
				t.Fatal(err)
			}
		}
	}
	// evil's install is recorded first: the ones after it must still run.
	reg := strings.Replace(readFileOr(filepath.Join(w.home, "installed.yml")), "installations:\n",
		"installations:\n- module: evil\n  assistant: claude-code\n  scope: project\n  skills:\n  - ok\n  commands: []\n  agents: []\n  mcps: []\n  has_instructions: false\n  project_path: "+w.project+"\n", 1)
	modWriteFiles(t, w.home, map[string]string{"installed.yml": reg})

	ls := w.mustRun(t, "mod", "ls")
	for name, rule := range map[string]string{"evil": "path.traversal", "evil-abs": "path.absolute", "evil-link": "path.symlink"} {
		if !strings.Contains(ls.out, name+"  (unusable: ") || !strings.Contains(ls.out, rule) {
			t.Errorf("mod ls does not refuse %s with %s:\n%s", name, rule, ls.out)
		}
	}
	if strings.Contains(ls.out, secret) {
		t.Errorf("mod ls echoes a host path:\n%s", ls.out)
	}
	if r := w.run(t, "install", "evil-link", "-a", "claude-code", w.project); r.code != exitRejected {
		t.Errorf("install evil-link: %+v", r)
	}
	up := w.run(t, "update")
	if up.code != exitRejected || !strings.Contains(up.err, "not updated: evil for claude-code") || strings.Contains(up.out, "Update complete") {
		t.Fatalf("update: %+v", up)
	}
	if n := strings.Count(up.out, "  claude-code  project "+w.project); n != 4 {
		t.Errorf("%d of the 4 other installs were updated:\n%s", n, up.out)
	}
	for _, p := range []string{".claude/skills/ok", ".claude/skills/stolen", ".claude/skills/plain-skill/plain-skill"} {
		if _, err := os.Stat(filepath.Join(w.project, p)); err == nil {
			t.Errorf("%s was installed", p)
		}
	}
}
