package lola_test

import (
	"fmt"

	lola "github.com/lola-pm/lola/sdk-go"
)

// An extension registers one handler in init and calls lola.Main from main;
// the same source builds for tier 1 (wasip1, c-shared) and tier 2 (native).
// Process runs the handler in-process, as the ABI and Main do.
func Example() {
	lola.Register(func(req *lola.Request, p *lola.Plan) error {
		for _, m := range req.Modules {
			for _, f := range m.Files {
				if err := p.WriteFile(".claude/skills/"+m.Name+"/"+f.Path, f); err != nil {
					return err
				}
			}
		}
		return nil
	})
	// func main() { lola.Main() }

	plan, status, err := lola.Process([]byte(`{"protocol":1,"operation":"install",
		"modules":[{"name":"hello","files":[{"path":"SKILL.md","content":"Say hello."}]}]}`))
	fmt.Println(status, err)
	fmt.Println(string(plan))

	_, status, err = lola.Process([]byte(`{"protocol":1,"operation":"install",
		"modules":[{"name":"..","files":[{"path":"x","content":""}]}]}`))
	fmt.Println(status, err)
	// Output:
	// ok <nil>
	// {"protocol":1,"intents":[{"op":"write","path":".claude/skills/hello/SKILL.md","content":"Say hello."}]}
	// handler-error lola: path.traversal: write #0 path: '..' component in ".claude/skills/../x"
}

// The builder refuses what the host would refuse, naming the rule.
func ExamplePlan_Fetch() {
	var p lola.Plan
	fmt.Println(p.Fetch("https://example.org/x.tgz", "vendor/x.tgz", lola.Header("Accept", "*/*")))
	fmt.Println(p.Fetch("https://example.org/x", "vendor/y", lola.Method("HEAD")))
	fmt.Println(p.Fetch("http://example.org/x", "vendor/z"))
	fmt.Println(p.Len())
	// Output:
	// <nil>
	// lola: remote.method: fetch #1 method: method "HEAD" is not GET; fetch carries GET and nothing else
	// lola: remote.scheme: fetch #1 url: scheme "http" not allowed (allowed: https)
	// 1
}
