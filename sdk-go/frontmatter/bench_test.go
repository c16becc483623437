package frontmatter

import "testing"

// BenchmarkAgentRewrite: parse an agent file, set name and model, render
// it again (what claude-code does per agent).
func BenchmarkAgentRewrite(b *testing.B) {
	doc := "---\ndescription: Reviews code for bugs, style and security issues in every language the project uses\ntools:\n  - Read\n  - Grep\n  - Glob\nmodel: sonnet\n---\n\nYou review code.\n"
	b.ReportAllocs()
	for b.Loop() {
		m, body := Parse(doc)
		m.Set("name", Str("reviewer"))
		_ = Render(m, body)
	}
}
