//go:build linux

package main

// Benchmarks of the built CLI (bin/lola, from `make build`) end to end:
// process start, plan decode, validation, the audit log and the apply's
// durability all included. They measure; nothing asserts a time.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lola-pm/lola/host/benchtest"
	"github.com/lola-pm/lola/host/shim"
	"golang.org/x/sys/unix"
)

// benchLola is bin/lola, or a skip telling how to build it.
func benchLola(b *testing.B) string {
	b.Helper()
	rel := filepath.Join("..", "..", "bin", "lola")
	if o := os.Getenv("LOLA_BENCH_LOLA"); o != "" {
		// Another build's lola (its builtin/ beside it), to compare two
		// sets of built-in targets on the same machine.
		rel = o
	}
	p, err := filepath.Abs(rel)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		b.Skip("bin/lola is not built: run make build")
	}
	return p
}

// lolaCmd runs bin/lola and returns the CPU time (user + system) it used:
// on a shared, loaded machine the wall time is mostly other people's, the
// CPU time is ours.
func lolaCmd(b *testing.B, bin, home string, args ...string) time.Duration {
	return lolaCmdSplit(b, bin, home, args...).total()
}

// cpuSplit is CPU time in user space and in the kernel, apart: on this
// kind of machine (ext4 without a journal) the kernel's share of creating
// a file swings tenfold with how many inodes anyone freed in the last
// minutes, while the user share is the program's own.
type cpuSplit struct{ user, sys time.Duration }

func (c cpuSplit) total() time.Duration { return c.user + c.sys }

func (c cpuSplit) sub(o cpuSplit) cpuSplit { return cpuSplit{c.user - o.user, c.sys - o.sys} }

func lolaCmdSplit(b *testing.B, bin, home string, args ...string) cpuSplit {
	b.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "LOLA_HOME="+home)
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("lola %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return cpuSplit{cmd.ProcessState.UserTime(), cmd.ProcessState.SystemTime()}
}

// selfCPU is this process's CPU time so far.
func selfCPU(b *testing.B) cpuSplit {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return cpuSplit{time.Duration(ru.Utime.Nano()), time.Duration(ru.Stime.Nano())}
}

func reportCPU(b *testing.B, cpu time.Duration) {
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
}

const benchFiles = 10000

// fileName spreads the files over 100 directories, as a module's skills do.
func fileName(i int) string { return fmt.Sprintf("d%02d/f%05d.md", i%100, i) }

func fileBody(i int) string { return fmt.Sprintf("# file %d\nsome skill text\n", i) }

// BenchmarkCLIApply10kFiles: `lola plan apply` of 10 000 writes through
// the built binary, against the floor of writing the same files with an
// os.WriteFile loop and making them durable with one syncfs.
//
// Both sides run in one loop, in pairs, the order alternating, and each
// side reports its median over the pairs (lola-wall-ms, floor-wall-ms,
// and their CPU time, user and kernel shares): on this kind of machine
// (ext4 without a journal) creating a file costs tenfold more while many
// inodes nearby were freed in the last minutes, so two sides measured
// one after the other mostly measure when each ran. Each run gets a
// fresh root, and no root is removed until the end, so the benchmark
// frees no inode itself.
func BenchmarkCLIApply10kFiles(b *testing.B) {
	bin := benchLola(b)
	work := b.TempDir()
	home := filepath.Join(work, "home")
	planPath := filepath.Join(work, "plan.json")
	var sb strings.Builder
	sb.WriteString(`{"protocol":1,"intents":[`)
	for i := 0; i < benchFiles; i++ {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `{"op":"write","path":%q,"content":%q}`, fileName(i), fileBody(i))
	}
	sb.WriteString(`]}`)
	if err := os.WriteFile(planPath, []byte(sb.String()), 0o600); err != nil {
		b.Fatal(err)
	}
	n := 0
	fresh := func() string {
		n++
		root := filepath.Join(work, fmt.Sprintf("root%d", n))
		if err := os.Mkdir(root, 0o755); err != nil {
			b.Fatal(err)
		}
		return root
	}
	runLola := func() cpuSplit {
		return lolaCmdSplit(b, bin, home, "plan", "apply", "--root", fresh(), "--fs", "bytes", planPath)
	}
	runFloor := func() cpuSplit {
		root := fresh()
		start := selfCPU(b)
		for d := 0; d < 100; d++ {
			if err := os.Mkdir(filepath.Join(root, fmt.Sprintf("d%02d", d)), 0o755); err != nil {
				b.Fatal(err)
			}
		}
		for j := 0; j < benchFiles; j++ {
			if err := os.WriteFile(filepath.Join(root, fileName(j)), []byte(fileBody(j)), 0o644); err != nil {
				b.Fatal(err)
			}
		}
		fd, err := unix.Open(root, unix.O_RDONLY|unix.O_DIRECTORY, 0)
		if err != nil {
			b.Fatal(err)
		}
		if err := unix.Syncfs(fd); err != nil {
			b.Fatal(err)
		}
		unix.Close(fd)
		return selfCPU(b).sub(start)
	}
	runLola() // the first apply makes $LOLA_HOME and its audit log
	const pairs = 5
	var lolaCPU, floorCPU []cpuSplit
	b.ResetTimer()
	lolaWall, floorWall := benchtest.Pairs(pairs*b.N,
		func() { lolaCPU = append(lolaCPU, runLola()) },
		func() { floorCPU = append(floorCPU, runFloor()) })
	b.StopTimer()
	reportSide(b, "lola", lolaWall, lolaCPU)
	reportSide(b, "floor", floorWall, floorCPU)
}

