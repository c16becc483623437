package main

import "github.com/lola-pm/lola/host/exitcode"

// The tests' short names for host/exitcode's closed set (the commands use
// exitcode.X; lola --help documents the set).
const (
	exitOK             = exitcode.OK
	exitInternal       = exitcode.Internal
	exitUsage          = exitcode.Usage
	exitRejected       = exitcode.Rejected
	exitExtension      = exitcode.Extension
	exitRolledBack     = exitcode.RolledBack
	exitRollbackFailed = exitcode.RollbackFailed
)
