package child

// group is the containment boundary a child is started in: one per run.
// Each platform file defines
//
//	discoverContainment() Containment     // once per process: what is in effect
//	newGroup(memoryMax int64) (*group, error) // before spawn: reserve resources
//	(*group).memoryMax() int64             // the memory bound set, 0 for none
//	(*group).start(cmd *exec.Cmd) error    // spawn cmd inside the group
//	(*group).containment() Containment     // what this run is in, for Result
//	(*group).waited()                      // after cmd.Wait reaped the child
//	(*group).kill()                        // signal every member, idempotent
//	(*group).release(stop <-chan struct{}) // after reaping: free resources;
//	                                       // must return once stop is closed
//
// Linux (group_linux.go): the process group plus a fresh cgroup v2 child
// (cgroup_linux.go) or the host's subreaper sweep (subreaper_linux.go).
// Windows (group_windows.go): a job object, the child assigned while
// suspended. Other Unix (group_unix.go): the process group alone. Elsewhere
// (group_other.go): the child alone.
// A subreaper's reaping of orphans belongs in release, bounded by stop (the
// run's grace; nil when nothing was started).
// kill must stay safe to call from any goroutine and more than once, and
// must never block for longer than a system call.
