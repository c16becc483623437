package install

import (
	"fmt"

	"github.com/lola-pm/lola/host/module"
)

// InUseError refuses removing a module that installed.yml lists installs of.
type InUseError struct {
	Module   string
	Installs []Record
}

func (e *InUseError) Error() string {
	return fmt.Sprintf("module %s is installed %d time(s) (see lola list); uninstall it first or use --force", e.Module, len(e.Installs))
}

// RemoveModule removes a module from the store. Unless force, it refuses
// (*InUseError) while $LOLA_HOME/installed.yml lists installs of it; with
// force the installed files stay where they are. The check and the removal
// both run under installed.yml's lock, so an install cannot be recorded in
// between; installed.yml itself is not rewritten.
func RemoveModule(store *module.Store, home string, name module.Name, force bool) error {
	return withRegistryLocked(home, func(reg *Registry) error {
		if recs := reg.Find(name.String(), "", "", ""); !force && len(recs) > 0 {
			return &InUseError{Module: name.String(), Installs: recs}
		}
		return store.Remove(name)
	})
}
