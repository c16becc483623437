package install

import "errors"

// Errors an install reports before or instead of applying anything; test
// with errors.Is. Each means nothing was applied.
var (
	// ErrUsage: the request itself is wrong (scope, assistant, project
	// directory, module name). Exit 2.
	ErrUsage = errors.New("install: bad request")
	// ErrModuleNotFound: no module of that name in the store. Exit 1, as
	// today's Lola exits for it.
	ErrModuleNotFound = errors.New("install: no such module (lola mod add it first)")
	// ErrUnknownAssistant: no target extension named as the assistant. Exit 2.
	ErrUnknownAssistant = errors.New("install: no target extension for that assistant")
	// ErrHookInvalid: a declared or --pre/--post-install hook is not a
	// script inside the module. Exit 2.
	ErrHookInvalid = errors.New("install: hook script refused")
	// ErrNativeDryRun: a dry run was asked of a tier-2 (native) target,
	// which would run unconfined before the host saw its plan. Exit 2.
	ErrNativeDryRun = errors.New("install: --dry-run refuses a native (tier-2) target: it would run unconfined and may act before lola sees its plan")
	// ErrPreInstallFailed: the pre-install hook did not succeed; the target
	// never ran. Exit 4.
	ErrPreInstallFailed = errors.New("install: pre-install hook failed; nothing was applied")
	// ErrTargetRefused: the target extension was refused before anything
	// ran, by its pin or the trust policy (host/extension.PinFor: an
	// artifact that changed since it was pinned, a native one nothing
	// pins or vouches for, one the policy does not trust). Exit 4, as
	// 'lola ext run' exits for the same refusal. An error matching it
	// carries the refusal's own message (and its rule, when it has one).
	ErrTargetRefused = errors.New("install: the target extension was refused before it ran")
	// ErrTargetFailed: the target extension returned no plan lola accepts.
	// Exit 4 (or 3 when its plan broke a lexical policy rule; see
	// Report.Launched).
	ErrTargetFailed = errors.New("install: the target extension failed; nothing was applied")
	// ErrAppendContext: an --append-context path holds a control
	// character; nothing ran. Exit 2. (A path that does not exist is a
	// warning: the instructions are not installed, the rest is.)
	ErrAppendContext = errors.New("install: --append-context refused")
	// ErrNotInstalled: uninstall of a module installed.yml does not record
	// for that assistant, scope and project. Exit 2.
	ErrNotInstalled = errors.New("install: not installed there (see lola list)")
)

// refused marks err, a refusal of the target before it ran, as
// ErrTargetRefused; its message stays err's own.
func refused(err error) error {
	if err == nil {
		return nil
	}
	return &refusedError{err}
}

type refusedError struct{ err error }

func (e *refusedError) Error() string   { return e.err.Error() }
func (e *refusedError) Unwrap() []error { return []error{e.err, ErrTargetRefused} }
