package main

import "testing"

func TestSpliceBlock(t *testing.T) {
	cases := []struct {
		name, doc, module, body, want string
	}{
		{"into empty", "", "m", "hi", "<!-- lola:begin m -->\nhi\n<!-- lola:end m -->\n"},
		{"after user text", "# Mine\nkeep", "m", "hi\n", "# Mine\nkeep\n\n<!-- lola:begin m -->\nhi\n<!-- lola:end m -->\n"},
		{"replace in place", "top\n<!-- lola:begin m -->\nold\n<!-- lola:end m -->\nbottom\n", "m", "new", "top\n<!-- lola:begin m -->\nnew\n<!-- lola:end m -->\nbottom\n"},
		{"other module untouched", "<!-- lola:begin a -->\nA\n<!-- lola:end a -->\n", "b", "B",
			"<!-- lola:begin a -->\nA\n<!-- lola:end a -->\n\n<!-- lola:begin b -->\nB\n<!-- lola:end b -->\n"},
	}
	for _, c := range cases {
		got, err := spliceBlock(c.doc, c.module, c.body)
		if err != nil || got != c.want {
			t.Errorf("%s: got %q, %v; want %q", c.name, got, err, c.want)
		}
	}
	for name, doc := range map[string]string{
		"unterminated": "<!-- lola:begin m -->\nx\n",
		"end only":     "x\n<!-- lola:end m -->\n",
		"twice":        "<!-- lola:begin m -->\n<!-- lola:end m -->\n<!-- lola:begin m -->\n<!-- lola:end m -->\n",
	} {
		if _, err := spliceBlock(doc, "m", "x"); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	for _, bad := range []string{"a -->", "a\nb"} {
		if _, err := spliceBlock("", bad, "x"); err == nil {
			t.Errorf("module name %q accepted as a marker", bad)
		}
	}
}
