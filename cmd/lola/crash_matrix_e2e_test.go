package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The guest crash matrix (issue 15 item 3): for each guest language and
// each tier it builds, one extension scaffolded against the shipped SDK,
// whose handler does what the request's first module is named:
//
//	print  writes to stdout (a stray print) and logs, then returns a plan
//	panic  panics (Go, Rust) or throws (AssemblyScript) with a message
//	oom    allocates, doubling, until memory runs out: tier 1 meets the
//	       shim's ceiling (memory-limit, with its value); tier 2 runs
//	       without a ceiling, so it meets what its runtime reports: Go's
//	       and Rust's refused allocation, AssemblyScript's wasm32 maximum.
//	       Only one page of each block is written, so a tier-2 run
//	       exhausts address space, not the machine's memory.
//
// Each cell runs through `lola ext run` (not a dry run, so a failure that
// applied anything would show in the tree) and asserts the exit status,
// that the cause is named with its location, that the memory ceiling is
// reported as such with its value, that no diagnostic is wrapped twice,
// and what the tree under --root holds afterwards.

// crashMatrixMarker is the line a source's panic or throw is on; each
// source puts it at the end of that line so the test can find the number.
const crashMatrixMarker = "// crash-matrix: panic line"

var crashMatrixSources = map[string]struct{ file, src string }{
	"go": {"main.go", `package main

import (
	"fmt"

	lola "github.com/lola-pm/lola/sdk-go"
)

func init() { lola.Register(plan) }

func main() { lola.Main() }

var hoard [][]byte

func plan(req *lola.Request, p *lola.Plan) error {
	switch req.Modules[0].Name {
	case "print":
		fmt.Println("stray print to stdout")
		lola.Infof("a log line")
	case "panic":
		panic("boom from the handler") ` + crashMatrixMarker + `
	case "oom":
		// Doubling, one page touched each: tier 1 meets its ceiling; tier
		// 2 is refused a mapping larger than the machine with little
		// resident, rather than exhausting the machine.
		for n := 1 << 20; ; n *= 2 {
			b := make([]byte, n)
			b[0] = 1
			hoard = append(hoard, b)
		}
	}
	return p.Write("@NAME@/ok.md", "ok")
}
`},
	"rust": {"src/lib.rs", `use lola_sdk::{Error, Level, PlanBuilder, Request};
use std::sync::atomic::{AtomicUsize, Ordering};

// Each allocation's address escapes here, so none is optimized away.
static SINK: AtomicUsize = AtomicUsize::new(0);

pub fn handle(req: &Request, plan: &mut PlanBuilder) -> Result<(), Error> {
    match req.modules[0].name.as_str() {
        "print" => {
            println!("stray print to stdout");
            lola_sdk::log(Level::Info, "a log line");
        }
        "panic" => panic!("boom from the handler"), ` + crashMatrixMarker + `
        "oom" => {
            // Doubling, one byte written each (see the Go source).
            let mut hoard: Vec<Vec<u8>> = Vec::new();
            let mut n: usize = 1 << 20;
            loop {
                let mut v: Vec<u8> = Vec::with_capacity(n);
                v.push(1);
                SINK.fetch_add(v.as_ptr() as usize, Ordering::Relaxed);
                hoard.push(v);
                n = n.saturating_mul(2);
                if hoard.len() == usize::MAX {
                    break;
                }
            }
        }
        _ => {}
    }
    plan.write("@NAME@/ok.md", "ok")?;
    Ok(())
}

lola_sdk::extension!(handle);
`},
	"assemblyscript": {"assembly/extension.ts", `import { PlanBuilder, Request, register, log, LOG_INFO } from "@lola-pm/sdk-assemblyscript/assembly/lola";
export {
  lola_abi_version,
  lola_alloc,
  lola_run,
  lola_plan_ptr,
  lola_plan_len,
} from "@lola-pm/sdk-assemblyscript/assembly/lola";

@external("wasi_snapshot_preview1", "fd_write")
declare function fd_write(fd: u32, iovs: usize, iovsLen: u32, written: usize): u32;

// stray writes msg to fd 1, as a print an author wires up would.
function stray(msg: string): void {
  const buf = String.UTF8.encode(msg + "\n");
  const iov = new ArrayBuffer(8);
  store<u32>(changetype<usize>(iov), <u32>changetype<usize>(buf));
  store<u32>(changetype<usize>(iov) + 4, <u32>buf.byteLength);
  const written = new ArrayBuffer(4);
  fd_write(1, changetype<usize>(iov), 1, changetype<usize>(written));
}

let hoard: usize[] = [];

function handle(req: Request, plan: PlanBuilder): void {
  const what = req.modules[0].name;
  if (what == "print") {
    stray("stray print to stdout");
    log(LOG_INFO, "a log line");
  } else if (what == "panic") {
    throw new Error("boom from the handler"); ` + crashMatrixMarker + `
  } else if (what == "oom") {
    // Doubling up to 256 MiB blocks, never written: heap.alloc does not
    // zero, so tier 2 reaches wasm32's 4 GiB with little resident.
    let n: usize = 1 << 20;
    while (true) {
      hoard.push(heap.alloc(n));
      if (n < (1 << 28)) n <<= 1;
    }
  }
  plan.write("@NAME@/ok.md", "ok");
}

register(handle);
`},
}

