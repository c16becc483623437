package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
)

// Hostile strings from installed.yml and from a catalog reach the terminal
// escaped on the line they belong to, bounded: no control character but
// newline and tab, no bidi or other format character, no forged line, no
// 10 kB name.
func TestHostileStringsShownEscaped(t *testing.T) {
	home := modTestHome(t)
	long := strings.Repeat("n", 10<<10)
	installed := "version: '1.0'\ninstallations:\n" +
		"- module: \"evil\\e[2J\\rlola: forged\\nlola: all good\"\n  assistant: \"claude\\u202ecode\"\n  scope: project\n  project_path: \"/gone/pro\\rject\\u2066x\"\n  skills: [\"a\\e[31m\"]\n" +
		"- module: \"" + long + "\"\n  assistant: cursor\n  scope: project\n  project_path: /gone/too\n"
	if err := os.WriteFile(filepath.Join(home, "installed.yml"), []byte(installed), 0o600); err != nil {
		t.Fatal(err)
	}
	cat := filepath.Join(t.TempDir(), "catalog.yml")
	// A catalog refuses C0 controls itself; C1 controls, bidi and format
	// characters and separators are for the rendering to escape.
	catalog := "name: Hostile\nversion: 1.0.0\nmodules:\n  - name: git-tools\n" +
		"    description: \"Git helpers\\u009b2J\\u2028lola: all good\\u202e\\u2066\"\n" +
		"    version: \"1.0\\u200b\"\n    ref: \"v1\\u0085\"\n    repository: https://example.com/git-tools.git\n"
	if err := os.WriteFile(cat, []byte(catalog), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := runLola(t, "market", "add", "community", cat); code != exitOK {
		t.Fatalf("market add: %d %s%s", code, out, errOut)
	}
	for _, args := range [][]string{{"list"}, {"update"}, {"market", "ls", "community"}, {"search", "git"}} {
		_, out, errOut := runLola(t, args...)
		for _, line := range strings.Split(out+errOut, "\n") {
			if strings.HasPrefix(line, "lola: forged") || strings.HasPrefix(line, "lola: all good") {
				t.Errorf("lola %v: a newline from the data forged the line %q", args, line)
			}
			if len(line) > 1024 {
				t.Errorf("lola %v: a line of %d bytes: the 10 kB name is not bounded", args, len(line))
			}
			for _, r := range line {
				if r != '\t' && (unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028') {
					t.Errorf("lola %v: %U reached the terminal in %q", args, r, line)
				}
			}
		}
		if args[0] == "list" && !strings.Contains(out, `evil\x1b[2J\x0dlola: forged\x0alola: all good`) {
			t.Errorf("lola %v: the module name is not shown escaped:\n%s", args, out)
		}
	}
}
