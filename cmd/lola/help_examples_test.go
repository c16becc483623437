package main

import (
	"io"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestEveryHelpExampleParses reads every "lola ..." line of every
// command's Example and holds it to the command tree as written: the
// command exists, every flag is one it has with a value it accepts, and
// the positional arguments pass its Args check. An example that names a
// flag or command that no longer exists, or misspells one, fails here.
func TestEveryHelpExampleParses(t *testing.T) {
	root := newRoot(strings.NewReader(""), io.Discard, io.Discard)
	n := 0
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, line := range strings.Split(c.Example, "\n") {
			line = strings.TrimSpace(line)
			if i := strings.Index(line, " #"); i >= 0 {
				line = strings.TrimSpace(line[:i])
			}
			if !strings.HasPrefix(line, "lola ") || strings.ContainsAny(line, "|;&<>$`") {
				continue
			}
			args, ok := splitExampleWords(line)
			if !ok {
				t.Errorf("%s: example %q: unbalanced quotes", c.CommandPath(), line)
				continue
			}
			n++
			checkExample(t, newRoot(strings.NewReader(""), io.Discard, io.Discard), c.CommandPath(), line, args[1:])
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	if n < 40 {
		t.Fatalf("only %d examples found: the walk is broken", n)
	}
}

func checkExample(t *testing.T, root *cobra.Command, where, line string, args []string) {
	t.Helper()
	cmd, rest, err := root.Find(args)
	if err != nil {
		t.Errorf("%s: example %q: %v", where, line, err)
		return
	}
	if err := cmd.ParseFlags(rest); err != nil {
		t.Errorf("%s: example %q: %v", where, line, err)
		return
	}
	if cmd.HasSubCommands() && len(cmd.Flags().Args()) > 0 {
		t.Errorf("%s: example %q: %s has no command %q", where, line, cmd.CommandPath(), cmd.Flags().Arg(0))
		return
	}
	if cmd.Args != nil {
		if err := cmd.Args(cmd, cmd.Flags().Args()); err != nil {
			t.Errorf("%s: example %q: %v", where, line, err)
		}
	}
}

// splitExampleWords splits an example line as a POSIX shell would for
// plain words, single and double quotes (no expansions: lines with any
// are skipped by the caller).
func splitExampleWords(s string) ([]string, bool) {
	var out []string
	var cur strings.Builder
	inWord, quote := false, byte(0)
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case quote != 0:
			if ch == quote {
				quote = 0
			} else {
				cur.WriteByte(ch)
			}
		case ch == '\'' || ch == '"':
			quote, inWord = ch, true
		case ch == ' ' || ch == '\t':
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(ch)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, false
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out, true
}