// crashMatrixLine is the 1-based line of the marker in src.
func crashMatrixLine(t *testing.T, src string) int {
	t.Helper()
	for i, l := range strings.Split(src, "\n") {
		if strings.Contains(l, crashMatrixMarker) {
			return i + 1
		}
	}
	t.Fatal("no panic line marker in the source")
	return 0
}

func TestGuestCrashMatrix(t *testing.T) {
	sdk := extOfflineAuthorEnv(t)
	for _, lang := range []string{"go", "rust", "assemblyscript"} {
		t.Run(lang, func(t *testing.T) {
			s := crashMatrixSources[lang]
			dir := filepath.Join(t.TempDir(), "crash-"+lang[:2])
			name := filepath.Base(dir)
			if code, out, errOut := extCLI(t, "ext", "new", "--lang", lang, "--sdk", sdk, name, dir); code != exitOK {
				t.Fatalf("ext new: exit %d\n%s%s", code, out, errOut)
			}
			// The plan writes beneath the manifest's path grant, NAME/.
			src := strings.ReplaceAll(s.src, "@NAME@", name)
			if err := os.WriteFile(filepath.Join(dir, s.file), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			if code, out, errOut := extCLI(t, "ext", "build", "--tier", "both", dir); code != exitOK {
				t.Fatalf("ext build: exit %d\n%s%s", code, out, errOut)
			}
			line := crashMatrixLine(t, s.src)
			for _, tier := range []string{"1", "2"} {
				art := filepath.Join(dir, "dist", name)
				if tier == "1" {
					art += ".wasm"
				}
				for _, what := range []string{"print", "panic", "oom"} {
					what, tier := what, tier
					t.Run("tier"+tier+"/"+what, func(t *testing.T) {
						crashMatrixCell(t, lang, name, tier, what, art, s.file, line)
					})
				}
			}
		})
	}
}

// crashMatrixCell runs one cell and checks what it reports.
func crashMatrixCell(t *testing.T, lang, name, tier, what, art, file string, line int) {
	req := filepath.Join(t.TempDir(), "req.json")
	body := fmt.Sprintf(`{"protocol":1,"operation":"generate","modules":[{"name":%q,"files":[]}]}`, what)
	if err := os.WriteFile(req, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	args := []string{"ext", "run", "--root", root, "--request", req, "--trust-native", art}
	if what == "print" {
		args = append(args[:len(args)-1], "-v", art) // a success shows its log with -v
	}
	code, out, errOut := extCLI(t, args...)
	all := out + errOut
	t.Logf("exit %d\n%s", code, all)
	tree := extTreeSnapshot(t, root)
	if what == "print" {
		if code != exitOK {
			t.Fatalf("exit %d, want 0", code)
		}
		if len(tree) != 1 || tree[filepath.Join(root, name, "ok.md")] != "ok" {
			t.Fatalf("the tree holds %v, want only %s/ok.md", tree, name)
		}
		// Both lines reach the diagnostics; the stray one never the plan.
		for _, want := range []string{"| stray print to stdout", "| lola: info: a log line"} {
			if !strings.Contains(errOut, want) {
				t.Errorf("stderr lacks %q", want)
			}
		}
		return
	}
	if code != exitExtension {
		t.Errorf("exit %d, want %d (the extension failed)", code, exitExtension)
	}
	if len(tree) != 0 {
		t.Errorf("a failed run wrote %v", tree)
	}
	var wants []string
	switch what {
	case "panic":
		loc := fmt.Sprintf("%s:%d", file, line)
		switch lang {
		case "go":
			// -trimpath: the file is named by its module path.
			wants = []string{"lola: handler panicked: boom from the handler at " + name + "/" + loc + " (main.plan)"}
		case "rust":
			wants = []string{"lola: handler panicked: boom from the handler at " + loc + ":"}
		case "assemblyscript":
			wants = []string{"lola: abort: boom from the handler at " + loc + ":"}
		}
	case "oom":
		switch {
		case tier == "1":
			wants = []string{"memory-limit: the module hit its memory ceiling of 4096 pages (256 MiB)"}
		case lang == "go":
			wants = []string{"| fatal error: runtime: out of memory"}
		case lang == "rust":
			wants = []string{"| memory allocation of ", " bytes failed"}
		case lang == "assemblyscript":
			wants = []string{"| lola: memory exhausted: the module asked to grow its memory to ", " pages, over its maximum of 65536 pages (4096 MiB), and then trapped"}
		}
	}
	for _, w := range wants {
		if !strings.Contains(all, w) {
			t.Errorf("the output lacks %q", w)
		}
	}
	// No double wrapping: each shim code, and each guest-status, at most
	// once in the error line.
	for _, l := range strings.Split(errOut, "\n") {
		if !strings.HasPrefix(l, "lola: ") || strings.HasPrefix(l, "lola: warning") {
			continue
		}
		for _, code := range []string{"guest-status-", "memory-limit", "trap", "guest-exit-"} {
			if n := strings.Count(l, code); n > 1 {
				t.Errorf("%q names %s %d times", l, code, n)
			}
		}
	}
}
