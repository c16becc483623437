package main

import (
	"path/filepath"

	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/config"
	"github.com/lola-pm/lola/host/remote"
)

// lolaState is Lola's state directory and what is read from it: the
// configuration, the audit log's path, and the remote client that performs
// fetch and clone under the configured policy.
type lolaState struct {
	home string
	cfg  *config.Config
}

// openState resolves the state directory (--home, else $LOLA_HOME, else
// ~/.lola) and loads config.yaml strictly (absent means defaults).
func openState(home string) (*lolaState, error) {
	abs, err := lolaHome(home)
	if err != nil {
		return nil, err
	}
	cfg, err := config.Load(abs)
	if err != nil {
		return nil, err // config.Load names config.yaml itself
	}
	return &lolaState{home: abs, cfg: cfg}, nil
}

// lolaHome is the state directory, absolute: --home, else $LOLA_HOME, else
// ~/.lola. Nothing in it is read.
func lolaHome(home string) (string, error) {
	if home == "" {
		h, err := config.Home()
		if err != nil {
			return "", err
		}
		home = h
	}
	return filepath.Abs(home)
}

func (s *lolaState) auditPath() string { return filepath.Join(s.home, audit.FileName) }

func (s *lolaState) openAudit() (*audit.Log, error) { return audit.Open(s.auditPath()) }

func (s *lolaState) cacheDir() string { return filepath.Join(s.home, config.CacheDir) }

// remoteClient builds the fetch/clone client from the configuration,
// credentials and cache under the state directory.
func (s *lolaState) remoteClient() (*remote.Client, error) {
	o, err := remote.OptionsFromHome(s.home, s.cfg, remote.DefaultLimits())
	if err != nil {
		return nil, err
	}
	return remote.New(o)
}
