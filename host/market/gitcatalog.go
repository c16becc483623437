package market

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/lola-pm/lola/host/fsroot"
	"github.com/lola-pm/lola/host/module"
	"github.com/lola-pm/lola/host/pathrule"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/host/remote"
	"github.com/lola-pm/lola/schema"
	"github.com/lola-pm/lola/schema/lexical"
)

// MaxCatalogRepoBytes bounds the clone of a git-hosted catalog (bytes
// received and written together): a catalog repository holds a catalog,
// not modules, so it is held to less than a module clone.
const MaxCatalogRepoBytes = 256 << 20

// ErrNoCatalogFile is a git-hosted catalog whose repository does not say
// which file is the catalog: none found, several candidates, or the
// fragment naming a file the repository does not have.
var ErrNoCatalogFile = errors.New("no catalog file in the repository")

// noCatalogFile is an ErrNoCatalogFile with today's Lola's wording.
type noCatalogFile struct{ msg string }

func (e *noCatalogFile) Error() string        { return e.msg }
func (e *noCatalogFile) Is(target error) bool { return target == ErrNoCatalogFile }

// gitCatalog is a marketplace catalog kept in a git repository.
type gitCatalog struct {
	clone string // the URL host/remote clones: https:// or ssh://, no fragment
	file  string // the URL fragment: the catalog's path in the repository; "" to pick one
}

// upstreamSCP is today's Lola's test for git's user@host:path spelling
// (no "://"): such a URL is a git repository, never a local file.
var upstreamSCP = regexp.MustCompile(`^[^/]+@[^:]+:.+`)

// parseGitCatalogURL recognises the git spellings of a catalog URL, as
// today's Lola does: git+https://..., git+ssh://..., user@host:path, and
// an https:// URL whose path ends in .git. Each may end in #path, the
// catalog's path inside the repository, which must pass the plan path
// vocabulary (a ".." element is path.traversal). ok is false for any other
// URL (an https catalog file, a local file), which the caller handles;
// git+ with another scheme (git+http://, git+file://) is remote.scheme.
// Nothing is contacted.
func parseGitCatalogURL(raw string) (g gitCatalog, ok bool, err error) {
	rest, plus := cutPrefixFold(raw, "git+")
	switch {
	case !strings.Contains(rest, "://") && upstreamSCP.MatchString(rest):
		loc, frag, _ := strings.Cut(rest, "#")
		src, err := module.ParseSource(loc)
		if err != nil || src.Kind() != module.SourceGit {
			return gitCatalog{}, true, rejection.New(schema.RuleRemoteURL, "catalog URL "+lexical.Quote(remote.RedactURL(loc), lexical.PathEcho)+" is not a git user@host:path spelling")
		}
		g = gitCatalog{clone: src.Location()}
		return g.withFile(frag)
	case !plus:
		u, err := url.Parse(raw)
		if err != nil || !strings.EqualFold(u.Scheme, "https") || !strings.HasSuffix(strings.TrimRight(u.Path, "/"), ".git") {
			return gitCatalog{}, false, nil
		}
		return gitURL(u)
	}
	u, err := url.Parse(rest)
	if err != nil {
		return gitCatalog{}, true, rejection.New(schema.RuleRemoteURL, "catalog URL does not parse")
	}
	if s := strings.ToLower(u.Scheme); s != "https" && s != "ssh" {
		return gitCatalog{}, true, rejection.New(schema.RuleRemoteScheme, fmt.Sprintf("catalog URL scheme %s: git catalogs are cloned over git+https:// or git+ssh:// only", lexical.Quote("git+"+u.Scheme, lexical.NameEcho)))
	}
	return gitURL(u)
}

func gitURL(u *url.URL) (gitCatalog, bool, error) {
	frag := u.Fragment
	u.Fragment, u.RawFragment = "", ""
	return gitCatalog{clone: u.String()}.withFile(frag)
}

// withFile sets the fragment after checking it as a repository-relative
// path ("" keeps the pick).
func (g gitCatalog) withFile(frag string) (gitCatalog, bool, error) {
	if frag == "" {
		return g, true, nil
	}
	if _, err := pathrule.Parse(frag); err != nil {
		return gitCatalog{}, true, fmt.Errorf("catalog path %s in the URL fragment: %w", lexical.Quote(frag, lexical.PathEcho), err)
	}
	g.file = frag
	return g, true, nil
}

func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return s, false
}

