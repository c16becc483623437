package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/lola-pm/lola/host/exitcode"
	"github.com/lola-pm/lola/host/remote"
)

// remoteOnDemand is a module.Fetcher and module.Cloner for an intake
// (mod add, mod update, ext add, ext update) that builds host/remote's
// client from $LOLA_HOME only when a source is really fetched or cloned:
// a local folder or archive reads no config.yaml, credentials or cache.
// announce (nil: silent) is told what is fetched or cloned, the URL
// redacted. A config.yaml that does not load is a usage error (exit 2), a
// client that cannot be built an internal one (exit 1); neither is a
// refusal of the source.
type remoteOnDemand struct {
	home     string // as openState takes it ("" for the default)
	announce io.Writer
	c        *remote.Client
}

func (r *remoteOnDemand) client() (*remote.Client, error) {
	if r.c != nil {
		return r.c, nil
	}
	st, err := openState(r.home)
	if err != nil {
		return nil, exitcode.Wrap(exitcode.Usage, err) // config.Load names config.yaml itself
	}
	c, err := st.remoteClient()
	if err != nil {
		return nil, exitcode.Wrap(exitcode.Internal, err)
	}
	r.c = c
	return c, nil
}

func (r *remoteOnDemand) say(verb, url string) {
	if r.announce != nil {
		fmt.Fprintln(r.announce, verb, remote.RedactURL(url), "...")
	}
}

func (r *remoteOnDemand) Fetch(ctx context.Context, req remote.FetchRequest, dst *os.File, obs remote.HopObserver) (remote.FetchReport, error) {
	c, err := r.client()
	if err != nil {
		return remote.FetchReport{}, err
	}
	r.say("fetching", req.Fetch.URL)
	return c.Fetch(ctx, req, dst, obs)
}

func (r *remoteOnDemand) Clone(ctx context.Context, req remote.CloneRequest, dir string, obs remote.HopObserver) (remote.CloneReport, error) {
	c, err := r.client()
	if err != nil {
		return remote.CloneReport{}, err
	}
	r.say("cloning", req.Clone.URL)
	return c.Clone(ctx, req, dir, obs)
}
