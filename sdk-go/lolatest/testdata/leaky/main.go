// Command leaky is the mistake CheckGuest exists to catch: an extension
// importing lolatest from a non-test file. It lives under testdata so that
// ./... patterns never build it; lolatest's tests build it by path and
// assert that CheckGuest refuses it.
package main

import (
	"os"

	lola "github.com/lola-pm/lola/sdk-go"
	"github.com/lola-pm/lola/sdk-go/lolatest"
)

func init() {
	lola.Register(func(*lola.Request, *lola.Plan) error { return nil })
}

func main() {
	// Never true; it keeps lolatest linked, as a real misuse would.
	if len(os.Args) > 1<<20 {
		lolatest.CheckGuest(nil, "", "")
	}
	lola.Main()
}
