// Command schemagen writes plan.schema.json and request.schema.json into the
// current directory (schema/ when run by go generate).
package main

import (
	"fmt"
	"os"

	"github.com/lola-pm/lola/schema/internal/schemagen"
)

func main() {
	for name, gen := range map[string]func() ([]byte, error){
		"plan.schema.json":    schemagen.Plan,
		"request.schema.json": schemagen.Request,
	} {
		b, err := gen()
		if err == nil {
			err = os.WriteFile(name, b, 0o644)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "schemagen:", err)
			os.Exit(1)
		}
	}
}
