package extension

import (
	"errors"

	"github.com/lola-pm/lola/host/capability"
	"github.com/lola-pm/lola/host/config"
	"github.com/lola-pm/lola/host/pathrule"
	"github.com/lola-pm/lola/host/plan"
	"github.com/lola-pm/lola/host/rejection"
)

// PathGrant is the extension's effective path grant: its declared prefixes
// narrowed by cfg (nil: no narrowing), judged under eq, which must be the
// relation of the root the plan applies under (pathrule.Validated.Equality).
func (e *Extension) PathGrant(cfg *config.Config, eq pathrule.Equality) capability.PathGrant {
	return capability.GrantPaths(e.Paths(), cfg, e.Name(), eq)
}

// Check holds a plan this extension returned to its authority: every intent
// needing a capability not granted (capability.missing) and every touched
// path outside the effective path grant (grant.outside) is reported, in
// one *rejection.Set, and any violation rejects the plan whole. A nil
// result means only that the plan is within the extension's authority;
// path vocabulary, conflicts and remote policy are checked elsewhere.
//
//	if err := ext.Check(p, cfg, validated.Equality()); err != nil {
//		// reject: nothing is applied; log the rules (rejection.All(err))
//	}
func (e *Extension) Check(p *plan.Plan, cfg *config.Config, eq pathrule.Equality) error {
	if p == nil {
		return errors.New("extension: nil plan")
	}
	var set rejection.Set
	for _, err := range []error{e.Capabilities().Check(p), e.PathGrant(cfg, eq).Check(p)} {
		for _, v := range rejection.All(err) {
			set.Add(v)
		}
	}
	return set.Err()
}
