package remote

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/go-git/go-billy/v5/osfs"
	git "github.com/go-git/go-git/v5"
	gitconfig "github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/memory"

	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
	"github.com/lola-pm/lola/schema/lexical"
)

// CloneRequest is one clone intent as the executor hands it over.
type CloneRequest struct {
	Extension string              // the extension's identity
	Intent    rejection.IntentRef // named in every violation
	Clone     schema.Clone
	// KeepLinks lets the checkout create the repository's symbolic links
	// as they are, beneath the clone directory (go-git's checkout, through
	// go-billy's BoundOS, which resolves no name through a link out of
	// it). It is for a caller that reads the checkout with its own link
	// rule before anything leaves the clone directory: module intake
	// (host/module's source-link rule). Unset, as the executor's clone
	// intents leave it, a checkout that would create a link is refused
	// (path.symlink), since no plan path may be one.
	KeepLinks bool
}

// CloneReport describes a completed clone. It carries no credential.
type CloneReport struct {
	Hops   []Hop
	Bytes  int64  // bytes received plus bytes written, the quantity bounded
	Ref    string // the full reference checked out ("" for a commit hash)
	Commit string // the commit checked out, hex
}

var commitHash = regexp.MustCompile(`^[0-9a-f]{40}$`)

// abbreviatedHash is a commit named by 7 to 39 hex digits (git's short
// form, which today's Lola accepts as a ref), tried when no branch or tag
// has that name.
var abbreviatedHash = regexp.MustCompile(`^[0-9a-f]{7,39}$`)

// Clone clones the repository the intent names into dir, the executor's
// staging directory (absent or empty), with go-git over this package's
// pinned, policy-checked transports: https (every request resolved, checked,
// pinned, TLS-verified; credentials per request from the store) or ssh (host
// key verified against Options.KnownHosts before any credential is offered).
// ref (a branch, a tag, a full reference name, or a 40-hex commit) and depth
// are honoured; no submodule is fetched. Bytes received and bytes written
// (the checkout and .git together) are bounded by Limits.CloneBytes, the
// whole operation by Limits.CloneTimeout. The checkout is refused
// (path.symlink) if it would create a symbolic link, on the same rule as
// every plan path, unless req.KeepLinks. On error dir is left as it was
// found (absent or empty).
func (c *Client) Clone(ctx context.Context, req CloneRequest, dir string, obs HopObserver) (CloneReport, error) {
	ref := req.Intent
	u, err := parseRemoteURL(req.Clone.URL, []string{"https", "ssh"}, ref)
	if err != nil {
		return CloneReport{}, err
	}
	if req.Clone.Depth < 0 {
		return CloneReport{}, rejection.New(schema.RuleRemoteURL, "depth must not be negative", ref)
	}
	created, err := emptyDir(dir)
	if err != nil {
		return CloneReport{}, fmt.Errorf("clone: intent #%d: %w", ref.Index, err)
	}
	ctx, cancel := context.WithTimeout(ctx, c.o.Limits.CloneTimeout())
	defer cancel()
	s := &cloneSession{
		client: c,
		ref:    ref,
		origin: u,
		obs:    obs,
		budget: newBudget(c.o.Limits.CloneBytes(), ref),
		links:  req.KeepLinks,
	}
	ctx = withSession(ctx, s)
	rep, err := s.clone(ctx, req.Clone, dir)
	rep.Hops = s.hopsCopy()
	rep.Bytes = s.budget.used()
	if err != nil {
		clearDir(dir, created)
		return rep, s.cloneError(ctx, err)
	}
	return rep, nil
}

// clearDir leaves dir as Clone found it: empty, or absent if Clone created
// it. It was empty when the clone began, so everything in it is the clone's.
func clearDir(dir string, created bool) {
	if created {
		os.RemoveAll(dir)
		return
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		os.RemoveAll(filepath.Join(dir, e.Name()))
	}
}

