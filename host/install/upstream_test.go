package install

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"go.yaml.in/yaml/v3"
)

// An installed.yml exactly as today's Lola writes it (testdata, built from
// models.py's Installation.to_dict and InstallationRegistry._save) is read,
// and rewritten with a lola record beside it, without losing or changing
// any field of today's records; every key today's Lola reads is still
// there, in its shape, so either tool can go on from the other's file.
func TestUpstreamInstalledYMLRoundTrips(t *testing.T) {
	fixture, err := os.ReadFile(filepath.Join("testdata", "upstream-installed.yml"))
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, InstalledFile), fixture, 0o600); err != nil {
		t.Fatal(err)
	}
	reg, err := ReadRegistry(home)
	if err != nil {
		t.Fatal(err)
	}
	reg.Put(Record{Module: "ours", Assistant: "cursor", Scope: "project", ProjectPath: "/p",
		Skills: []string{"s"}, Commands: []string{}, Agents: []string{}, MCPs: []string{},
		Files: map[string]string{".cursor/skills/s/SKILL.md": "ab"}, CreatedDirs: []string{".cursor"}})
	if err := reg.Save(); err != nil {
		t.Fatal(err)
	}
	written, err := os.ReadFile(filepath.Join(home, InstalledFile))
	if err != nil {
		t.Fatal(err)
	}
	var before, after struct {
		Version       string           `yaml:"version"`
		Installations []map[string]any `yaml:"installations"`
	}
	if err := yaml.Unmarshal(fixture, &before); err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(written, &after); err != nil {
		t.Fatal(err)
	}
	if after.Version != "1.0" || len(after.Installations) != 3 {
		t.Fatalf("rewritten file:\n%s", written)
	}
	for i, rec := range before.Installations {
		if !reflect.DeepEqual(after.Installations[i], rec) {
			t.Errorf("record %d changed:\n got %v\nwant %v", i, after.Installations[i], rec)
		}
	}
	ours := after.Installations[2]
	for _, key := range []string{"module", "assistant", "scope", "skills", "commands", "agents", "mcps", "has_instructions", "project_path"} {
		if _, ok := ours[key]; !ok {
			t.Errorf("lola's record lacks %q, which today's Lola reads", key)
		}
	}
	if _, ok := ours["files"]; !ok {
		t.Error("lola's ownership record was not written")
	}
}