// reportSide gives one side's medians as NAME-wall-ms, NAME-cpu-ms,
// NAME-user-ms and NAME-sys-ms.
func reportSide(b *testing.B, name string, wall []time.Duration, cpu []cpuSplit) {
	var total, user, sys []time.Duration
	for _, c := range cpu {
		total, user, sys = append(total, c.total()), append(user, c.user), append(sys, c.sys)
	}
	b.ReportMetric(benchtest.MedianMS(wall), name+"-wall-ms")
	b.ReportMetric(benchtest.MedianMS(total), name+"-cpu-ms")
	b.ReportMetric(benchtest.MedianMS(user), name+"-user-ms")
	b.ReportMetric(benchtest.MedianMS(sys), name+"-sys-ms")
}

// builtinTargets are the built-in assistant targets (embedded in lola).
var builtinTargets = []string{"claude-code", "copilot-cli", "copilot-vscode", "cursor", "gemini-cli", "openclaw", "opencode"}

// BenchmarkCLIInstall10Files: `lola install` of a 10-file module (4
// skills, 3 commands, 3 agents) for each built-in target into a fresh
// project, warm (the module is added and the target's compiled code is
// cached by one install before timing). Reports the median wall time as
// median-ms, per target.
func BenchmarkCLIInstall10Files(b *testing.B) {
	bin := benchLola(b)
	work := b.TempDir()
	mod := filepath.Join(work, "m10")
	files := map[string]string{}
	for i := 1; i <= 4; i++ {
		files[fmt.Sprintf("skills/s%d/SKILL.md", i)] = fmt.Sprintf("---\nname: s%d\ndescription: Skill %d\n---\n# S%d\n", i, i, i)
	}
	for i := 1; i <= 3; i++ {
		files[fmt.Sprintf("commands/c%d.md", i)] = fmt.Sprintf("---\ndescription: Command %d\n---\nDo %d\n", i, i)
		files[fmt.Sprintf("agents/a%d.md", i)] = fmt.Sprintf("---\nname: a%d\ndescription: Agent %d\n---\nAgent %d\n", i, i, i)
	}
	for name, body := range files {
		p := filepath.Join(mod, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for _, target := range builtinTargets {
		b.Run(target, func(b *testing.B) {
			// A $LOLA_HOME of its own per run: the installs of the targets
			// measured before would otherwise lengthen its records.
			home, err := os.MkdirTemp(work, "home-"+target)
			if err != nil {
				b.Fatal(err)
			}
			lolaCmd(b, bin, home, "mod", "add", mod)
			warm, err := os.MkdirTemp(work, "warm-"+target)
			if err != nil {
				b.Fatal(err)
			}
			lolaCmd(b, bin, home, "install", "m10", "-a", target, warm)
			var took []time.Duration
			var cpu time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				// b.Run calls this function again with a larger b.N: a
				// fresh directory each time, never one of an earlier run.
				proj, err := os.MkdirTemp(work, target+"-p")
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				start := time.Now()
				cpu += lolaCmd(b, bin, home, "install", "m10", "-a", target, proj)
				took = append(took, time.Since(start))
			}
			b.StopTimer()
			b.ReportMetric(benchtest.MedianMS(took), "median-ms")
			reportCPU(b, cpu) // wait4 reports the child with its reaped descendants: the tier-1 shim counts
		})
	}
}

// BenchmarkCLIInstallFloor is what a warm tier-1 install cannot cost less
// than, in CPU time (user + system), measured the same way as
// BenchmarkCLIInstall10Files: one bare lola process (help), and the
// tier-1 child alone (shim: bin/lola-shim running the claude-code target's
// module as make build built it, compilation cache warm, on a request with no
// modules). Install minus both is the host's own work: resolving, the
// checks, the apply with its audit log and durability, the registry.
func BenchmarkCLIInstallFloor(b *testing.B) {
	bin := benchLola(b)
	mod, _ := filepath.Abs(filepath.Join("..", "..", "examples", "claude-code", "dist", "claude-code.wasm"))
	if _, err := os.Stat(mod); err != nil {
		b.Skip("examples/claude-code is not built: run make build")
	}
	b.Run("help", func(b *testing.B) {
		home := b.TempDir()
		var cpu time.Duration
		for i := 0; i < b.N; i++ {
			cpu += lolaCmd(b, bin, home, "--help")
		}
		reportCPU(b, cpu)
	})
	b.Run("shim", func(b *testing.B) {
		a, err := shim.NewArgs(mod, nil, shim.DefaultLimits(), filepath.Join(b.TempDir(), "cache"))
		if err != nil {
			b.Fatal(err)
		}
		inv, err := shim.NewInvocation(filepath.Join(filepath.Dir(bin), shim.ShimExecutable), a)
		if err != nil {
			b.Fatal(err)
		}
		run := func() time.Duration {
			cmd := exec.Command(inv.Path, inv.Args...)
			cmd.Env = inv.Env
			cmd.Stdin = strings.NewReader(`{"protocol":1,"operation":"generate","modules":[]}`)
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("shim: %v\n%s", err, out)
			}
			return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		}
		run() // fill the cache
		b.ResetTimer()
		var cpu time.Duration
		for i := 0; i < b.N; i++ {
			cpu += run()
		}
		reportCPU(b, cpu)
	})
}
