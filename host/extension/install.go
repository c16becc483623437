package extension

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/lola-pm/lola/host/module"
	"github.com/lola-pm/lola/host/sigverify"
)

// Errors of Add, Update, Link and Remove; test with errors.Is.
var (
	ErrExists      = errors.New("an extension of that name is already installed (lola ext update, or lola ext rm first)")
	ErrNotPinned   = errors.New("no extension of that name was added or linked (lola ext ls)")
	ErrUnsigned    = errors.New("not signed by a trusted key or identity")
	ErrNotAccepted = errors.New("the update asks for more than the installed version; refused (the installed version is unchanged)")
	ErrName        = errors.New("--name differs from the manifest's name")
	// ErrBuiltinName: the manifest names a built-in extension, which an
	// added or linked one can neither replace nor shadow.
	ErrBuiltinName = errors.New("is the name of a built-in extension, which cannot be replaced or shadowed; give the extension another name in its manifest")
	// ErrSourceHeldBack: the lock records a URL with its query values or
	// userinfo redacted (they may be a token), so it is not the URL that
	// was fetched; Update needs the source again (AddOptions.From).
	ErrSourceHeldBack = errors.New("the recorded source had its query values or credentials redacted in the lock, so it cannot be fetched again as recorded; name it again (lola ext update NAME --from URL)")
)

// BundleSuffix is appended to an artifact's path to name its Sigstore
// bundle: dist/x -> dist/x.sigstore.json.
const BundleSuffix = ".sigstore.json"

// MaxBundleBytes bounds a Sigstore bundle; a larger one is unverifiable
// (it is the verifier's own bound).
const MaxBundleBytes = sigverify.MaxBundleBytes

// Verifier checks a Sigstore bundle against the trust policy for the
// artifact whose sha256 is digest, and names the trusted key or identity
// that signed it. host/sigverify provides one; a nil Verifier trusts
// nothing (every bundle is unverifiable).
type Verifier interface {
	Verify(digest [32]byte, bundle []byte) (signer string, err error)
}

// TrustPolicy is what signature checks need: the verifier, and whether a
// tier-1 module must be signed too (config.yaml can say so; by default a
// tier-1 module, which runs confined, is verified when signed and runs
// unsigned otherwise).
type TrustPolicy struct {
	Verifier     Verifier
	RequireTier1 bool
}

// AddOptions configures Add and Update.
type AddOptions struct {
	// Name, when set, must equal the manifest's name: the directory under
	// $LOLA_HOME/extensions is always named as the manifest.
	Name string
	// AllowUnsigned opts in to an unsigned or unverifiable artifact for
	// exactly the bytes being pinned; the verdict records it.
	AllowUnsigned bool
	Trust         TrustPolicy
	// Bounds bounds the intake (files, bytes, path length); zero:
	// module.DefaultBounds.
	Bounds module.Bounds
	// Accept is asked, by Update only, when the new version asks for more
	// than the installed one; nil refuses every widening.
	Accept func(Widening) bool
	// Now stamps the entry; zero: time.Now.
	Now time.Time
	// Fetcher and Cloner are host/remote's client (*remote.Client is
	// both), needed for an https archive URL and a git URL respectively;
	// nil refuses such a source. They apply config.yaml's remote policy.
	Fetcher module.Fetcher
	Cloner  module.Cloner
	// Context bounds a remote fetch or clone beyond host/remote's own
	// deadlines; nil: context.Background.
	Context context.Context
	// From, for Update only, is the source to stage the new version from
	// instead of the one the lock records; the lock then records it. A
	// recorded URL whose query values or userinfo were redacted cannot be
	// fetched as recorded, so Update needs From for it (ErrSourceHeldBack).
	From string
}

// Added reports a completed Add or Update.
type Added struct {
	Name     string
	Entry    *LockEntry
	Widening Widening // Update only: what was accepted
	// IgnoredNative (Link only) is why the native (tier-2) artifact was
	// not linked (it wraps ErrUnsigned): the tier-1 module was, and runs;
	// nil when there was nothing to ignore.
	IgnoredNative error
}

