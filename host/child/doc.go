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
// Descendant containment: on a kill, and after a clean exit, the host ends
// every process the child started, as far as the platform lets it.
// CurrentContainment reports which of these is in effect; it is chosen once
// per process:
//
//   - Linux, cgroup v2 ("cgroup-v2"): where the host's own cgroup (the
//     "0::" line of /proc/self/cgroup, under the cgroup2 mount: /sys/fs/cgroup
//     on unified systems, /sys/fs/cgroup/unified on hybrid ones) lets it
//     create a child cgroup with cgroup.kill and clone into it, each child
//     starts in a fresh cgroup of its own through clone3 CLONE_INTO_CGROUP,
//     so it is a member before it runs any code. The kill writes 1 to its
//     cgroup.kill, which reaches every process in it whatever session or
//     group it moved to; cleanup removes the cgroup once it is empty,
//     within the grace. A process that may write to an ancestor's
//     cgroup.procs (root, say) can move itself out: the delegation, not this
//     package, draws that line.
//
//   - Linux, no usable subtree ("subreaper"): the host makes itself a child
//     subreaper (prctl PR_SET_CHILD_SUBREAPER, once, process-wide), so
//     descendants orphaned by a child's exit or kill are reparented to it;
//     cleanup kills and reaps them (by pidfd, never wait(-1), so no other
//     goroutine's child status is taken) until none remain or the grace
//     ends. It spares direct children this package started for other runs,
//     orphans still in the process group of another unfinished run (left
//     to that run's cleanup), and any child still in the host's own process
//     group (children other code starts with plain os/exec). So a
//     descendant that joins the host's process group without setsid()
//     escapes it, and an orphan of a concurrent run that left that run's
//     group is ended by whichever cleanup comes first: runs meant to
//     overlap want the cgroup path.
//
//   - Windows ("job-object"): each child runs in a job object created with
//     JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE and no breakaway flag. The child is
//     created with CREATE_SUSPENDED, assigned with AssignProcessToJobObject,
//     and only then resumed (its primary thread found through a Toolhelp
//     snapshot, since os/exec keeps no thread handle); a child whose
//     assignment fails is terminated before it ever runs. The kill
//     terminates the job; cleanup closes its handle, which ends whatever
//     is left.
//
//   - macOS and other Unix ("process-group"): no unprivileged equivalent
//     exists, so the process group kill and the bounded cleanup are all
//     there is. A descendant that calls setsid() or setpgid() escapes the
//     group and can outlive the run (and the install). That is the tier-2
//     trust model, not a gap in it: a tier-2 extension is native code the
//     user chose to run with their own authority.
//
//   - Elsewhere ("none"): the kill reaches the direct child only.
//
// Whatever the containment, the child also leads a fresh process group
// (Setpgid on Unix, CREATE_NEW_PROCESS_GROUP on Windows), and on Unix a
// kill signals the group and the child itself too. Liveness never depends
// on the containment: Run returns within Deadline + Grace even when a
// process will not die (a cgroup that does not empty in time is left
// behind, since a populated cgroup cannot be removed). Containment acts
// through Run: a host killed outright (SIGKILL) leaves its runs' processes,
// and on Linux their cgroups, behind.
package child
