package module

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/lola-pm/lola/host/internal/errpath"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/host/remote"
	"github.com/lola-pm/lola/schema"
)

// Fetcher fetches one https URL into a file; *remote.Client is one.
type Fetcher interface {
	Fetch(ctx context.Context, req remote.FetchRequest, dst *os.File, obs remote.HopObserver) (remote.FetchReport, error)
}

// Remote is what a remote source needs: the clients of host/remote (a
// SourceGit needs Cloner, a SourceArchiveURL Fetcher) and who is asking.
// A local source needs none of it.
type Remote struct {
	// Requester names the intake to host/remote ("lola mod add",
	// "lola ext add"); it keys the fetch cache.
	Requester string
	Fetcher   Fetcher
	Cloner    Cloner
	// Ref is the git ref to check out; "" the default branch.
	Ref      string
	Observer remote.HopObserver
}

// Fetched reports what a remote source fetched; both nil for a local one.
type Fetched struct {
	Clone *remote.CloneReport
	Fetch *remote.FetchReport
}

// Stage is Unpack for every source kind, local or remote, under exactly
// the rules Store.Add uses. scratch is an existing empty directory the
// caller owns and removes; what is staged goes to scratch/tree, and a
// remote source is first brought into scratch by host/remote, never by
// code of this package:
//   - a git repository is cloned (r.Cloner, under the remote access
//     policy; a checkout that would create a symbolic link is refused,
//     path.symlink) into scratch/clone and then copied as a folder
//     (.git left out), so every entry passes the same path rules;
//   - an archive URL is fetched (r.Fetcher, https only, under the policy,
//     bounded by the byte size an archive within b can have: remote.bound)
//     into scratch/download and unpacked as a local archive would be.
//
// The root returned is as Unpack's (an archive's single top-level
// directory is unwrapped unless topFile is at its top). On error scratch
// may hold a partial tree: the caller removes it.
//
// With pick set, the intake takes exactly topFile and what pick names
// from its content (an extension's manifest and its artifacts):
//   - a folder or a clone's checkout is read for those paths only
//     (copyPicked): nothing else in it is opened, listed or bounded, so a
//     build tree beside them (target/, node_modules/ and its symbolic
//     links) no longer refuses the source, while a named path that is a
//     link, or lies under one, still does (path.symlink);
//   - an archive is unpacked whole under every rule and bound above, and
//     then any entry that is not topFile or a named path (or a directory
//     holding one) refuses it (*UnlistedError, module.unlisted): an
//     archive is a release, and a release holding more than its manifest
//     names is not what `lola ext pack` makes.
func Stage(ctx context.Context, src Source, scratch string, b Bounds, topFile string, r Remote, pick Pick) (root string, f Fetched, err error) {
	if src.kind == sourceUnknown {
		return "", f, errors.New("module: a Source must be built with ParseSource")
	}
	if !b.valid() {
		b = DefaultBounds()
	}
	tree := filepath.Join(scratch, "tree")
	st, err := newStager(tree, b)
	if err != nil {
		return "", f, err
	}
	st.pick, st.top = pick, topFile
	if f, err = stageSource(ctx, src, scratch, st, r); err != nil {
		return "", f, fmt.Errorf("%s source: %w", src.kind, err)
	}
	root = filepath.Clean(tree)
	if src.archived() {
		if ok, _ := regularAt(tree, topFile); !ok {
			if sub := singleDir(tree); sub != "" {
				root = sub
			}
		}
		if pick != nil {
			if err := checkPicked(root, topFile, pick); err != nil {
				return "", f, fmt.Errorf("%s source: %w", src.kind, err)
			}
		}
	}
	return root, f, nil
}

// archived reports whether the source is an archive (local or fetched),
// whose single top-level directory may be unwrapped.
func (s Source) archived() bool {
	return s.kind == SourceZip || s.kind == SourceTar || s.kind == SourceArchiveURL
}

// stageSource stages any source through st, fetching a remote one into
// scratch first: the one dispatch Stage and Store.Add share.
func stageSource(ctx context.Context, src Source, scratch string, st *stager, r Remote) (Fetched, error) {
	var f Fetched
	switch src.kind {
	case SourceGit:
		rep, err := cloneInto(ctx, src, r, filepath.Join(scratch, "clone"), st)
		f.Clone = &rep
		return f, err
	case SourceArchiveURL:
		rep, err := fetchArchive(ctx, src, r, scratch, st)
		f.Fetch = &rep
		return f, err
	}
	return f, stageLocal(src, st)
}

// cloneInto clones src into dir with r.Cloner and copies the checkout
// through st.
func cloneInto(ctx context.Context, src Source, r Remote, dir string, st *stager) (remote.CloneReport, error) {
	if r.Cloner == nil {
		return remote.CloneReport{}, errors.New("git sources need a remote client")
	}
	req := remote.CloneRequest{
		Extension: r.Requester,
		Intent:    rejection.IntentRef{Index: 0, Op: schema.OpClone},
		Clone:     schema.Clone{URL: src.loc, Dest: "source", Ref: r.Ref, Depth: 1},
		KeepLinks: st.follow, // resolved by copyTree under the source-link rule
	}
	if r.Ref != "" && commitRef(r.Ref) {
		req.Clone.Depth = 0 // a commit may not be reachable at depth 1
	}
	rep, err := r.Cloner.Clone(ctx, req, dir, r.Observer)
	if err != nil {
		return rep, err
	}
	return rep, st.folder(dir, repositoryScope)
}

// fetchArchive fetches src's archive with r.Fetcher into a file created
// (exclusively, 0600) in scratch and unpacks it through st.
func fetchArchive(ctx context.Context, src Source, r Remote, scratch string, st *stager) (remote.FetchReport, error) {
	if r.Fetcher == nil {
		return remote.FetchReport{}, errors.New("archive URLs need a remote client")
	}
	if r.Ref != "" {
		return remote.FetchReport{}, errors.New("a ref applies to git sources only")
	}
	name := "download.tar"
	if src.archive == SourceZip {
		name = "download.zip"
	}
	p := filepath.Join(scratch, name)
	dst, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return remote.FetchReport{}, errpath.Strip(err)
	}
	req := remote.FetchRequest{
		Extension: r.Requester,
		Intent:    rejection.IntentRef{Index: 0, Op: schema.OpFetch},
		Fetch:     schema.Fetch{URL: src.loc, Dest: name},
		MaxBytes:  archiveMax(st.b),
	}
	rep, err := r.Fetcher.Fetch(ctx, req, dst, r.Observer)
	if cerr := dst.Close(); err == nil && cerr != nil {
		err = errpath.Strip(cerr)
	}
	if err != nil {
		return rep, err
	}
	if src.archive == SourceZip {
		return rep, unpackZip(p, st)
	}
	return rep, unpackTar(p, st)
}
