package child_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The tests run real children: this test binary re-executed with
// fixtureEnv naming the behaviour. Every fixture is a hostile or plain
// tier-2 extension speaking over real pipes.
const fixtureEnv = "LOLA_CHILD_FIXTURE"

func TestMain(m *testing.M) {
	if mode := os.Getenv(fixtureEnv); mode != "" {
		os.Exit(runFixture(mode))
	}
	os.Exit(m.Run())
}

// platformFixtures are fixtures only some platforms build (the Linux
// containment tests' descendants), registered from their files' init.
var platformFixtures = map[string]func() int{}

// hold is how long a holding fixture lives: far past any test's deadline,
// short enough that a leaked one dies by itself.
const hold = 60 * time.Second

func runFixture(mode string) int {
	switch mode {
	case "plan": // reads the request, answers with a plan naming its size
		req, _ := io.ReadAll(os.Stdin)
		fmt.Fprintf(os.Stdout, `{"protocol":1,"intents":[{"op":"write","path":"echo/request","content":"%d"}]}`, len(req))
		return 0
	case "empty": // the smallest round trip
		_, _ = io.Copy(io.Discard, os.Stdin)
		os.Stdout.WriteString(`{"protocol":1,"intents":[]}`)
		return 0
	case "hold": // holds stdout open and writes nothing
		fmt.Fprintf(os.Stderr, "pid=%d\n", os.Getpid())
		time.Sleep(hold)
		return 0
	case "exit3":
		os.Stderr.WriteString("boom: the extension gave up\n")
		return 3
	case "suicide": // dies by a signal nobody in the host sent
		p, _ := os.FindProcess(os.Getpid())
		_ = p.Kill()
		time.Sleep(hold)
		return 0
	case "flood": // floods stderr around a valid plan
		mib, _ := strconv.Atoi(os.Getenv("LOLA_FLOOD_MIB"))
		chunk := bytes.Repeat([]byte("noise "), (64<<10)/6)
		total := int64(mib) << 20
		var written int64
		for written < total/2 {
			n, _ := os.Stderr.Write(chunk)
			written += int64(n)
		}
		os.Stdout.WriteString(`{"protocol":1,"intents":[{"op":"delete","path":"old"}]}`)
		for written < total {
			n, _ := os.Stderr.Write(chunk)
			written += int64(n)
		}
		return 0
	case "sized": // a valid plan of exactly LOLA_PLAN_BYTES bytes, then holds
		n, _ := strconv.Atoi(os.Getenv("LOLA_PLAN_BYTES"))
		os.Stdout.Write(sizedPlan(n))
		if os.Getenv("LOLA_THEN_HOLD") != "" {
			time.Sleep(hold)
		}
		return 0
	case "many": // 10^6 tiny intents, then says it wrote them all
		n, _ := strconv.Atoi(os.Getenv("LOLA_INTENTS"))
		w := &bytes.Buffer{}
		w.WriteString(`{"protocol":1,"intents":[`)
		for i := 0; i < n; i++ {
			if i > 0 {
				w.WriteByte(',')
			}
			w.WriteString(`{"op":"delete","path":"a"}`)
			if w.Len() > 64<<10 {
				if _, err := os.Stdout.Write(w.Bytes()); err != nil {
					return 1
				}
				w.Reset()
			}
		}
		w.WriteString(`]}`)
		if _, err := os.Stdout.Write(w.Bytes()); err != nil {
			return 1
		}
		os.Stderr.WriteString("wrote-all\n")
		return 0
	case "field": // one content field of LOLA_FIELD_BYTES bytes, then holds
		n, _ := strconv.Atoi(os.Getenv("LOLA_FIELD_BYTES"))
		os.Stdout.WriteString(`{"protocol":1,"intents":[{"op":"write","path":"f","content":"`)
		os.Stdout.WriteString(strings.Repeat("x", n))
		os.Stdout.WriteString(`"}]}`)
		time.Sleep(hold)
		return 0
	case "malformed": // not a plan, followed by a lot more of it
		os.Stdout.WriteString("this is not a plan\n")
		junk := bytes.Repeat([]byte("junk "), 1<<20)
		os.Stdout.Write(junk)
		return 0
	case "post": // a well-formed plan the decoder's remote rules refuse
		os.Stdout.WriteString(`{"protocol":1,"intents":[{"op":"fetch","url":"https://example.org/x","dest":"x","method":"POST"}]}`)
		return 0
	case "trailing":
		os.Stdout.WriteString(`{"protocol":1,"intents":[]} {"protocol":1,"intents":[]}`)
		return 0
	case "noread": // never reads stdin, answers, exits
		os.Stdout.WriteString(`{"protocol":1,"intents":[]}`)
		return 0
	case "noread-hold": // never reads stdin and never exits
		time.Sleep(hold)
		return 0
	case "env":
		os.Stderr.WriteString(strings.Join(os.Environ(), "\n"))
		os.Stdout.WriteString(`{"protocol":1,"intents":[]}`)
		return 0
	case "hook": // an install hook: chatty stdout, exit status is the result
		os.Stdout.Write(bytes.Repeat([]byte("hook says hello\n"), 1<<16))
		if os.Getenv("LOLA_HOOK_FAIL") != "" {
			return 1
		}
		return 0
	case "setsid-exit", "setsid-hold", "ingroup-exit", "ingroup-hold": // leaves a descendant holding stdout
		self, _ := os.Executable()
		gc := exec.Command(self)
		gc.Env = []string{fixtureEnv + "=sleeper"}
		gc.Stdout = os.Stdout
		gc.Stderr = os.Stderr
		if strings.HasPrefix(mode, "setsid-") { // ingroup-: stays in the child's process group
			gc.SysProcAttr = detachAttr()
		}
		if err := gc.Start(); err != nil {
			fmt.Fprintln(os.Stderr, "grandchild:", err)
			return 1
		}
		if pf := os.Getenv("LOLA_PIDFILE"); pf != "" {
			_ = os.WriteFile(pf, []byte(strconv.Itoa(gc.Process.Pid)), 0o600)
		}
		if strings.HasSuffix(mode, "-hold") {
			time.Sleep(hold)
		}
		return 0
	case "sleeper":
		time.Sleep(hold)
		return 0
	}
	if f, ok := platformFixtures[mode]; ok {
		return f()
	}
	fmt.Fprintln(os.Stderr, "unknown fixture", mode)
	return 2
}

// sizedPlan is a valid one-intent plan of exactly n bytes (n >= 64).
func sizedPlan(n int) []byte {
	const head, tail = `{"protocol":1,"intents":[{"op":"write","path":"p","content":"`, `"}]}`
	pad := n - len(head) - len(tail)
	return []byte(head + strings.Repeat("x", pad) + tail)
}

// selfPath is this test binary, the executable every fixture runs as.
func selfPath(t testing.TB) string {
	t.Helper()
	p, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return p
}
