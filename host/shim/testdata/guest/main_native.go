//go:build !wasip1

package main

import (
	"io"
	"os"
)

// main is tier 2: the same handle, request on stdin, plan on stdout.
func main() {
	raw, err := io.ReadAll(os.Stdin)
	if err != nil {
		os.Exit(1)
	}
	o := handle(raw)
	if o.status != 0 {
		os.Exit(int(o.status))
	}
	if len(o.plan) == 0 {
		o.plan = []byte(`{"protocol":1,"intents":[]}`)
	}
	os.Stdout.Write(o.plan)
}
