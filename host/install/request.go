package install

import (
	"github.com/lola-pm/lola/schema"
)

// Request is the request Install (op install) or Uninstall (op
// uninstall) sends the target for o, built by the same preparation: the
// module from the store with its files and inventory, the target from the
// catalog, the assistant and scope, and the target's managed files read
// beneath the root as they are now (current, and created for those lola
// made). Nothing runs and nothing is written: no hook, no target, no
// audit record. A managed file that is a symbolic link refuses the
// request (path.symlink), as a dry run does.
//
// Non-guarantee: an install whose pre-install hook changes a managed
// file sends the current content as it is after the hook, which this
// request cannot know.
func Request(o Options, op schema.Operation) (schema.Request, error) {
	o.DryRun = true
	if op == schema.OperationUninstall {
		o.PreInstall, o.PostInstall = "", ""
	}
	j, err := prepare(&o, op)
	if err != nil {
		return schema.Request{}, err
	}
	return j.req, nil
}
