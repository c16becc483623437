//go:build !wasip1

package lola_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"

	lola "github.com/lola-pm/lola/sdk-go"
)

// strayEnv makes the test binary act as a tier-2 extension whose handler
// prints to stdout (see TestMain in vectors_test.go).
const strayEnv = "LOLA_SDK_TEST_STRAY_PRINT"

func strayMainIfAsked() {
	if os.Getenv(strayEnv) == "" {
		return
	}
	lola.Register(func(req *lola.Request, p *lola.Plan) error {
		fmt.Println("stray print")
		return p.Delete("out/x")
	})
	lola.Main()
}

// issue 15: in tier 2 a stray print corrupted the plan
// (plan.malformed). Main keeps the plan on a private descriptor.
func TestStrayPrintCannotCorruptTheNativePlan(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skip("fd 1 is moved on Linux and macOS only")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), strayEnv+"=1")
	cmd.Stdin = strings.NewReader(`{"protocol":1,"operation":"generate","modules":[]}`)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v\n%s", err, errOut.String())
	}
	if out.String() != `{"protocol":1,"intents":[{"op":"delete","path":"out/x"}]}` || errOut.String() != "stray print\n" {
		t.Fatalf("stdout %q stderr %q", out.String(), errOut.String())
	}
}
