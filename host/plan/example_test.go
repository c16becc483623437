package plan_test

import (
	"errors"
	"fmt"
	"strings"

	"github.com/lola-pm/lola/host/plan"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

func ExampleDecode() {
	in := `{"protocol": 1, "intents": [
	  {"op": "write", "path": "skills/foo/SKILL.md", "content": "text"},
	  {"op": "fetch", "url": "https://example.org/x.tgz", "dest": "vendor/x.tgz",
	   "headers": {"Accept": "*/*", "Authorization": "Bearer t"}}
	]}`
	p, err := plan.Decode(strings.NewReader(in), plan.DefaultLimits())
	if err != nil {
		fmt.Println(err)
		return
	}
	body, _ := p.Body(0)
	fmt.Printf("%d intents; write body %q; fetch headers %v; dropped %v\n",
		p.Len(), body, p.Intent(1).Fetch.Headers, p.DroppedHeaders())

	_, err = plan.Decode(strings.NewReader(`{"protocol": 1, "intents": [
	  {"op": "fetch", "url": "https://example.org/x", "dest": "x", "method": "HEAD"}]}`), plan.DefaultLimits())
	fmt.Println(errors.Is(err, rejection.Rule(schema.RuleRemoteMethod)), err)
	// Output:
	// 2 intents; write body "text"; fetch headers map[Accept:*/*]; dropped [{1 Authorization}]
	// true remote.method: intent #0 (fetch): member "method": method "HEAD" refused: fetch is GET only (case-sensitive)
}
