package audit

import (
	"path/filepath"

	"github.com/lola-pm/lola/host/config"
)

// FileName is the audit log's name under $LOLA_HOME.
const FileName = "audit.jsonl"

// DefaultPath is $LOLA_HOME/audit.jsonl (default ~/.lola/audit.jsonl), with
// the state directory as config.Home finds it (a relative $LOLA_HOME is
// refused), so that the log read is the one every other command writes.
func DefaultPath() (string, error) {
	h, err := config.Home()
	if err != nil {
		return "", err
	}
	return filepath.Join(h, FileName), nil
}
