package main

import "testing"

func TestAsSubagent(t *testing.T) {
	cases := map[string]string{
		"---\nname: e\n---\nbody\n":                   "---\nname: e\nmode: subagent\n---\nbody\n",
		"---\nmode: primary\nname: e\n---\nbody\n":    "---\nmode: subagent\nname: e\n---\nbody\n",
		"---\nmode: a\nmode: b\n---\n":                "---\nmode: subagent\n---\n",
		"---\n---\nbody":                              "---\nmode: subagent\n---\nbody",
		"plain\n":                                     "---\nmode: subagent\n---\nplain\n",
		"---\nunterminated\n":                         "---\nmode: subagent\n---\n---\nunterminated\n",
		"---\n  mode: nested-is-not-top-level\n---\n": "---\n  mode: nested-is-not-top-level\nmode: subagent\n---\n",
	}
	for in, want := range cases {
		if got := asSubagent(in); got != want {
			t.Errorf("asSubagent(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDescription(t *testing.T) {
	cases := map[string]string{
		"---\ndescription: Proofread prose\n---\n": "Proofread prose",
		"---\ndescription: \"quoted\"\n---\nx":     "quoted",
		"---\ndescription: 'single'\n---\n":        "single",
		"---\nname: x\n---\n":                      "",
		"description: not frontmatter\n":           "",
	}
	for in, want := range cases {
		if got := description(in); got != want {
			t.Errorf("description(%q) = %q, want %q", in, got, want)
		}
	}
}
