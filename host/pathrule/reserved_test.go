package pathrule

import (
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// TestValidateRefusesReservedNames: a plan naming the host's lock or a
// staging directory (in any spelling a filesystem folds onto it) is refused
// at validation, as the executor refuses it: `plan validate` and `plan
// apply` agree.
func TestValidateRefusesReservedNames(t *testing.T) {
	for _, spec := range []string{
		"write .lola.lock",
		"delete .lola.lock",
		"write .lola-staging-0123456789abcdef/journal",
		"write .LOLA-Staging-zz",
		"rename a .lola-staging-x",
		"rename .lola.lock b",
		"fetch .Lola.Lock",
		"clone .lola-staging-",
	} {
		for _, eq := range Equalities() {
			_, err := Validate(planOf(t, spec), eq)
			vs := rejection.All(err)
			if len(vs) != 1 || vs[0].Rule != schema.RulePathInvalid || !strings.Contains(vs[0].Detail, "reserved for the host") {
				t.Errorf("%q under %s: %v, want one path.invalid naming the reservation", spec, eq.Name(), err)
			}
		}
	}
	// Folding that only one relation applies: fullwidth or Kelvin spellings
	// are not ASCII case variants, and Darwin's key must still catch what
	// Darwin would fold together.
	if !Reserved(Darwin, ".lola-staging-\u212a") || !Reserved(Darwin, ".lola.loc\u212a") {
		t.Error("Darwin: KELVIN SIGN K folds onto k, so .lola.loc\u212a is the lock")
	}
	for _, ok := range []string{"lola.lock", ".lola.lock2", ".lola-stage", "x/.lola.lock"} {
		if _, err := Validate(planOf(t, "write "+ok), Bytes); err != nil {
			t.Errorf("%q: %v; only a top-level reserved name is refused", ok, err)
		}
	}
}
