package exitcode

import (
	"errors"
	"fmt"
	"io/fs"
	"testing"

	"github.com/lola-pm/lola/host/install"
	"github.com/lola-pm/lola/host/market"
	"github.com/lola-pm/lola/host/modsource"
	"github.com/lola-pm/lola/host/module"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

type codeCase struct {
	name string
	err  error
	want int
}

func checkCodes(t *testing.T, f func(error) int, cases []codeCase) {
	t.Helper()
	for _, tc := range cases {
		if got := f(tc.err); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
}

// wrapped is how the host hands its sentinels up: with context.
func wrapped(e error) error { return fmt.Errorf("context: %w", e) }

var (
	aRule      = rejection.New(schema.RulePathTraversal, "x")
	aLimit     = &module.LimitError{Limit: module.LimitFiles, Max: 1}
	decidedErr = Wrap(Extension, errors.New("the remote client could not be set up"))
	anyOther   = errors.New("disk on fire")
)

func TestForModule(t *testing.T) {
	checkCodes(t, ForModule, []codeCase{
		{"nil", nil, OK},
		{"decidedErr where it arose", wrapped(decidedErr), Extension},
		{"rule", wrapped(aRule), Rejected},
		{"bound", wrapped(aLimit), Rejected},
		{"not a module", wrapped(module.ErrNotModule), Rejected},
		{"bad hook", wrapped(module.ErrHook), Rejected},
		{"bad lola.yaml", wrapped(module.ErrConfig), Rejected},
		{"bad .lola/source.yml", wrapped(module.ErrSourceInfo), Rejected},
		{"source type lola does not fetch", wrapped(modsource.ErrSourceType), Rejected},
		{"unknown module", wrapped(module.ErrNotFound), Internal},
		{"no such folder", wrapped(fs.ErrNotExist), Internal},
		{"not a folder", wrapped(module.ErrNotDir), Internal},
		{"bad name", wrapped(module.ErrName), Usage},
		{"exists", wrapped(module.ErrExists), Usage},
		{"installed", wrapped(&install.InUseError{Module: "m"}), Usage},
		{"other", anyOther, Internal},
	})
}

// A SOURCE that is neither a refused input nor a usage error by
// ForModule's rules (it does not exist, lola does not take its kind) is
// the argument's fault.
func TestForSource(t *testing.T) {
	checkCodes(t, ForSource, []codeCase{
		{"nil", nil, OK},
		{"rule", wrapped(aRule), Rejected},
		{"bad name", wrapped(module.ErrName), Usage},
		{"missing or unsupported", errors.New("no such file"), Usage},
	})
}

func TestForResolve(t *testing.T) {
	checkCodes(t, ForResolve, []codeCase{
		{"nil", nil, OK},
		{"rule", wrapped(aRule), Rejected},
		{"unknown marketplace", wrapped(market.ErrNotFound), Internal},
		{"module not in the marketplace", wrapped(market.ErrNoModule), Internal},
		{"module not in the store", wrapped(module.ErrNotFound), Internal},
		{"ambiguous", wrapped(market.ErrAmbiguous), Usage},
		{"other source", wrapped(market.ErrOtherSource), Usage},
		{"bad name", wrapped(module.ErrName), Usage},
		{"catalog entry not git", wrapped(market.ErrNotGit), Usage},
		{"stored module not git", wrapped(modsource.ErrNotGit), Usage},
		{"no source record", wrapped(modsource.ErrNoRecord), Usage},
		{"fetch refused the module", wrapped(module.ErrNotModule), Rejected},
		{"fetch over a bound", wrapped(aLimit), Rejected},
		{"decidedErr where it arose", wrapped(decidedErr), Extension},
		{"other", anyOther, Internal},
	})
}

func TestForMarket(t *testing.T) {
	checkCodes(t, ForMarket, []codeCase{
		{"nil", nil, OK},
		{"decidedErr where it arose", wrapped(decidedErr), Extension},
		{"rule", wrapped(aRule), Rejected},
		{"catalog refused", wrapped(market.ErrCatalog), Rejected},
		{"exists", wrapped(market.ErrExists), Usage},
		{"bad name", wrapped(module.ErrName), Usage},
		{"unknown marketplace", wrapped(market.ErrNotFound), Internal},
		{"other", anyOther, Internal},
	})
}

func TestForExtAdd(t *testing.T) {
	checkCodes(t, ForExtAdd, []codeCase{
		{"nil", nil, OK},
		{"decidedErr where it arose", wrapped(decidedErr), Extension},
		{"rule", wrapped(aRule), Rejected},
		{"pin changed", wrapped(rejection.New(schema.RuleExtensionChanged, "x")), Rejected},
		{"bound", wrapped(aLimit), Rejected},
		{"archive entry the manifest does not name", wrapped(&module.UnlistedError{Path: "README.md", Top: "lola-extension.yaml"}), Rejected},
		{"anything else", anyOther, Usage},
	})
}
