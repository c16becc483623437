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
// audit record. A managed file that is a symbolic link (or under one)
// refuses the request (path.symlink): whether the install would write it,
// and so what it would send, depends on the target's plan, which is not
// run here (an install leaves such a file out of the request, and asks
// about the link only when its plan writes it).
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
	if len(j.managedLinks) > 0 {
		return schema.Request{}, symlinkRefusal(j.managedLinks, op)
	}
	return j.req, nil
}
