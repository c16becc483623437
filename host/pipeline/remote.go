package pipeline

import (
	"context"
	"os"

	"github.com/lola-pm/lola/host/fsroot"
	"github.com/lola-pm/lola/host/pathrule"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/host/remote"
)

// remoteAdapter lets the executor call the remote client for fetch and
// clone steps, with each hop's dialled address appended to the audit log
// under the plan's correlation id. A hop that could not be logged fails the
// step: a plan whose effects are not fully logged is not applied.
type remoteAdapter struct {
	ctx    context.Context
	client *remote.Client
	who    Proposer
	obs    *observer
}

func (r *remoteAdapter) ref(step pathrule.Step) rejection.IntentRef {
	return rejection.IntentRef{Index: step.Index(), Op: step.Op()}
}

func (r *remoteAdapter) Fetch(step pathrule.Step, dst *os.File) error {
	in := step.Intent()
	hops := r.obs.log.Hops(r.obs.corr, r.ref(step))
	_, err := r.client.Fetch(r.ctx, remote.FetchRequest{
		Extension: r.who.Extension.Name(), Intent: r.ref(step), Fetch: *in.Fetch,
	}, dst, hops)
	if err != nil {
		return err
	}
	return hops.Err()
}

func (r *remoteAdapter) Clone(step pathrule.Step, _ *fsroot.Dir, dirPath string) error {
	in := step.Intent()
	hops := r.obs.log.Hops(r.obs.corr, r.ref(step))
	_, err := r.client.Clone(r.ctx, remote.CloneRequest{
		Extension: r.who.Extension.Name(), Intent: r.ref(step), Clone: *in.Clone,
	}, dirPath, hops)
	if err != nil {
		return err
	}
	return hops.Err()
}
