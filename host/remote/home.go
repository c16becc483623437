package remote

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/lola-pm/lola/host/config"
)

// OptionsFromHome assembles the host's Options from its state directory
// (config.Home) and parsed configuration: the policy from cfg's remote
// section, the credential store from home/credentials (mode-checked), the
// fetch cache under home/cache (0700), and home/known_hosts for ssh when it
// exists (otherwise ssh clones are refused). The time bounds of l are
// replaced by remote.fetch_timeout and remote.clone_timeout where cfg sets
// them (config validated them). The system resolver and root CAs are used.
// Errors never carry home's path.
func OptionsFromHome(home string, cfg *config.Config, l Limits) (Options, error) {
	if cfg == nil {
		return Options{}, errors.New("remote: a configuration is required")
	}
	p, err := NewPolicy(cfg.Remote())
	if err != nil {
		return Options{}, err
	}
	creds, err := LoadCredentials(filepath.Join(home, config.CredentialsFile))
	if err != nil {
		return Options{}, err
	}
	cache, err := OpenCache(filepath.Join(home, config.CacheDir))
	if err != nil {
		return Options{}, err
	}
	if d, ok := cfg.Remote().FetchTimeout(); ok {
		l.fetchTimeout = d
	}
	if d, ok := cfg.Remote().CloneTimeout(); ok {
		l.cloneTimeout = d
	}
	o := Options{Policy: p, Limits: l, Resolver: SystemResolver{}, Credentials: creds, Cache: cache}
	kh := filepath.Join(home, config.KnownHostsFile)
	if fi, err := os.Stat(kh); err == nil && fi.Mode().IsRegular() {
		o.KnownHosts = kh
	}
	return o, nil
}