func (s *cloneSession) clone(ctx context.Context, in schema.Clone, dir string) (CloneReport, error) {
	remoteURL := s.origin.String()
	auth, err := s.authFor(s.origin)
	if err != nil {
		return CloneReport{}, err
	}
	installTransports()

	refName, hash, err := s.resolveRef(ctx, remoteURL, in.Ref, auth)
	if err != nil {
		return CloneReport{}, err
	}
	abbreviated := refName == "" && hash.IsZero() && in.Ref != ""
	root, stillPinned, err := stagingRoot(dir)
	if err != nil {
		return CloneReport{}, fmt.Errorf("clone: intent #%d: %w", s.ref.Index, err)
	}
	wt := &countingFS{Filesystem: osfs.New(root, osfs.WithBoundOS()), s: s}
	dot := &countingFS{Filesystem: osfs.New(filepath.Join(root, git.GitDirName), osfs.WithBoundOS()), s: s}
	st := filesystem.NewStorage(dot, cache.NewObjectLRUDefault())
	opts := &git.CloneOptions{
		URL:               remoteURL,
		Auth:              auth,
		Depth:             in.Depth,
		Tags:              git.NoTags,
		RecurseSubmodules: git.NoRecurseSubmodules,
		NoCheckout:        !hash.IsZero() || abbreviated,
	}
	if refName != "" {
		opts.ReferenceName = refName
		opts.SingleBranch = true
	}
	repo, err := git.CloneContext(ctx, st, wt, opts)
	if err != nil {
		return CloneReport{}, err
	}
	if abbreviated {
		h, err := repo.ResolveRevision(plumbing.Revision(in.Ref))
		if err != nil || h.IsZero() {
			return CloneReport{}, fmt.Errorf("clone: intent #%d: the remote has no branch, tag or commit %s", s.ref.Index, lexical.Quote(in.Ref, lexical.PathEcho))
		}
		hash = *h
	}
	if !hash.IsZero() {
		w, err := repo.Worktree()
		if err != nil {
			return CloneReport{}, err
		}
		if err := w.Checkout(&git.CheckoutOptions{Hash: hash}); err != nil {
			return CloneReport{}, err
		}
	}
	head, err := repo.Head()
	if err != nil {
		return CloneReport{}, err
	}
	if err := stillPinned(); err != nil {
		return CloneReport{}, fmt.Errorf("clone: intent #%d: %w", s.ref.Index, err)
	}
	return CloneReport{Ref: string(refName), Commit: head.Hash().String()}, nil
}

// resolveRef turns the intent's ref into a full reference name, asking the
// remote (through the same session) which of refs/heads/<ref> and
// refs/tags/<ref> exists. A 40-hex ref is a commit: the default branch is
// cloned without checkout and the commit checked out afterwards; so is an
// abbreviated one (7 to 39 hex digits no branch or tag is named after),
// resolved in the clone (all three returned empty).
func (s *cloneSession) resolveRef(ctx context.Context, remoteURL, ref string, auth gitAuth) (plumbing.ReferenceName, plumbing.Hash, error) {
	switch {
	case ref == "":
		return "", plumbing.ZeroHash, nil
	case commitHash.MatchString(ref):
		return "", plumbing.NewHash(ref), nil
	}
	r := git.NewRemote(memory.NewStorage(), &gitconfig.RemoteConfig{Name: "origin", URLs: []string{remoteURL}})
	refs, err := r.ListContext(ctx, &git.ListOptions{Auth: auth})
	if err != nil {
		return "", plumbing.ZeroHash, err
	}
	candidates := []plumbing.ReferenceName{plumbing.ReferenceName(ref), plumbing.NewBranchReferenceName(ref), plumbing.NewTagReferenceName(ref)}
	if !strings.HasPrefix(ref, "refs/") {
		candidates = candidates[1:]
	}
	for _, want := range candidates {
		for _, have := range refs {
			if have.Name() == want {
				return want, plumbing.ZeroHash, nil
			}
		}
	}
	if abbreviatedHash.MatchString(ref) {
		// Not a name the remote has: an abbreviated commit, resolved in
		// the clone (every branch, no checkout) by clone.
		return "", plumbing.ZeroHash, nil
	}
	return "", plumbing.ZeroHash, fmt.Errorf("clone: intent #%d: the remote has no branch or tag %s", s.ref.Index, lexical.Quote(ref, lexical.PathEcho))
}

