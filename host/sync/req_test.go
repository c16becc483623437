package sync

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/version"
)

func TestParseLine(t *testing.T) {
	r, err := ParseLine("  https://github.com/u/r.git#subdirectory=plugins/dev&assistant=claude-code, cursor ", 3)
	if err != nil || r.Ref != "https://github.com/u/r.git" || r.Subdirectory != "plugins/dev" || strings.Join(r.Assistants, ",") != "claude-code,cursor" || r.Line != 3 {
		t.Fatalf("%+v %v", r, err)
	}
	r, err = ParseLine("@community/git-tools>=1.0,<2", 1)
	if err != nil || r.Ref != "@community/git-tools" {
		t.Fatalf("%+v %v", r, err)
	}
	v2, _ := version.Parse("2.0")
	v1, _ := version.Parse("1.5")
	if r.Spec.Admits(v2) || !r.Spec.Admits(v1) {
		t.Fatalf("spec %s", r.Spec)
	}
	r, err = ParseLine("python-tools^0.3", 1)
	if err != nil || r.Ref != "python-tools" || r.Spec.String() != "^0.3" {
		t.Fatalf("%+v %v", r, err)
	}
	for _, l := range []string{"", "   ", "# comment"} {
		if r, err := ParseLine(l, 1); r != nil || err != nil {
			t.Errorf("%q: %+v %v", l, r, err)
		}
	}
	for _, l := range []string{">=1.0", "x =>1", "x#evil=1", "a b", "x>=1.0+local", "x\x1b[31m"} {
		if _, err := ParseLine(l, 7); !errors.Is(err, ErrParse) {
			t.Errorf("%q: %v", l, err)
		}
	}
}

// Each line is parsed on its own: a bad line is reported with its number
// and text and takes none of the others with it; only a file over its
// bounds is refused whole.
func TestParseEachLineOnItsOwn(t *testing.T) {
	in := "good\nbad>=x\nhttps://github.com/quay/ai-helpers.git@main --module-content=plugins/dev\n\n  --oops  \nlast\n"
	reqs, bad, err := Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	var refs []string
	for _, r := range reqs {
		refs = append(refs, fmt.Sprintf("%d:%s", r.Line, r.Ref))
	}
	if got := strings.Join(refs, " "); got != "1:good 3:https://github.com/quay/ai-helpers.git 6:last" {
		t.Errorf("parsed %s", got)
	}
	if len(bad) != 2 || bad[0].Line != 2 || bad[0].Raw != "bad>=x" || bad[1].Line != 5 || bad[1].Raw != "--oops" {
		t.Fatalf("bad lines %+v", bad)
	}
	for _, b := range bad {
		if !errors.Is(b, ErrParse) || !strings.Contains(b.Error(), fmt.Sprintf("line %d:", b.Line)) {
			t.Errorf("%q: %v", b.Raw, b)
		}
	}
	if _, _, err := Parse([]byte(strings.Repeat("a\n", MaxLines+1))); !errors.Is(err, ErrParse) {
		t.Fatal(err)
	}
}

// Every form today's Lola's README and docs/guides/declarative.md write,
// and quay/ai-helpers' README's "URL@ref --module-content=DIR", parses to
// the module, ref, version, content directory and assistants they mean.
func TestParseLineDocumentedForms(t *testing.T) {
	cases := []struct{ line, ref, gitRef, spec, sub, assistants string }{
		// today's Lola's README
		{"python-tools>=1.0.0", "python-tools", "", ">=1.0.0", "", ""},
		{"https://github.com/user/module.git@main", "https://github.com/user/module.git", "main", "", "", ""},
		{"https://github.com/quay/ai-helpers.git@main#subdirectory=plugins/dev", "https://github.com/quay/ai-helpers.git", "main", "", "plugins/dev", ""},
		{"https://github.com/user/repo.git#assistant=claude-code,cursor", "https://github.com/user/repo.git", "", "", "", "claude-code,cursor"},
		// docs/guides/declarative.md
		{"git-workflow", "git-workflow", "", "", "", ""},
		{"https://github.com/user/custom-module.git", "https://github.com/user/custom-module.git", "", "", "", ""},
		{"git+https://github.com/user/another-module.git", "https://github.com/user/another-module.git", "", "", "", ""},
		{"git+https://github.com/user/module.git@v1.0.0", "https://github.com/user/module.git", "v1.0.0", "", "", ""},
		{"https://github.com/user/repo.git#subdirectory=plugins&assistant=claude-code", "https://github.com/user/repo.git", "", "", "plugins", "claude-code"},
		{"tools==1.0.0", "tools", "", "==1.0.0", "", ""},
		{"tools~1.2.0", "tools", "", "~1.2.0", "", ""},
		{"tools^1.2.0", "tools", "", "^1.2.0", "", ""},
		{"@community/tools~=1.4,!=1.4.3", "@community/tools", "", "~=1.4,!=1.4.3", "", ""},
		// quay/ai-helpers' README
		{"https://github.com/quay/ai-helpers.git@main --module-content=plugins/dev", "https://github.com/quay/ai-helpers.git", "main", "", "plugins/dev", ""},
		{"https://github.com/quay/ai-helpers.git@main --module-content plugins/jira", "https://github.com/quay/ai-helpers.git", "main", "", "plugins/jira", ""},
		{"--content-path=packages/x https://h/o/mono.git", "https://h/o/mono.git", "", "", "packages/x", ""},
		{"https://h/o/r.git --module-content=/ #assistant=cursor", "https://h/o/r.git", "", "", "/", "cursor"},
		{"https://h/o/r.git#subdirectory=a --module-content=a", "https://h/o/r.git", "", "", "a", ""},
		// spaces and inline comments
		{"python-tools >= 1.0, < 2", "python-tools", "", ">= 1.0, < 2", "", ""},
		{"git-workflow   # the team's", "git-workflow", "", "", "", ""},
		{"https://h/o/r.git@v2 #subdirectory=p # pinned", "https://h/o/r.git", "v2", "", "p", ""},
	}
	for _, c := range cases {
		r, err := ParseLine(c.line, 4)
		if err != nil {
			t.Errorf("%q: %v", c.line, err)
			continue
		}
		got := []string{r.Ref, r.GitRef, r.Spec.String(), r.Subdirectory, strings.Join(r.Assistants, ",")}
		want := []string{c.ref, c.gitRef, c.spec, c.sub, c.assistants}
		if !slices.Equal(got, want) || r.Line != 4 || r.Raw != strings.TrimSpace(c.line) {
			t.Errorf("%q: got %q, want %q", c.line, got, want)
		}
	}
	for _, l := range []string{
		"x --module-content", "x --module-content=", "x --module-content --content-path=y",
		"x --module-content=a --content-path=b", "x --module-content=a --module-content=a",
		"x --force", "x --", "https://h/o/r.git#subdirectory=a --module-content=b", "x#egg=x",
	} {
		if _, err := ParseLine(l, 9); !errors.Is(err, ErrParse) || !strings.Contains(err.Error(), "line 9:") {
			t.Errorf("%q: %v", l, err)
		}
	}
}