// Add installs the extension at source (a built extension directory, a
// .zip/.tar/.tar.gz/.tgz of one, an https URL of such an archive, or a git
// URL of a repository holding the manifest and its built artifacts) into
// home/extensions/<name>/ and pins it in the lock file. Guarantees:
//   - the source is classified by module.ParseSource and staged beside the
//     extensions directory by host/module's intake (module.Stage), under
//     the same path rules and bounds as `mod add`: traversal, absolute
//     paths, links, devices and bombs are refused before anything is
//     placed; a remote source is fetched or cloned by o.Fetcher/o.Cloner
//     (host/remote, under the remote access policy) into that staging
//     directory first, never by this package;
//   - only what the manifest names is taken (the manifest, each declared
//     artifact, the <artifact>.sigstore.json beside it): from a folder or
//     a git checkout nothing else is read, so a project's build tree
//     (target/, node_modules/) is no obstacle, while an archive holding
//     any other entry is refused whole (module.unlisted) — an archive is
//     a release, as `lola ext pack` makes one;
//   - the staged tree must load as an extension (strict manifest, every
//     artifact resolved inside it), and every present artifact is hashed
//     from the staged bytes; a tier-2 artifact must carry a bundle
//     (<artifact>.sigstore.json) that o.Trust verifies for exactly those
//     bytes, or be opted in by o.AllowUnsigned (ErrUnsigned otherwise);
//     a present bundle that does not verify is refused even for tier 1;
//   - a name that is a built-in's is refused (ErrBuiltinName);
//   - only then is the tree renamed into place (never over an existing
//     extension: ErrExists) and the lock rewritten atomically. On any
//     error $LOLA_HOME is as it was.
func Add(home, source string, o AddOptions) (*Added, error) {
	unlock, err := holdLockMutex(home)
	if err != nil {
		return nil, err
	}
	defer unlock()
	lock, err := ReadLock(home)
	if err != nil {
		return nil, err
	}
	st, err := stage(home, source, o)
	if err != nil {
		return nil, err
	}
	defer st.cleanup()
	name := st.ext.Name()
	if err := notBuiltin(name); err != nil {
		return nil, err
	}
	if _, ok := lock.Extensions[name]; ok {
		return nil, fmt.Errorf("%s: %w", name, ErrExists)
	}
	target := filepath.Join(home, ExtensionsDir, name)
	if _, err := os.Lstat(target); err == nil {
		return nil, fmt.Errorf("%s: %w", name, ErrExists)
	}
	if err := os.Rename(st.root, target); err != nil {
		return nil, fmt.Errorf("cannot place the extension under $LOLA_HOME/%s", ExtensionsDir)
	}
	lock.Extensions[name] = st.entry
	if err := WriteLock(home, lock); err != nil {
		os.RemoveAll(target) // not pinned: not installed
		return nil, err
	}
	return &Added{Name: name, Entry: st.entry}, nil
}

// staged is one source staged and checked, not yet placed.
type staged struct {
	dir, root string
	ext       *Extension
	entry     *LockEntry
}

func (s *staged) cleanup() { os.RemoveAll(s.dir) }

