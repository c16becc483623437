package exttest

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/lola-pm/lola/host/plan"
	"github.com/lola-pm/lola/schema"
)

// Golden is the goldens' form of a plan: protocol first, one intent a line,
// each intent as schema.Intent encodes it. It is the form
// sdk-go/lolatest.Indent writes, so one golden serves both.
func Golden(p *plan.Plan) ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "{\"protocol\": %d, \"intents\": [", schema.Protocol)
	for i, in := range p.Intents() {
		if i > 0 {
			b.WriteString(",")
		}
		js, err := json.Marshal(in)
		if err != nil {
			return nil, err
		}
		b.WriteString("\n  ")
		b.Write(js)
	}
	if p.Len() > 0 {
		b.WriteString("\n")
	}
	b.WriteString("]}\n")
	return b.Bytes(), nil
}
