package main

// Exit codes are a closed set; lola --help documents them.
const (
	exitOK             = 0 // success
	exitInternal       = 1 // internal error
	exitUsage          = 2 // usage error
	exitRejected       = 3 // plan (or module input) rejected by a rule, nothing applied
	exitExtension      = 4 // extension failed or hit a limit, nothing applied
	exitRolledBack     = 5 // applied then rolled back: the tree is pre-plan
	exitRollbackFailed = 6 // rollback failed: the tree is in neither state
)

const exitCodeHelp = `Exit codes:
  0  success
  1  internal error
  2  usage error
  3  plan or input rejected by a rule (nothing applied)
  4  extension failed or hit a limit (nothing applied)
  5  applied, then rolled back (the tree is as it was before the plan)
  6  rollback failed (the tree is in neither state; see the message and 'lola recover')`
