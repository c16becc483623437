package exitcode

import (
	"errors"
	"io/fs"

	"github.com/lola-pm/lola/host/install"
	"github.com/lola-pm/lola/host/market"
	"github.com/lola-pm/lola/host/modsource"
	"github.com/lola-pm/lola/host/module"
	"github.com/lola-pm/lola/host/rejection"
)

// ForModule maps what the module store (host/module, host/modsource)
// returned for an add, an update, a removal or a lookup. A code decided
// where the failure arose (an *Error in the chain: the remote client could
// not be set up, say) is kept. A refused input (a rule, a bound, not a
// module, an unrunnable hook, a bad lola.yaml, a .lola/source.yml that
// does not decode or records a source type lola does not fetch, or not
// the kind of its source) is 3, nothing stored; a
// request the store cannot honour as asked (a bad name, an existing module,
// a module still installed) is 2; an unknown module, or a module folder
// that does not exist or is no directory (module.InspectDir), is 1, as
// today's Lola exits (scripts test it); anything else is 1.
func ForModule(err error) int {
	if c, ok := decided(err); ok {
		return c
	}
	var le *module.LimitError
	var inUse *install.InUseError
	switch {
	case len(rejection.All(err)) > 0, errors.As(err, &le), errors.Is(err, module.ErrNotModule),
		errors.Is(err, module.ErrHook), errors.Is(err, module.ErrConfig),
		errors.Is(err, module.ErrSourceInfo), errors.Is(err, modsource.ErrSourceType):
		return Rejected
	case errors.Is(err, module.ErrNotFound), errors.Is(err, fs.ErrNotExist), errors.Is(err, module.ErrNotDir):
		return Internal
	case errors.Is(err, module.ErrName), errors.Is(err, module.ErrExists), errors.As(err, &inUse):
		return Usage
	}
	return Internal
}

// ForSource maps module.ParseSource's refusal of a SOURCE argument: as
// ForModule, but what ForModule leaves at 1 (a path that does not exist, a
// kind of source lola does not take) is the argument's fault, 2.
func ForSource(err error) int {
	if c := ForModule(err); c != Internal {
		return c
	}
	return Usage
}

// ForResolve maps market.Registry.Resolve's failure to turn an install's
// MODULE argument (NAME@REF, @MARKET/NAME[@REF]) into a stored module: a
// refusing rule is 3; an unknown marketplace or module 1, as today's Lola
// exits for an unknown module; an argument that names no single source (a
// module several marketplaces offer, one the store holds from another
// source, a bad name, a ref for a source that is not git or has no record)
// is 2; what the fetch into the store returned is ForModule's.
func ForResolve(err error) int {
	switch {
	case err == nil:
		return OK
	case len(rejection.All(err)) > 0:
		return Rejected
	case errors.Is(err, market.ErrNotFound), errors.Is(err, market.ErrNoModule), errors.Is(err, module.ErrNotFound):
		return Internal
	case namesNoSingleSource(err):
		return Usage
	}
	return ForModule(err)
}

// namesNoSingleSource reports whether err says a module argument names no
// single source: several marketplaces offer it, the store holds it from
// another source, the name is bad, or a ref was given for a source that
// is not git or has no record. The user must say which: a usage error.
func namesNoSingleSource(err error) bool {
	return errors.Is(err, market.ErrAmbiguous) || errors.Is(err, market.ErrOtherSource) || errors.Is(err, module.ErrName) ||
		errors.Is(err, market.ErrNotGit) || errors.Is(err, modsource.ErrNotGit) || errors.Is(err, modsource.ErrNoRecord)
}

// ForMarket maps what the marketplace registry (host/market) returned: a
// refused catalog or remote rule is 3; an existing or a bad name 2; an
// unknown marketplace 1 (today's Lola), and anything else 1. A code decided
// where the failure arose is kept.
func ForMarket(err error) int {
	if c, ok := decided(err); ok {
		return c
	}
	switch {
	case len(rejection.All(err)) > 0, errors.Is(err, market.ErrCatalog):
		return Rejected
	case errors.Is(err, market.ErrExists), errors.Is(err, module.ErrName):
		return Usage
	}
	return Internal
}

// ForExtAdd maps what adding, updating or linking an extension
// (host/extension) returned: a rule (path.*, remote.*, extension.changed,
// extension.unsigned), an intake bound (module.*) or an archive entry the
// manifest does not name (module.unlisted) is 3, as mod add exits
// for them; a code decided where the failure arose is kept; anything else
// (no manifest, a bad name, nothing built, an unknown extension) is the
// request's, 2.
func ForExtAdd(err error) int {
	if c, ok := decided(err); ok {
		return c
	}
	var le *module.LimitError
	if len(rejection.All(err)) > 0 || errors.As(err, &le) || errors.Is(err, module.ErrUnlisted) {
		return Rejected
	}
	return Usage
}
