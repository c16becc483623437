package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

func runUsage(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// Every misuse of the command tree is a usage error (exit 2) that says
// what was wrong, as today's Lola's scenarios expect; help and version
// asked for are success.
func TestUsageExitCodes(t *testing.T) {
	modTestHome(t)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{nil, exitUsage, "AI Skills Package Manager"},
		{[]string{"--help"}, exitOK, "AI Skills Package Manager"},
		{[]string{"-h"}, exitOK, "AI Skills Package Manager"},
		{[]string{"nonexistent"}, exitUsage, "No such command"},
		{[]string{"--bogus"}, exitUsage, "No such option: --bogus"},
		{[]string{"ext", "bogus"}, exitUsage, `No such command "bogus" for lola ext`},
		{[]string{"ext"}, exitUsage, "lola ext needs a command"},
		{[]string{"plan"}, exitUsage, "lola plan needs a command"},
		{[]string{"mod"}, exitUsage, "lola mod needs a command"},
		{[]string{"mod", "bogus"}, exitUsage, "No such command"},
		{[]string{"mod", "ls", "--bogus"}, exitUsage, "No such option: --bogus"},
		{[]string{"mod", "ls", "-Z"}, exitUsage, "No such option: -Z"},
		{[]string{"ext", "lss"}, exitUsage, "did you mean ls?"},
		{[]string{"install"}, exitUsage, "Usage: lola install MODULE"},
		{[]string{"mod", "--help"}, exitOK, "rm"},
		{[]string{"completions", "invalid"}, exitUsage, "Invalid value"},
		{[]string{"completions"}, exitUsage, "one SHELL"},
	} {
		code, out, errOut := runUsage(t, tc.args...)
		if code != tc.code || !strings.Contains(out+errOut, tc.want) {
			t.Errorf("lola %v: exit %d, want %d with %q\nstdout: %s\nstderr: %s", tc.args, code, tc.code, tc.want, out, errOut)
		}
	}
	// Without arguments the help lists the commands, on stderr (it is an error).
	_, out, errOut := runUsage(t)
	if out != "" {
		t.Errorf("help for a usage error went to stdout: %q", out)
	}
	for _, want := range []string{"mod", "install", "market"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("lola without arguments does not list %q:\n%s", want, errOut)
		}
	}
}

func TestVersion(t *testing.T) {
	for _, flag := range []string{"--version", "-v"} {
		code, out, _ := runUsage(t, flag)
		if code != exitOK || !regexp.MustCompile(`^lola \d+\.\d+`).MatchString(out) {
			t.Errorf("lola %s: exit %d, %q", flag, code, out)
		}
	}
}

func TestCompletions(t *testing.T) {
	for _, sh := range []string{"bash", "zsh", "fish"} {
		code, out, errOut := runUsage(t, "completions", sh)
		if code != exitOK || !strings.Contains(out, "complete") {
			t.Errorf("completions %s: exit %d\n%s%s", sh, code, out, errOut)
		}
	}
	// cobra's own spelling stays.
	if code, out, _ := runUsage(t, "completion", "bash"); code != exitOK || !strings.Contains(out, "complete") {
		t.Errorf("completion bash: exit %d", code)
	}
}