// fetchGit clones g's repository with the registry's cloner (host/remote:
// the remote access policy, pinned dials, the clone's byte and time
// bounds, a checkout holding a symbolic link refused) into a private
// scratch directory beside the cache, reads the catalog file from the
// checkout (readCatalogFile) and removes the scratch directory.
func (r *Registry) fetchGit(ctx context.Context, name string, g gitCatalog) ([]byte, error) {
	if r.cloner == nil {
		return nil, errors.New("market: no remote client to clone " + remote.RedactURL(g.clone))
	}
	dir := filepath.Join(r.home, CacheDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	scratch, err := os.MkdirTemp(dir, ".clone-*")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(scratch)
	checkout := filepath.Join(scratch, "repo")
	req := remote.CloneRequest{
		Extension: "market:" + name,
		Intent:    rejection.IntentRef{Index: 0, Op: schema.OpClone},
		Clone:     schema.Clone{URL: g.clone, Dest: "catalog", Depth: 1},
	}
	if _, err := r.cloner.Clone(ctx, req, checkout, nil); err != nil {
		return nil, fmt.Errorf("failed to clone marketplace repository %s: %w", remote.RedactURL(g.clone), err)
	}
	return readCatalogFile(checkout, g.file, name)
}

// readCatalogFile reads the catalog out of the checkout: file (a
// repository-relative path already checked lexically) when given, else
// the one pickCatalog chooses among the entries at the root. The path is
// resolved beneath the checkout by descriptor (host/fsroot): no component
// may be a symbolic link (path.symlink) or on another mount
// (path.cross-device), the catalog must be a regular file (path.invalid),
// and it is read bounded by MaxCatalogBytes (remote.bound).
func readCatalogFile(checkout, file, name string) ([]byte, error) {
	root, err := fsroot.Open(checkout)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	if file == "" {
		names, err := root.Dir().ReadNames()
		if err != nil {
			return nil, err
		}
		if file, err = pickCatalog(names, name); err != nil {
			return nil, err
		}
	}
	comps := strings.Split(file, "/")
	d := root.Dir()
	for _, c := range comps[:len(comps)-1] {
		sub, err := d.OpenDir(c)
		if err != nil {
			return nil, catalogFileErr(file, err)
		}
		defer sub.Close()
		d = sub
	}
	leaf := comps[len(comps)-1]
	e, err := d.Lstat(leaf)
	if err != nil {
		return nil, catalogFileErr(file, err)
	}
	switch e.Kind {
	case fsroot.KindSymlink:
		return nil, rejection.New(schema.RulePathSymlink, "catalog "+lexical.Quote(file, lexical.PathEcho)+" is a symbolic link in the repository")
	case fsroot.KindFile:
	default:
		return nil, rejection.New(schema.RulePathInvalid, "catalog "+lexical.Quote(file, lexical.PathEcho)+" is not a regular file")
	}
	f, err := d.OpenFileBeneath(leaf)
	if err != nil {
		return nil, catalogFileErr(file, err)
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil, rejection.New(schema.RulePathInvalid, "catalog "+lexical.Quote(file, lexical.PathEcho)+" is not a regular file")
	}
	return readAllBounded(f)
}

// catalogFileErr keeps a path rule and says "not found" for a missing
// component, as today's Lola does.
func catalogFileErr(file string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return &noCatalogFile{"file " + lexical.Quote(file, lexical.PathEcho) + " not found in repository"}
	}
	var v *rejection.Violation
	if errors.As(err, &v) {
		return fmt.Errorf("catalog %s: %w", lexical.Quote(file, lexical.PathEcho), err)
	}
	return err
}

// maxListed bounds the file names an ambiguity error lists.
const maxListed = 10

// pickCatalog chooses the catalog among the names at the repository's
// root, in today's Lola's order: NAME.yml, NAME.yaml, marketplace.yml,
// marketplace.yaml, else the only .yml/.yaml file (.pre-commit-config.yaml
// aside). None or several is ErrNoCatalogFile, naming the candidates.
func pickCatalog(names []string, name string) (string, error) {
	for _, want := range []string{name + ".yml", name + ".yaml", "marketplace.yml", "marketplace.yaml"} {
		if slices.Contains(names, want) {
			return want, nil
		}
	}
	var yml []string
	for _, n := range names {
		if (strings.HasSuffix(n, ".yml") || strings.HasSuffix(n, ".yaml")) && n != ".pre-commit-config.yaml" {
			yml = append(yml, n)
		}
	}
	slices.Sort(yml)
	switch len(yml) {
	case 1:
		return yml[0], nil
	case 0:
		return "", &noCatalogFile{"no YAML files found in repository root (name the catalog with a fragment: git+URL#path/to/catalog.yml)"}
	}
	quoted := make([]string, 0, maxListed+1)
	for i, n := range yml {
		if i == maxListed {
			quoted = append(quoted, fmt.Sprintf("and %d more", len(yml)-maxListed))
			break
		}
		quoted = append(quoted, lexical.Quote(n, lexical.PathEcho))
	}
	return "", &noCatalogFile{"multiple YAML files found in repository root: " + strings.Join(quoted, ", ") + ". Specify the file with a fragment: git+URL#filename.yml"}
}
