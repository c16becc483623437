package child

// group is the containment boundary a child is started in: one per run.
// Each platform file defines
//
//	newGroup() (*group, error)             // before spawn: reserve resources
//	(*group).start(cmd *exec.Cmd) error    // spawn cmd inside the group
//	(*group).kill()                        // signal every member, idempotent
//	(*group).release(stop <-chan struct{}) // after reaping: free resources;
//	                                       // must return once stop is closed
//
// Today the group is a process group on Unix (Setpgid) and the process
// itself on Windows. Descendant containment layers in here without touching
// Run: on Linux a fresh cgroup v2 child (start via SysProcAttr.UseCgroupFD,
// kill by writing cgroup.kill) or a child subreaper that kills and reaps
// orphans within the grace; on Windows a job object with
// JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE, the child assigned while suspended.
// A subreaper's reaping of orphans belongs in release, bounded by stop (the
// run's grace; nil when nothing was started).
// kill must stay safe to call from any goroutine and more than once, and
// must never block for longer than a system call.
