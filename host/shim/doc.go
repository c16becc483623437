// Package shim is the tier-1 child: `lola __extension-host --module PATH
// --caps LIST`, the process that reads one WASI preview 1 module, confines
// itself, and runs the module in wazero under the lola ABI. The parent side
// (NewInvocation, ParseReport) builds the invocation and reads the outcome.
//
// # Guarantees
//
// Main performs, in order: (0) RLIMIT_DATA is set on the process
// (DataLimit: twice the memory ceiling plus DataOverhead; Linux only) and
// the shim's clock starts. (1) The artifact is opened, refused if its
// size exceeds Limits.MaxModule, and read through a reader capped at that
// size plus one byte, refused if the extra byte arrives (a growing file or
// a FIFO); nothing refused reaches wazero. Its declarations are then
// pre-scanned by a bounded parser (prescan.go) and a module over a shape
// limit (functions, locals per function and in total, table elements,
// types, imports, ...) is refused as module-limit naming the limit, and
// one whose memory minimum exceeds the ceiling as memory-limit, before
// wazero decodes a byte. A table without a declared maximum is given
// MaxTableElements (wazero would let table.grow allocate up to 2^32
// elements, uninterruptibly); the SHA-256 of the bytes read is reported
// on a "module" line before step 2, so the host records the digest of
// exactly what ran without reading the artifact again. (2) The process is confined:
// on Linux, Landlock with no filesystem access at all (best effort up to
// the kernel's ABI, the level achieved reported), TCP bind and connect
// denied where the ABI offers it (v4+), IPC scoping (v6+), and a seccomp
// deny-list filter on every thread (socket/socketpair, execve/execveat,
// fork-style clone, ptrace and process_vm_*, mount and namespaces, keyrings,
// bpf, io_uring, module loading, handle opens: EPERM; a foreign
// architecture: killed). Off Linux the step is a no-op and says so.
// (3) The module is instantiated from the (pre-scanned) bytes with no preopened
// directory, no environment, no argv and no stdin; a reactor's
// _initialize is called before anything else; a command-style module (a
// _start and no _initialize) and a module importing anything but WASI
// preview 1 are refused with their own diagnostics. (4) It runs under the
// memory ceiling Limits.MemoryPages, enforced by the shim's own linear
// memory allocator, and the shim's clock, enforced by cancelling its
// context with WithCloseOnContextDone and, WatchdogGrace later, by a
// watchdog that writes the timeout outcome and exits the process. (5) lola_abi_version is read first and any value
// other than schema.ABIVersion refused naming both versions; the request
// is placed through the module's own lola_alloc and lola_run(ptr, len)
// called; only when it returns 0 are lola_plan_ptr and lola_plan_len read,
// and a length over Limits.MaxPlan or an extent outside linear memory is
// refused before a byte is copied. Length 0 is the empty plan (EmptyPlan),
// a success. The plan region is copied, never written.
//
// Every limit stops the module, not the shim: whichever was hit is written
// as exactly one outcome line on stderr, and the process exits with
// Kind.ExitCode (0 plan written, 2 usage, 4 the extension failed or hit a
// limit, 1 anything else). Nothing is applied by the shim, ever: it
// forwards bytes; the host decodes and validates them with its own bounds.
//
// # Stderr protocol
//
// Shim lines begin with LinePrefix and carry one JSON object: an optional
// "confinement" event (what step 2 achieved, and the --caps recorded) and
// one "outcome" event (a Kind from the closed vocabulary; guest-status-N
// and guest-exit-N carry their number). The guest's WASI stdout and stderr
// are forwarded as lines beginning with GuestPrefix, capped at GuestLogCap,
// so a guest can neither forge a shim line nor push the outcome past a host
// stderr cap of StderrBound. ParseReport is the parent's reader.
//
// # Deadlines
//
// The shim has one clock, Limits.Timeout, started when Main starts: reading,
// pre-scanning, compiling (at most CompileTimeout of it), confinement and
// the module's run all spend it. The host's deadline for a shim child is
// Limits.OuterDeadline: Timeout plus a margin of a tenth of it, at least
// MinMargin and at most MaxMargin, strictly greater than the clock plus
// WatchdogGrace, so a spinning module produces the shim's "timeout"
// diagnostic and never the host's kill. A user's --timeout is the outer
// deadline (WithOuterDeadline): `--timeout 5s` leaves the shim 4.54 s.
// Without one, the host raises the clock for the request's size
// (Limits.ForRequest): 20 s and ClockPerMiB, 2 s, for each MiB of request,
// at most 148 s at the 64 MiB request bound. The reason is the cost of the
// clock itself: wazero's WithCloseOnContextDone leaves the module for Go at
// every loop back-edge, which makes a module that reads its request byte
// by byte 4 to 10 times slower (measured, 20 MiB module: a Go target 7 s
// of CPU without the check, 30 s with it).
//
// # Compilation cache: read before confinement
//
// With a cache directory ($LOLA_HOME/cache in production) the shim keeps
// its entries in <cache>/tier1/<key>/, 0700, refusing a directory that is a
// symlink, owned by someone else or open to group or other (the run goes
// on uncached, reported as "refused"). The key names the wazero build
// (wazero-<version>, or build-<hash of the executable> for development
// builds) and wazero keys each entry by the SHA-256 of the module and the
// CPU, so a changed module or wazero misses.
//
// The cache is trusted executable input, so the choice is when it may be
// touched. The shim compiles between steps 1 and 2, while the directory is
// still reachable, and then confines itself with no filesystem access at
// all; it does not grant Landlock access to the cache directory. The
// trade-off: wazero's decoder and compiler see the hostile bytes before
// Landlock is applied (they are memory-safe Go and run no guest code), in
// exchange for which guest code — the only thing that could exploit a
// compiler or runtime bug to run native code — never runs while the cache
// is reachable, so an escape cannot poison the cache for later runs of
// other extensions. A read-write grant would allow exactly that, and a
// read-only grant would leave misses unwritable. Without a cache the shim
// compiles after confinement. A corrupted entry is detected (wazero checks
// a magic, its version and a CRC of the machine code); the shim then
// compiles uncached, purges its cache directory and reports "recovered".
// wazero does not checksum every metadata byte of an entry, which is why
// the directory's ownership and mode are checked before it is used.
//
// # Memory limits
//
// wazero's own ceiling refuses a memory.grow by returning -1 to the guest
// and tells the host nothing, so the shim leaves wazero's limit at the
// wasm32 maximum and backs linear memory with its own allocator
// (experimental.WithMemoryAllocator), which refuses a size over the
// ceiling and records it. A module that fails after such a refusal (Go:
// "out of memory", exit 2; Rust and AssemblyScript: an unreachable trap)
// is reported as memory-limit with the ceiling and the pages it had,
// whatever its own reaction was. On Unix the allocator reserves the
// ceiling's address space inaccessible and opens it as the module grows,
// so a growth never copies; on Linux it asks for transparent huge pages.
// The whole process (linear memory, the Go runtime, wazero's compiler,
// tables) is bounded by RLIMIT_DATA: a growth it refuses is reported as
// memory-limit like one over the ceiling, and any other allocation it
// refuses ends the process with the Go runtime's fatal out-of-memory
// error, which RunModule reports as memory-limit too.
//
// # Start-up cost
//
// A warm run's time goes mostly to memory the process touches for the
// first time (page faults), not to computation: the decoded module, the
// machine code loaded from the cache, the guest's heap. The shim therefore
// runs with the collector off below a soft limit (tuneGC: it would free
// almost nothing before exit), and, for a module of a megabyte or more,
// maps its Go heap ahead in one piece advised for huge pages
// (prepareHeap). wazero's own code segment is mapped by wazero and cannot
// be advised. On
// the cgroup v2 path the child's cgroup also gets memory.max = DataLimit
// where the memory controller is delegated (child.Config.MemoryMax).
// Measured peak RSS of the child (Linux, 256 MiB ceiling): a module that
// fills its whole memory and a 2^20-element table, 275 MiB; the 172-byte
// table.grow(0x6000000) and the 30M-locals modules of the red team, 10 MiB;
// a 1.8 MB module of 200,000 functions, 110 MiB when the clock stops its
// compilation.
//
// # The dedicated binary
//
// cmd/lola-shim is this package's Run alone. SelfInvocation prefers it
// when it lies beside the lola executable (ShimExecutable), because the
// whole CLI takes about 5 ms more to start, and re-executes lola as
// `lola __extension-host` otherwise.
package shim
