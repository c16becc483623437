package exitcode

import (
	"errors"
	"io/fs"

	"github.com/lola-pm/lola/host/apply"
	"github.com/lola-pm/lola/host/exttest"
	"github.com/lola-pm/lola/host/install"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/host/sync"
)

// ForStopped maps an install or uninstall that failed within a run of
// several (one of lola update's, the one that stopped lola mod rm):
// ForInstall of it, except that a failure is never a success: an install
// that ended well but still failed (its plan not committed, its records
// not updated) is 1.
func ForStopped(rep install.Report, err error) int {
	if c := ForInstall(rep, err); c != OK {
		return c
	}
	return Internal
}

// Worst is the exit code of a run whose steps failed with codes: the
// highest of them, so that a rollback that failed (6) or an apply rolled
// back (5) is never reported as a lesser failure; 0 when there are none.
// A run that went on past its failures (lola update, lola sync) exits
// with it.
func Worst(codes ...int) int {
	w := OK
	for _, c := range codes {
		w = max(w, c)
	}
	return w
}

// ForSyncFile maps sync.ReadFile's failure: no requirements file is 1 (as
// today's Lola exits), a line that does not parse 2, anything else 1.
func ForSyncFile(err error) int {
	switch {
	case err == nil:
		return OK
	case errors.Is(err, sync.ErrParse):
		return Usage
	}
	return Internal
}

// ForSync maps the step that stopped a sync (rep and err are its Report
// and Err): a module in neither the store nor an enabled marketplace, or
// no version the line admits, is 1 (today's Lola); a line naming no
// single source (several marketplaces offer the module) is 2, as for
// install (ForResolve); otherwise the failed install's code (ForInstall),
// and when that is 0 or 1, what the marketplace registry's error maps to
// (ForMarket). A step that stopped the sync is never a success: what maps
// to 0 is 1.
func ForSync(rep install.Report, err error) int {
	if errors.Is(err, install.ErrModuleNotFound) || errors.Is(err, sync.ErrVersion) {
		return Internal
	}
	if namesNoSingleSource(err) {
		return Usage
	}
	if c := ForInstall(rep, err); c != OK && c != Internal {
		return c
	}
	if c := ForMarket(err); c != OK {
		return c
	}
	return Internal
}

// ForValidate maps what decoding and validating a plan file returned
// (lola plan validate): a plan refused by any rule is 3, nothing else is
// a rejection, 1.
func ForValidate(err error) int {
	switch {
	case err == nil:
		return OK
	case len(rejection.All(err)) > 0:
		return Rejected
	}
	return Internal
}

// ForRecover maps apply.Recover's result: a journal that could not be
// undone (*apply.RecoveryError: the tree is in neither state) is 6,
// anything else 1.
func ForRecover(err error) int {
	var re *apply.RecoveryError
	switch {
	case err == nil:
		return OK
	case errors.As(err, &re):
		return RollbackFailed
	}
	return Internal
}

// ForVerify maps audit.Verify's result: an intact log, or none yet, is 0,
// anything else 1, a broken chain (*audit.ChainError) included on purpose:
// the closed set has no member for "the log is not intact", the failure is
// no plan's rejection (3), and 1 already means "something is wrong that is
// not your plan" (the message names the record).
func ForVerify(err error) int {
	if err == nil || errors.Is(err, fs.ErrNotExist) {
		return OK
	}
	return Internal
}

// ForExtTest maps the runs of lola ext test: every case passed (or wrote
// its golden) is 0; a case refused, differing from its golden or without a
// plan is 3, as a rejected plan is.
func ForExtTest(results []exttest.Result) int {
	for _, r := range results {
		if r.Err != nil {
			return Rejected
		}
	}
	return OK
}
