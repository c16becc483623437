// Package child runs an extension as a child process and brings back what it
// returned: the phase-0 stdin/stdout transport every tier shares.
//
// Run spawns the child, writes the request on its stdin, reads its stdout
// (a plan, decoded by plan.Decode under plan.Limits, or bounded diagnostics
// for install hooks) and captures its stderr as diagnostics.
//
// Guarantees, on every platform:
//
//   - Run returns within Deadline + Grace of spawn, whatever the child and its
//     descendants do. The deadline is the outer one and starts at spawn.
//   - Host memory is bounded: stdout by plan.Limits (or StdoutCap), stderr by
//     StderrCap, plus fixed-size read buffers. Output past a cap is read and
//     discarded, so the child never blocks on a full pipe; the kept part ends
//     with TruncationMarker.
//   - A child is killed by the host for exactly two reasons: the outer
//     deadline (or the caller's context) and a stdout bound (plan bytes,
//     intent count, one field's size). A malformed plan or a noisy stderr does
//     not kill it; its exit status is still collected.
//   - On a kill the host signals the whole group (see below), closes its own
//     pipe ends, reaps the direct child and returns. It never waits for
//     end-of-file after a kill: a descendant that left the group and still
//     holds a pipe cannot keep Run from returning.
//   - Writing the request never deadlocks: it happens on its own goroutine,
//     which a kill unblocks by closing the pipe.
//   - The child gets exactly Spec's environment (none by default), never the
//     host's by accident, and Path is never searched for in PATH.
//   - Err never carries a host absolute path; Diagnostics are the child's own
//     bytes, untrusted, and must be rendered as such.
//
// Non-guarantees: a process group is not a containment boundary. On Unix the
// child starts in a fresh process group (Setpgid) and a kill sends SIGKILL to
// the group and to the child itself; a descendant that called setsid() or
// setpgid() survives it. On Windows the child gets its own process group and
// a kill terminates the child only. Descendant containment (cgroup v2 and
// child subreaper on Linux, job objects on Windows) plugs into the group type
// in group_*.go without changing this API. When Run returns after a clean
// exit, every process still in the child's group has been killed too.
package child
