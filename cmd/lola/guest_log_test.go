package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// guestLogScript is a native target that logs a line on stderr, then
// returns plan, or, when fail is set, exits 2 after logging.
func guestLogScript(plan string, fail bool) []byte {
	s := "#!/bin/sh\ncat >/dev/null\necho 'lola: info: target says hi' >&2\n"
	if fail {
		return []byte(s + "echo 'target broke: no inventory' >&2\nexit 2\n")
	}
	return []byte(s + "printf '%s' '" + plan + "'\n")
}

// guestLogCase is one run of the guest-log rule: whether the guest
// fails, the flags given, and what must show.
type guestLogCase struct {
	name    string
	fail    bool
	args    []string
	code    int
	shown   bool // the guest's lines are printed
	counted bool // only the one line counting them is
}

// guestLogCases: success (counted), success with verbose (shown), failure
// (shown).
func guestLogCases(verbose string) []guestLogCase {
	return []guestLogCase{
		{"success", false, nil, exitOK, false, true},
		{"success-verbose", false, []string{verbose}, exitOK, true, false},
		{"failure", true, nil, exitExtension, true, false},
	}
}

// issue 15 item 3: lola install shows the target's stderr when it fails,
// and when it succeeds only with -v; without -v one line says how much
// there is.
func TestInstallShowsTheTargetLogOnFailureAndWithVerbose(t *testing.T) {
	for _, c := range guestLogCases("-v") {
		t.Run(c.name, func(t *testing.T) {
			w := newInstallWorld(t, "", "")
			w.target(t, "tier2", guestLogScript(installSkillPlan, c.fail), "[.claude/]")
			args := append([]string{"install", "sample", "-a", "fake"}, c.args...)
			code, out, errOut := runLola(t, append(args, w.project)...)
			if code != c.code {
				t.Fatalf("exit %d, want %d\n%s%s", code, c.code, out, errOut)
			}
			if got := strings.Contains(errOut, "  | lola: info: target says hi"); got != c.shown {
				t.Errorf("log shown = %v, want %v:\n%s", got, c.shown, errOut)
			}
			if c.fail && !strings.Contains(errOut, "  | target broke: no inventory") {
				t.Errorf("the failure's reason is not shown:\n%s", errOut)
			}
			if got := strings.Contains(errOut, "lola: extension fake wrote 1 line to stderr (-v shows it)"); got != c.counted {
				t.Errorf("count line = %v, want %v:\n%s", got, c.counted, errOut)
			}
		})
	}
}

// The same rule for lola ext run.
func TestExtRunShowsTheGuestLogOnFailureAndWithVerbose(t *testing.T) {
	t.Setenv("LOLA_HOME", t.TempDir())
	for _, c := range guestLogCases("--verbose") {
		t.Run(c.name, func(t *testing.T) {
			art := filepath.Join(t.TempDir(), "logger")
			if err := os.WriteFile(art, guestLogScript(`{"protocol":1,"intents":[{"op":"write","path":"a.md","content":"a"}]}`, c.fail), 0o755); err != nil {
				t.Fatal(err)
			}
			root := t.TempDir()
			args := append([]string{"ext", "run", "--root", root}, c.args...)
			code, out, errOut := runLola(t, append(args, art)...)
			if code != c.code {
				t.Fatalf("exit %d, want %d\n%s%s", code, c.code, out, errOut)
			}
			if got := strings.Contains(errOut, "  | lola: info: target says hi"); got != c.shown {
				t.Errorf("log shown = %v, want %v:\n%s", got, c.shown, errOut)
			}
			if got := strings.Contains(errOut, "lola: extension logger wrote 1 line to stderr (-v shows it)"); got != c.counted {
				t.Errorf("count line = %v, want %v:\n%s", got, c.counted, errOut)
			}
			if c.fail && len(extTreeSnapshot(t, root)) != 0 {
				t.Errorf("a failed run wrote under the root")
			}
		})
	}
}
