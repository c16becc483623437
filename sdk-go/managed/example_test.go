package managed_test

import (
	"fmt"

	"github.com/lola-pm/lola/sdk-go/managed"
)

// Install a module's instructions into the user's file, then uninstall
// them: the user's text comes back byte for byte.
func Example() {
	user := "# My project\n\nBe terse.\n"
	installed, err := managed.SetBlock(user, "CLAUDE.md", "review", "Review every diff.\n")
	if err != nil {
		panic(err)
	}
	fmt.Print(installed)
	removed, err := managed.SetBlock(installed, "CLAUDE.md", "review", "")
	if err != nil {
		panic(err)
	}
	fmt.Println(removed == user)
	// Output:
	// # My project
	//
	// Be terse.
	//
	// <!-- lola:instructions:start -->
	// <!-- lola:module:review:start -->
	// Review every diff.
	// <!-- lola:module:review:end -->
	// <!-- lola:instructions:end -->
	// true
}
