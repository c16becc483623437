package main

import "github.com/lola-pm/lola/host/exitcode"

// Exit codes are host/exitcode's closed set; lola --help documents them.
const (
	exitOK             = exitcode.OK
	exitInternal       = exitcode.Internal
	exitUsage          = exitcode.Usage
	exitRejected       = exitcode.Rejected
	exitExtension      = exitcode.Extension
	exitRolledBack     = exitcode.RolledBack
	exitRollbackFailed = exitcode.RollbackFailed
)

const exitCodeHelp = exitcode.Help