// stage unpacks and checks source under home/extensions/.staging-*.
func stage(home, source string, o AddOptions) (*staged, error) {
	src, err := module.ParseSource(source)
	if err != nil {
		return nil, err
	}
	recorded := recordedSource(src)
	exts := filepath.Join(home, ExtensionsDir)
	if err := os.MkdirAll(exts, 0o700); err != nil {
		return nil, fmt.Errorf("cannot create $LOLA_HOME/%s", ExtensionsDir)
	}
	if src.Kind() == module.SourceFolder && within(recorded, exts) {
		return nil, errors.New("the source lies inside $LOLA_HOME/extensions")
	}
	dir, err := os.MkdirTemp(exts, ".staging-")
	if err != nil {
		return nil, fmt.Errorf("cannot stage under $LOLA_HOME/%s", ExtensionsDir)
	}
	s := &staged{dir: dir}
	ok := false
	defer func() {
		if !ok {
			s.cleanup()
		}
	}()
	ctx := o.Context
	if ctx == nil {
		ctx = context.Background()
	}
	r := module.Remote{Requester: "lola ext add", Fetcher: o.Fetcher, Cloner: o.Cloner}
	if s.root, _, err = module.Stage(ctx, src, dir, o.Bounds, ManifestFile, r, manifestPick); err != nil {
		return nil, err
	}
	if s.ext, err = loadDir(s.root, SourceHome); err != nil {
		return nil, err
	}
	if o.Name != "" && o.Name != s.ext.Name() {
		return nil, fmt.Errorf("%w (%s, manifest %s)", ErrName, quote(o.Name), quote(s.ext.Name()))
	}
	if s.entry, err = pin(s.ext, recorded, o); err != nil {
		return nil, err
	}
	ok = true
	return s, nil
}

// pin hashes e's manifest and present artifacts and checks each
// artifact's signature under o's policy.
func pin(e *Extension, source string, o AddOptions) (*LockEntry, error) {
	now := o.Now
	if now.IsZero() {
		now = time.Now()
	}
	msum, err := hashFile(filepath.Join(e.dir, ManifestFile))
	if err != nil {
		return nil, fmt.Errorf("%s: cannot be read", ManifestFile)
	}
	ent := &LockEntry{Source: source, Version: e.Version(), Manifest: msum,
		Artifacts: map[Tier]*LockArtifact{}, Added: now.UTC().Truncate(time.Second)}
	for _, a := range e.artifacts {
		if !a.present {
			continue
		}
		la, err := checkArtifact(e, a, o.Trust, o.AllowUnsigned)
		if err != nil {
			return nil, err
		}
		ent.Artifacts[a.tier] = la
	}
	return ent, nil
}

// checkArtifact hashes one artifact and gives it a verdict.
func checkArtifact(e *Extension, a Artifact, tp TrustPolicy, allowUnsigned bool) (*LockArtifact, error) {
	sum, err := hashFile(a.hostPath)
	if err != nil {
		return nil, fmt.Errorf("artifacts.%s %s: cannot be read", a.tier, quote(a.path.String()))
	}
	la := &LockArtifact{Path: a.path.String(), SHA256: sum}
	signer, verr := verifyBundle(e.dir, a, sum, tp.Verifier)
	required := a.tier == Tier2 || tp.RequireTier1
	switch {
	case verr == nil:
		la.Verdict, la.Signer = VerdictVerified, signer
	case allowUnsigned:
		la.Verdict = VerdictOptedIn
	case errors.Is(verr, errNoBundle) && !required:
		la.Verdict = VerdictUnsigned
	case !required:
		// A tier-1 module may run unsigned, but a bundle beside it claims
		// a signature, and a claim that does not verify is refused.
		return nil, fmt.Errorf("artifacts.%s %s (%s): %w: its bundle does not verify: %v (sign it again with lola ext sign and trust the key, remove the bundle to add it unsigned, or opt in for these exact bytes with --allow-unsigned)",
			a.tier, quote(a.path.String()), a.tier.Describe(), ErrUnsigned, verr)
	default:
		return nil, fmt.Errorf("artifacts.%s %s (%s): %w: %v (sign it with lola ext sign or cosign sign-blob, trust the key in config.yaml, or opt in for these exact bytes with --allow-unsigned)",
			a.tier, quote(a.path.String()), a.tier.Describe(), ErrUnsigned, verr)
	}
	return la, nil
}

var errNoBundle = errors.New("no " + BundleSuffix + " bundle beside it")

