package audit

import (
	"errors"
	"os"
	"path/filepath"
)

// FileName is the audit log's name under $LOLA_HOME.
const FileName = "audit.jsonl"

// Home returns Lola's state directory: $LOLA_HOME when set and non-empty,
// otherwise ".lola" under the user's home directory. A relative $LOLA_HOME
// is made absolute against the working directory.
func Home() (string, error) {
	if h := os.Getenv("LOLA_HOME"); h != "" {
		return filepath.Abs(h)
	}
	u, err := os.UserHomeDir()
	if err != nil || u == "" {
		return "", errors.New("audit: no LOLA_HOME and no home directory")
	}
	return filepath.Join(u, ".lola"), nil
}

// DefaultPath is $LOLA_HOME/audit.jsonl (default ~/.lola/audit.jsonl).
func DefaultPath() (string, error) {
	h, err := Home()
	if err != nil {
		return "", err
	}
	return filepath.Join(h, FileName), nil
}
