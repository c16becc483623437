package install

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/lola-pm/lola/host/module"
)

func TestRemoveModuleRefusesWhileInstalled(t *testing.T) {
	home := t.TempDir()
	store, err := module.OpenStore(home)
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(t.TempDir(), "mod")
	if err := os.MkdirAll(filepath.Join(src, "skills", "alpha"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "skills", "alpha", "SKILL.md"), []byte("---\ndescription: a\n---\nA\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := module.ParseSource(src)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Add(context.Background(), s, module.AddOptions{}); err != nil {
		t.Fatal(err)
	}
	installed := "version: \"1.0\"\ninstallations:\n" +
		"  - module: other\n    assistant: cursor\n    scope: user\n" +
		"  - module: mod\n    assistant: claude-code\n    scope: project\n    project_path: /p\n    skills: [alpha]\n    has_instructions: false\n"
	if err := os.WriteFile(filepath.Join(home, InstalledFile), []byte(installed), 0o600); err != nil {
		t.Fatal(err)
	}
	name, _ := module.ParseName("mod")
	err = RemoveModule(store, home, name, false)
	var inUse *InUseError
	if !errors.As(err, &inUse) || len(inUse.Installs) != 1 || inUse.Installs[0].Assistant != "claude-code" || inUse.Installs[0].ProjectPath != "/p" {
		t.Fatalf("error %v; want InUseError naming the claude-code install", err)
	}
	if _, err := store.Get(name); err != nil {
		t.Fatal("a refused remove removed the module:", err)
	}
	if err := RemoveModule(store, home, name, true); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(home, InstalledFile)); string(b) != installed {
		t.Fatalf("removing a module rewrote installed.yml:\n%s", b)
	}
	if _, err := store.Get(name); !errors.Is(err, module.ErrNotFound) {
		t.Fatalf("after a forced remove: %v", err)
	}
}
