package module

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/remote/remotetest"
	"github.com/lola-pm/lola/schema"
)

// pluginRepo is shaped like a real Lola user's repository of plugins:
// each plugin is a module with a post-install hook declared in its
// lola.yaml, and the hook script in each plugin is a symbolic link to
// one shared script at the repository's top.
var pluginRepo = map[string]string{
	"README.md":                                 "# helpers\n",
	"scripts/lola-post-install.sh":              "#!/usr/bin/env bash\nset -euo pipefail\necho shared-hook > \"$LOLA_PROJECT_PATH/hook-ran\"\n",
	"plugins/cve/lola.yaml":                     "hooks:\n  post-install: scripts/lola-post-install.sh\n",
	"plugins/cve/skills/assess/SKILL.md":        "---\nname: assess\ndescription: Assess a CVE\n---\nAssess.\n",
	"plugins/cve/scripts/cve-fetch.sh":          "#!/usr/bin/env bash\necho fetch\n",
	"plugins/cve/scripts/lola-post-install.sh":  "->../../../scripts/lola-post-install.sh",
	"plugins/jira/lola.yaml":                    "hooks:\n  post-install: scripts/lola-post-install.sh\n",
	"plugins/jira/skills/triage/SKILL.md":       "---\nname: triage\ndescription: Triage\n---\nTriage.\n",
	"plugins/jira/scripts/lola-post-install.sh": "->../../../scripts/lola-post-install.sh",
}

// TestPluginRepositoryWithLinkedHookScript: the repository added from git
// with --module-content=plugins/cve stores the plugin, its hook script a
// regular, executable copy of the shared script its link points to (the
// link leaves the plugin but not the repository); the folder plugins/cve
// added on its own is refused, the refusal suggesting the repository with
// --module-content.
func TestPluginRepositoryWithLinkedHookScript(t *testing.T) {
	repo := remotetest.NewGitRepo(t)
	repo.Commit(pluginRepo)
	repo.Executable("scripts/lola-post-install.sh", "plugins/cve/scripts/cve-fetch.sh")
	src, c := gitSource(t, repo)
	s, _ := newStore(t)
	added, err := s.Add(context.Background(), src, AddOptions{Name: mustName(t, "cve"), Cloner: c, Content: "plugins/cve"})
	if err != nil {
		t.Fatal(err)
	}
	l := added.Module.Layout()
	if l.Hooks.PostInstall != "scripts/lola-post-install.sh" || len(l.Skills) != 1 || l.Skills[0].Name != "assess" {
		t.Fatalf("layout %+v", l)
	}
	script := filepath.Join(added.Module.ContentDir(), "scripts", "lola-post-install.sh")
	fi, err := os.Lstat(script)
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o100 == 0 {
		t.Fatalf("the hook script in the store: %v %v; want a regular executable file", fi, err)
	}
	if b, _ := os.ReadFile(script); string(b) != pluginRepo["scripts/lola-post-install.sh"] {
		t.Fatalf("the hook script holds %q, not the shared script", b)
	}

	dir := t.TempDir()
	for name, body := range pluginRepo {
		if target, ok := strings.CutPrefix(body, "->"); ok {
			writeTree(t, dir, []entry{link(name, target)})
		} else {
			writeTree(t, dir, []entry{file(name, body)})
		}
	}
	s2, _ := newStore(t)
	_, err = s2.Add(context.Background(), mustSource(t, filepath.Join(dir, "plugins", "cve")), AddOptions{})
	assertRule(t, err, schema.RulePathTraversal)
	for _, want := range []string{`entry "scripts/lola-post-install.sh": symbolic link to "../../../scripts/lola-post-install.sh"`, `--module-content="plugins/cve"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("refusal %q does not say %q", err, want)
		}
	}
	assertStoreEmpty(t, s2)
}
