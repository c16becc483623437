package extension

import (
	"github.com/lola-pm/lola/host/config"
	"github.com/lola-pm/lola/host/sigverify"
)

// TrustFromConfig is the trust policy config.yaml's trust: section sets:
// its verifier (keys read relative to home, the trusted root from home;
// bundles verified by lola-sigstore through host/sigverify) and whether a
// tier-1 module must be signed too. A nil cfg is the default
// configuration.
func TrustFromConfig(home string, cfg *config.Config) (TrustPolicy, error) {
	if cfg == nil {
		cfg = config.Default()
	}
	v, err := sigverify.FromConfig(home, cfg.Trust())
	if err != nil {
		return TrustPolicy{}, err
	}
	return TrustPolicy{Verifier: v, RequireTier1: cfg.Trust().RequireTier1()}, nil
}