// A URL holding operator characters ("?ref=main", "/~user/") is all
// reference unless a whole specifier follows it.
func TestParseLineURLsWithOperatorCharacters(t *testing.T) {
	cases := []struct{ line, ref, spec string }{
		{"https://example.org/kit.zip?ref=main", "https://example.org/kit.zip?ref=main", ""},
		{"https://example.org/kit.zip?a=1&b=2", "https://example.org/kit.zip?a=1&b=2", ""},
		{"https://example.org/~user/kit.git", "https://example.org/~user/kit.git", ""},
		{"https://example.org/~user/kit.git>=1.0,<2", "https://example.org/~user/kit.git", ">=1.0,<2"},
		{"https://example.org/kit.zip?ref=main ^1.2", "https://example.org/kit.zip?ref=main", "^1.2"},
		{"git@github.com:u/r.git==1.0#assistant=cursor", "git@github.com:u/r.git", "==1.0"},
	}
	for _, c := range cases {
		r, err := ParseLine(c.line, 1)
		if err != nil {
			t.Errorf("%q: %v", c.line, err)
			continue
		}
		if r.Ref != c.ref || r.Spec.String() != c.spec {
			t.Errorf("%q: ref %q spec %q; want ref %q spec %q", c.line, r.Ref, r.Spec.String(), c.ref, c.spec)
		}
	}
}

// As today's Lola reads them: a pip-style "git+" prefix is dropped, and a
// ref after ".git@" (or after a last '@' followed by no '/') is the git
// ref to check out, not part of the URL.
func TestParseLineGitPrefixAndRef(t *testing.T) {
	cases := []struct{ line, ref, gitRef, spec string }{
		{"git+https://github.com/u/another.git", "https://github.com/u/another.git", "", ""},
		{"https://github.com/u/module.git@main", "https://github.com/u/module.git", "main", ""},
		{"git+https://github.com/u/module.git@v1.0.0", "https://github.com/u/module.git", "v1.0.0", ""},
		{"git+ssh://git@github.com/u/r.git@v2>=1.0", "ssh://git@github.com/u/r.git", "v2", ">=1.0"},
		{"ssh://git@github.com/u/r.git", "ssh://git@github.com/u/r.git", "", ""},
		{"git@github.com:u/r.git@release/1.x", "git@github.com:u/r.git", "release/1.x", ""},
		{"git@github.com:u/r.git", "git@github.com:u/r.git", "", ""},
		{"https://git@host/u/r@main#assistant=cursor", "https://git@host/u/r", "main", ""},
		{"https://host/u/r@main", "https://host/u/r@main", "", ""}, // one '@', no ".git@": the URL's
		{"https://user@host/u/r.git", "https://user@host/u/r.git", "", ""},
	}
	for _, c := range cases {
		r, err := ParseLine(c.line, 1)
		if err != nil {
			t.Errorf("%q: %v", c.line, err)
			continue
		}
		if r.Ref != c.ref || r.GitRef != c.gitRef || r.Spec.String() != c.spec {
			t.Errorf("%q: ref %q git ref %q spec %q; want %q %q %q", c.line, r.Ref, r.GitRef, r.Spec.String(), c.ref, c.gitRef, c.spec)
		}
	}
	for _, l := range []string{"https://github.com/u/r.git@-evil", "https://github.com/u/r.git@"} {
		if _, err := ParseLine(l, 1); !errors.Is(err, ErrParse) {
			t.Errorf("%q: %v", l, err)
		}
	}
}