// cloneError maps what go-git returns onto the vocabulary. A violation the
// session recorded (a refused hop, the byte bound, a host key) wins over
// whatever go-git made of it, since go-git may wrap it beyond errors.As.
func (s *cloneSession) cloneError(ctx context.Context, err error) error {
	if v := s.violation(); v != nil {
		return v
	}
	var v *rejection.Violation
	if errors.As(err, &v) {
		return withRef(v, s.ref)
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded) {
		return rejection.New(schema.RuleRemoteBound, "the clone exceeded its time bound", s.ref)
	}
	if isTransportAuthError(err) {
		return rejection.New(schema.RuleRemoteTransportAuth, "TLS verification failed: "+tlsReason(err), s.ref)
	}
	if strings.HasPrefix(err.Error(), "clone: intent") {
		return err
	}
	return fmt.Errorf("clone: intent #%d: %s", s.ref.Index, gitReason(err))
}

// gitReason names a go-git failure without echoing its text, which can
// carry URLs and server-supplied strings.
func gitReason(err error) string {
	switch {
	case errors.Is(err, git.ErrRepositoryAlreadyExists):
		return "the destination already holds a repository"
	case errors.Is(err, plumbing.ErrReferenceNotFound):
		return "reference not found"
	case strings.Contains(err.Error(), "authentication required"), strings.Contains(err.Error(), "authorization failed"):
		return "the remote refused the credentials (or none were configured)"
	case strings.Contains(err.Error(), "repository not found"):
		return "repository not found"
	}
	return "the clone failed"
}

// stagingRoot returns the path the clone writes under, and a check that
// the path still names the directory dir named when the clone began. dir
// may be a descriptor-derived name (/proc/self/fd/N, from
// host/fsroot.Dir.ProcPath), which the kernel pins to the directory the
// executor validated; go-billy cannot use one as a base (BoundOS and its
// chroot helper both evaluate the magic link and then refuse names beneath
// it as outside), so the link is read once into the directory's current
// path, and the check, run after the clone, refuses the result if that path
// no longer leads to the pinned directory (an ancestor was swapped while the
// clone ran). Beneath the root, BoundOS resolves every name without letting
// a symlink lead out, go-git refuses tree paths with "." or ".." components
// or .git disguises, and countingFS refuses every symlink (or, for a
// session that keeps links, charges each to the budget).
func stagingRoot(dir string) (string, func() error, error) {
	if !strings.HasPrefix(dir, "/proc/self/fd/") {
		return dir, func() error { return nil }, nil
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", nil, errors.New("the staging directory cannot be resolved")
	}
	check := func() error {
		a, err1 := os.Stat(dir)
		b, err2 := os.Stat(real)
		if err1 != nil || err2 != nil || !os.SameFile(a, b) {
			return errors.New("the staging directory was moved while the clone ran")
		}
		return nil
	}
	return real, check, check()
}

// emptyDir accepts an absent directory (creating it, and reporting so) or
// an empty one.
func emptyDir(dir string) (created bool, err error) {
	if !filepath.IsAbs(dir) {
		return false, errors.New("the clone directory must be an absolute staging path")
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		if err := os.Mkdir(dir, 0o755); err != nil {
			return false, errors.New("cannot create the clone directory")
		}
		return true, nil
	}
	if err != nil {
		return false, errors.New("the clone directory is not a readable directory")
	}
	if len(entries) != 0 {
		return false, errors.New("the clone directory is not empty")
	}
	return false, nil
}
