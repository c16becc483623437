package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// HomeEnv is the environment variable naming the host's state directory.
const HomeEnv = "LOLA_HOME"

// DefaultHomeDir is the state directory's name under the user's home
// directory when HomeEnv is unset or empty.
const DefaultHomeDir = ".lola"

// File names under $LOLA_HOME.
const (
	ConfigFile      = "config.yaml"
	CredentialsFile = "credentials"
	KnownHostsFile  = "known_hosts"
	CacheDir        = "cache"
)

// Home returns the host's state directory: $LOLA_HOME when set and
// non-empty, otherwise ~/.lola. A relative $LOLA_HOME is refused rather than
// resolved against the working directory, since the same command run from
// two directories must not read two different policies. The directory is not
// created and need not exist.
func Home() (string, error) {
	if v := os.Getenv(HomeEnv); v != "" {
		if !filepath.IsAbs(v) {
			return "", fmt.Errorf("%s must be an absolute path", HomeEnv)
		}
		return filepath.Clean(v), nil
	}
	h, err := os.UserHomeDir()
	if err != nil {
		return "", errors.New("cannot determine the user's home directory; set " + HomeEnv)
	}
	return filepath.Join(h, DefaultHomeDir), nil
}
