package frontmatter

import "testing"

// TestParseAsPythonFrontmatter: the split and trimming python-frontmatter
// does, which decide the bytes upstream writes after the frontmatter.
func TestParseAsPythonFrontmatter(t *testing.T) {
	for _, c := range []struct {
		doc, desc, body string
		keys            int
	}{
		{"---\ndescription: d\n---\nBody\n", "d", "Body", 1},
		{"\n\n---\ndescription: d\n---\n\n\nBody\n\n", "d", "Body", 1},
		{"----\ndescription: d\n-----  \nBody", "d", "Body", 1},
		{"No frontmatter\n", "", "No frontmatter", 0},
		{"---\nonly an opening\n", "", "---\nonly an opening", 0},
		{"---\n- a list\n---\nBody", "", "Body", 0},
		{"---\n---\nBody", "", "Body", 0},
		{"---\ndescription: d\nx: ---\n---\nB\n---\nC\n", "d", "B\n---\nC", 2},
		// Not YAML: upstream falls back to no metadata and the document as given.
		{"---\ndescription: [unclosed\n---\nBody\n", "", "---\ndescription: [unclosed\n---\nBody\n", 0},
		{"---\nk: =\n---\nBody\n", "", "---\nk: =\n---\nBody\n", 0},
	} {
		m, body := Parse(c.doc)
		if m.GetString("description") != c.desc || body != c.body || len(m.Members) != c.keys {
			t.Errorf("%q: description %q body %q keys %d; want %q %q %d", c.doc, m.GetString("description"), body, len(m.Members), c.desc, c.body, c.keys)
		}
	}
}

func TestSetKeepsPositionAndRenderRoundTrips(t *testing.T) {
	m, body := Parse("---\nname: old\ndescription: d\ntools:\n  - Read\n---\nBody\n")
	m.Set("name", Str("new"))
	m.Set("model", Str("inherit"))
	got := Render(m, body)
	want := "---\nname: new\ndescription: d\ntools:\n- Read\nmodel: inherit\n---\nBody"
	if got != want {
		t.Fatalf("got %q want %q", got, want)
	}
	m2, body2 := Parse(got)
	if Dump(m2) != Dump(m) || body2 != body {
		t.Fatal("render does not parse back to the same values")
	}
}