// verifyBundle reads <artifact>.sigstore.json beneath dir (through os.Root,
// bounded) and verifies it for the hex digest sum.
func verifyBundle(dir string, a Artifact, sum string, v Verifier) (string, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return "", errors.New("cannot open the extension directory")
	}
	defer root.Close()
	rel := filepath.FromSlash(a.path.String() + BundleSuffix)
	fi, err := root.Lstat(rel)
	if errors.Is(err, fs.ErrNotExist) {
		return "", errNoBundle
	}
	if err != nil || !fi.Mode().IsRegular() {
		return "", errors.New("the bundle is not a regular file inside the extension directory")
	}
	if fi.Size() > MaxBundleBytes {
		return "", fmt.Errorf("the bundle is larger than %d bytes", MaxBundleBytes)
	}
	b, err := root.ReadFile(rel)
	if err != nil {
		return "", errors.New("the bundle cannot be read")
	}
	if v == nil {
		return "", errors.New("no trust policy (config.yaml trust: names no key or identity)")
	}
	var d [32]byte
	if _, err := hex.Decode(d[:], []byte(sum)); err != nil {
		return "", err
	}
	return v.Verify(d, b)
}

// within reports whether p is dir or lies beneath it (after resolving
// symlinks where both exist).
func within(p, dir string) bool {
	rp, err1 := filepath.EvalSymlinks(p)
	rd, err2 := filepath.EvalSymlinks(dir)
	if err1 != nil || err2 != nil {
		rp, rd = filepath.Clean(p), filepath.Clean(dir)
	}
	rel, err := filepath.Rel(rd, rp)
	return err == nil && (rel == "." || !strings.HasPrefix(rel, ".."))
}

// Remove deletes the installed (or linked) extension name and its lock
// entry. A linked directory itself is never touched. The lock is rewritten
// first: an unpinned directory left by a crash is refused at run, never
// run unpinned.
func Remove(home, name string) error {
	unlock, err := holdLockMutex(home)
	if err != nil {
		return err
	}
	defer unlock()
	lock, err := ReadLock(home)
	if err != nil {
		return err
	}
	ent, ok := lock.Extensions[name]
	if !ok || !ValidName(name) {
		return fmt.Errorf("%s: %w", quote(name), ErrNotPinned)
	}
	delete(lock.Extensions, name)
	if err := WriteLock(home, lock); err != nil {
		return err
	}
	if ent.Dev {
		return nil
	}
	dir := filepath.Join(home, ExtensionsDir, name)
	trash := filepath.Join(home, ExtensionsDir, ".removed-"+name+fmt.Sprint(time.Now().UnixNano()))
	if err := os.Rename(dir, trash); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("cannot remove $LOLA_HOME/%s/%s", ExtensionsDir, name)
	}
	os.RemoveAll(trash)
	return nil
}

// Adopt pins an extension directory already under home/extensions/<name>
// (one copied there by hand, before ext add existed) as it is now, with
// the same signature checks as Add; an existing pin of that name is
// replaced. It is for migrations and tests; it trusts the bytes present.
func Adopt(home, name string, o AddOptions) (*Added, error) {
	unlock, err := holdLockMutex(home)
	if err != nil {
		return nil, err
	}
	defer unlock()
	lock, err := ReadLock(home)
	if err != nil {
		return nil, err
	}
	if !ValidName(name) {
		return nil, fmt.Errorf("%s is not an extension name", quote(name))
	}
	dir := filepath.Join(home, ExtensionsDir, name)
	e, err := loadDir(dir, SourceHome)
	if err != nil {
		return nil, err
	}
	if e.Name() != name {
		return nil, fmt.Errorf("%w (%s, manifest %s)", ErrName, quote(name), quote(e.Name()))
	}
	ent, err := pin(e, dir, o)
	if err != nil {
		return nil, err
	}
	lock.Extensions[name] = ent
	if err := WriteLock(home, lock); err != nil {
		return nil, err
	}
	return &Added{Name: name, Entry: ent}, nil
}
