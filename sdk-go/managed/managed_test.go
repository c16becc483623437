package managed

import (
	"strings"
	"testing"
)

const (
	s0 = "<!-- lola:instructions:start -->\n"
	s1 = "<!-- lola:instructions:end -->"
)

func blk(name, body string) string {
	return "<!-- lola:module:" + name + ":start -->\n" + body + "\n<!-- lola:module:" + name + ":end -->"
}

func TestSetBlock(t *testing.T) {
	cases := []struct {
		name, doc, module, body, want string
	}{
		{"into empty", "", "m", "hi\n", s0 + blk("m", "hi") + "\n" + s1 + "\n"},
		{"after user text", "# Mine\nkeep\n", "m", "hi", "# Mine\nkeep\n\n" + s0 + blk("m", "hi") + "\n" + s1 + "\n"},
		{"after user text without newline", "# Mine", "m", "hi", "# Mine\n\n" + s0 + blk("m", "hi") + "\n" + s1 + "\n"},
		{"replace in place, text around kept", "top  \r\n" + s0 + blk("m", "old") + "\n" + s1 + "\n\tbottom", "m", "new",
			"top  \r\n" + s0 + blk("m", "new") + "\n" + s1 + "\n\tbottom"},
		{"sorted among others", s0 + blk("a", "A") + "\n\n" + blk("c", "C") + "\n" + s1 + "\n", "b", "B",
			s0 + blk("a", "A") + "\n\n" + blk("b", "B") + "\n\n" + blk("c", "C") + "\n" + s1 + "\n"},
		// Cut where it stands, blank lines folded: today's Lola's bytes.
		{"remove one of two", "u\n\n" + s0 + blk("a", "A") + "\n\n" + blk("b", "B") + "\n" + s1 + "\n", "a", "",
			"u\n\n" + s0 + "\n" + blk("b", "B") + "\n" + s1 + "\n"},
		{"remove the second of two", "u\n\n" + s0 + "\n" + blk("a", "A") + "\n\n" + blk("b", "B") + "\n" + s1 + "\n", "b", "",
			"u\n\n" + s0 + "\n" + blk("a", "A") + "\n\n" + s1 + "\n"},
		{"remove the last takes the section out", "u\n\n" + s0 + blk("a", "A") + "\n" + s1 + "\nafter\n", "a", "", "u\nafter\n"},
		{"remove absent is no change", "just text\n", "a", "", "just text\n"},
		{"written by today's Lola", "# P\n\n" + s0 + "\n" + blk("a", "A") + "\n" + s1 + "\n", "a", "A2", "# P\n\n" + s0 + blk("a", "A2") + "\n" + s1 + "\n"},
	}
	for _, c := range cases {
		got, err := SetBlock(c.doc, "CLAUDE.md", c.module, c.body)
		if err != nil || got != c.want {
			t.Errorf("%s: got %q, %v; want %q", c.name, got, err, c.want)
		}
	}
}

// TestSetBlockRoundTrip: install then uninstall gives the user's document
// back byte for byte.
func TestSetBlockRoundTrip(t *testing.T) {
	for _, doc := range []string{"", "# Mine\n", "a\n\n\nb\r\n", "x\n<!-- not lola -->\n", "trailing spaces   \n\n"} {
		in, err := SetBlock(doc, "CLAUDE.md", "m", "body")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(in, doc) {
			t.Errorf("%q: install changed the user's text: %q", doc, in)
		}
		out, err := SetBlock(in, "CLAUDE.md", "m", "")
		if err != nil || out != doc {
			t.Errorf("%q: round trip gave %q, %v", doc, out, err)
		}
	}
}

func TestSetBlockRefusesBrokenMarkersAndHostileNames(t *testing.T) {
	for name, doc := range map[string]string{
		"unterminated section": s0 + blk("m", "x") + "\n",
		"end before start":     s1 + "\n" + s0,
		"two sections":         s0 + s1 + "\n" + s0 + s1 + "\n",
		"unterminated block":   s0 + "<!-- lola:module:m:start -->\nx\n" + s1,
		"end without start":    s0 + "<!-- lola:module:m:end -->\n" + s1,
		"two blocks of one":    s0 + blk("m", "a") + blk("m", "b") + s1,
	} {
		if got, err := SetBlock(doc, "CLAUDE.md", "m", "x"); err == nil {
			t.Errorf("%s: accepted: %q", name, got)
		}
	}
	for _, bad := range []string{"", "a -->", "a\nb", "a:b", "../x", "a/b", ".hidden", "a b", "-x", strings.Repeat("a", 129)} {
		if _, err := SetBlock("", "CLAUDE.md", bad, "x"); err == nil {
			t.Errorf("module name %q accepted into a marker", bad)
		}
	}
}

// TestErrorsNameTheFile: a refusal names the document it was given, so the
// user knows which file to fix by hand.
func TestErrorsNameTheFile(t *testing.T) {
	_, err := SetBlock(s0+s0+s1, "AGENTS.md", "m", "x")
	if err == nil || !strings.Contains(err.Error(), "AGENTS.md") || !strings.Contains(err.Error(), "markers are unpaired") {
		t.Fatalf("err %v does not name the file and the fault", err)
	}
}

// TestUserText: what SetBlock keeps is what UserText reports, and a
// document with no section, or a misordered one, is the user's whole.
func TestUserText(t *testing.T) {
	doc := "top\n\n" + s0 + blk("a", "A") + "\n" + s1 + "\nbottom"
	if got, want := UserText(doc), "top\n\n\nbottom"; got != want {
		t.Errorf("UserText = %q, want %q", got, want)
	}
	out, err := SetBlock(doc, "CLAUDE.md", "b", "B")
	if err != nil || UserText(out) != UserText(doc) {
		t.Errorf("SetBlock changed the user's text: %q, %v", out, err)
	}
	for _, d := range []string{"", "plain\n", s1 + "\n" + s0} {
		if got := UserText(d); got != d {
			t.Errorf("UserText(%q) = %q", d, got)
		}
	}
}

// TestMarkers: the exported markers are the ones SetBlock writes.
func TestMarkers(t *testing.T) {
	got, err := SetBlock("", "CLAUDE.md", "mod.x", "hi")
	want := SectionStart + "\n" + ModuleStart("mod.x") + "\nhi\n" + ModuleEnd("mod.x") + "\n" + SectionEnd + "\n"
	if err != nil || got != want {
		t.Fatalf("got %q, %v; want %q", got, err, want)
	}
}
