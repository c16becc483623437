package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/remote/remotetest"
)

// linkedPluginRepo is shaped like a real Lola user's repository of
// plugins (quay/ai-helpers): each plugin declares a post-install hook in
// its lola.yaml, and the hook script in each plugin is a symbolic link to
// the one shared script at the repository's top. The shared script writes
// a marker into the project.
var linkedPluginRepo = map[string]string{
	"README.md":                                 "# helpers\n",
	"scripts/lola-post-install.sh":              "#!/usr/bin/env bash\nset -euo pipefail\necho \"shared hook: $LOLA_HOOK\" > \"$LOLA_PROJECT_PATH/hook-ran\"\n",
	"plugins/cve/lola.yaml":                     "hooks:\n  post-install: scripts/lola-post-install.sh\n",
	"plugins/cve/skills/assess/SKILL.md":        "---\nname: assess\ndescription: Assess a CVE\n---\nAssess.\n",
	"plugins/cve/scripts/lola-post-install.sh":  "->../../../scripts/lola-post-install.sh",
	"plugins/jira/lola.yaml":                    "hooks:\n  post-install: scripts/lola-post-install.sh\n",
	"plugins/jira/skills/triage/SKILL.md":       "---\nname: triage\ndescription: Triage\n---\nTriage.\n",
	"plugins/jira/scripts/lola-post-install.sh": "->../../../scripts/lola-post-install.sh",
}

// TestEndToEndModAddGitPluginWhoseHookIsALink: `lola mod add URL
// --module-content=plugins/cve` of such a repository (cloned over https)
// stores the plugin, its hook script copied from the link's target, and
// `lola install -a claude-code` installs the skill and runs the hook; the
// folder plugins/cve added on its own is refused (exit 3, path.traversal)
// with the link named and --module-content suggested, nothing stored.
func TestEndToEndModAddGitPluginWhoseHookIsALink(t *testing.T) {
	exe, _ := builtLola(t)
	repo := remotetest.NewGitRepo(t)
	repo.Commit(linkedPluginRepo)
	repo.Executable("scripts/lola-post-install.sh")
	srv := extTLSServer(t, repo.Handler())
	home, certs := extRemoteHome(t, srv), remotetest.CertFile(t, srv)
	project := t.TempDir()
	env := []string{"LOLA_HOME=" + home, "SSL_CERT_FILE=" + certs, "SSL_CERT_DIR=" + filepath.Dir(certs), "HOME=" + t.TempDir()}

	if r := runBuilt(t, exe, env, "mod", "add", srv.URL+"/repo.git", "--module-content=plugins/cve", "--name", "cve"); r.code != 0 {
		t.Fatalf("mod add: %+v", r)
	}
	if r := runBuilt(t, exe, env, "install", "cve", "-a", "claude-code", project); r.code != 0 {
		t.Fatalf("install: %+v", r)
	}
	if _, err := os.Stat(filepath.Join(project, ".claude", "skills", "assess", "SKILL.md")); err != nil {
		t.Errorf("the skill is not installed: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(project, "hook-ran")); err != nil || strings.TrimSpace(string(b)) != "shared hook: post-install" {
		t.Errorf("the post-install hook (a link to the shared script) did not run: %q %v", b, err)
	}

	dir := t.TempDir()
	for name, body := range linkedPluginRepo {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		var err error
		if target, ok := strings.CutPrefix(body, "->"); ok {
			err = os.Symlink(target, p)
		} else {
			err = os.WriteFile(p, []byte(body), 0o755)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	r := runBuilt(t, exe, env, "mod", "add", filepath.Join(dir, "plugins", "jira"))
	if r.code != exitRejected || !strings.Contains(r.err, "path.traversal") ||
		!strings.Contains(r.err, `"scripts/lola-post-install.sh": symbolic link to "../../../scripts/lola-post-install.sh"`) ||
		!strings.Contains(r.err, `--module-content="plugins/jira"`) {
		t.Fatalf("mod add of the plugin folder: %+v; want exit %d naming the link and suggesting --module-content", r, exitRejected)
	}
	if ls := runBuilt(t, exe, env, "mod", "ls"); strings.Contains(ls.out, "jira") {
		t.Errorf("a refused add stored the module:\n%s", ls.out)
	}
}
