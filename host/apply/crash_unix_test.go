//go:build unix

package apply

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
)

// TestCrashChild is the subprocess of TestCrashRecovers: it applies the
// atomicity plan to $LOLA_CRASH_ROOT and kills itself with SIGKILL at crash
// point $LOLA_CRASH_AT — exactly what kill -9 at that instant does.
func TestCrashChild(t *testing.T) {
	root := os.Getenv("LOLA_CRASH_ROOT")
	if root == "" {
		t.Skip("subprocess of TestCrashRecovers")
	}
	at, _ := strconv.Atoi(os.Getenv("LOLA_CRASH_AT"))
	p, v := decode(t, atomicityPlan)
	opts := Options{Key: testKey, hooks: &hooks{point: func(n int, what string) {
		if n == at {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {}
		}
	}}}
	res, err := Apply(openRoot(t, root), v, p, opts)
	must(t, err)
	fmt.Println("finished:", res.Outcome)
}

func TestCrashRecovers(t *testing.T) {
	if os.Getenv("LOLA_CRASH_ROOT") != "" {
		t.Skip("in the subprocess")
	}
	p, v := decode(t, atomicityPlan)
	// The pre- and post-plan trees, and how many crash points one apply has.
	preRoot, postRoot := t.TempDir(), t.TempDir()
	tree(t, preRoot, atomicityTree)
	tree(t, postRoot, atomicityTree)
	pre := snapshot(t, preRoot)
	var points []string
	res, err := Apply(openRoot(t, postRoot), v, p, Options{Key: testKey, hooks: &hooks{point: func(n int, what string) { points = append(points, what) }}})
	must(t, err)
	if res.Outcome != OutcomeCommitted {
		t.Fatalf("%+v", res)
	}
	post := snapshot(t, postRoot)
	if len(points) < 20 {
		t.Fatalf("only %d crash points", len(points))
	}
	commitAt := -1
	for i, w := range points {
		if w == "commit" {
			commitAt = i + 1
		}
	}
	for n := 1; n <= len(points); n++ {
		t.Run(fmt.Sprintf("%02d-%s", n, points[n-1]), func(t *testing.T) {
			root := t.TempDir()
			tree(t, root, atomicityTree)
			cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
			cmd.Env = append(os.Environ(), "LOLA_CRASH_ROOT="+root, "LOLA_CRASH_AT="+strconv.Itoa(n))
			out, err := cmd.CombinedOutput()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
				t.Fatalf("child was not killed at point %d: %v\n%s", n, err, out)
			}
			rep, err := Recover(openRoot(t, root), testKey)
			must(t, err)
			got := snapshot(t, root)
			switch {
			case n >= commitAt:
				if got != post {
					t.Fatalf("crash after the commit point (%s), recovery %s:\n%s", points[n-1], rep.Kind, diffLines(post, got))
				}
				if n < len(points) && rep.Kind != RecoveryCompleted {
					t.Fatalf("recovery says %s after the commit point", rep.Kind)
				}
			default:
				if got != pre {
					t.Fatalf("crash before the commit point (%s), recovery %s:\n%s", points[n-1], rep.Kind, diffLines(pre, got))
				}
				if rep.Kind != RecoveryRolledBack && rep.Kind != RecoveryDiscarded {
					t.Fatalf("recovery says %s before the commit point", rep.Kind)
				}
			}
			noStaging(t, root)
			// A second recovery finds nothing to do.
			if rep, err := Recover(openRoot(t, root), testKey); err != nil || rep.Kind != RecoveryNone {
				t.Fatalf("second recovery: %+v %v", rep, err)
			}
		})
	}
}
