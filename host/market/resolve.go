package market

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/lola-pm/lola/host/modsource"
	"github.com/lola-pm/lola/host/module"
	"github.com/lola-pm/lola/host/remote"
)

// Spec is what `lola install` was asked for: NAME, NAME@REF,
// @MARKET/NAME or @MARKET/NAME@REF.
type Spec struct {
	Market string // "" when no marketplace was named
	Module string
	Ref    string // "" when no ref was named
}

// ParseSpec splits an install argument. It does not check the names.
func ParseSpec(s string) Spec {
	var sp Spec
	if rest, ok := strings.CutPrefix(s, "@"); ok {
		if m, mod, ok := strings.Cut(rest, "/"); ok {
			sp.Market, s = m, mod
		}
	}
	if i := strings.LastIndex(s, "@"); i > 0 {
		s, sp.Ref = s[:i], s[i+1:]
	}
	sp.Module = s
	return sp
}

// ErrAmbiguous: the module is in no store but in several marketplaces.
var ErrAmbiguous = errors.New("is offered by several marketplaces: name one (lola install @MARKET/MODULE)")

// ErrNotGit: a ref was asked for a module whose repository is not git.
var ErrNotGit = errors.New("the repository is not a git source")

// ErrOtherSource: the store already holds a module of that name that did
// not come from the marketplace entry's repository.
var ErrOtherSource = errors.New("the store already holds a module of that name from another source (lola mod rm it, or install it by its store name)")

// Resolved is what Resolve did.
type Resolved struct {
	Module  string        // the store name to install
	Fetched *module.Added // set when the module was (re)fetched
	From    string        // "@MARKET" when fetched from a marketplace
	// Entry is the catalog entry the module was fetched from (its version
	// and hooks), nil otherwise.
	Entry *Entry
	// Ref is the git ref the module was fetched at: @REF, else the
	// entry's ref; "" the default branch or not fetched.
	Ref string
}

// Resolve makes the module sp names present in store, as today's Lola
// does: @MARKET/NAME is fetched from that marketplace's entry (its
// repository, path and ref, the ref overridden by @REF); NAME@REF fetches
// a git module of the store again at REF; a NAME in no store but in
// exactly one enabled marketplace is fetched from it. Fetching goes
// through Store.Add (staged, checked, atomic) with cloner, so the remote
// policy applies to the clone. A module of the same name from another
// source is never replaced (ErrOtherSource).
func (r *Registry) Resolve(ctx context.Context, store *module.Store, home string, sp Spec, cloner module.Cloner) (Resolved, error) {
	name, err := module.ParseName(sp.Module)
	if err != nil {
		return Resolved{}, err
	}
	if sp.Ref != "" && strings.HasPrefix(sp.Ref, "-") {
		return Resolved{}, fmt.Errorf("ref %q: a ref cannot start with '-'", sp.Ref)
	}
	if sp.Market != "" {
		h, err := r.Lookup(sp.Market, name.String())
		if err != nil {
			return Resolved{}, err
		}
		return r.fetchModule(ctx, store, home, h, sp.Ref, cloner)
	}
	if _, err := store.Get(name); err == nil {
		res := Resolved{Module: name.String(), Ref: sp.Ref}
		if sp.Ref != "" {
			if res.Fetched, err = modsource.Update(ctx, store, home, name, modsource.UpdateOptions{Ref: sp.Ref, Cloner: cloner}); err != nil {
				return Resolved{}, err
			}
		}
		return res, nil
	} else if !errors.Is(err, module.ErrNotFound) {
		return Resolved{}, err
	}
	hits, err := r.Search(name.String())
	if err != nil {
		return Resolved{}, err
	}
	var exact []Hit
	for _, h := range hits {
		if h.Entry.Name == name.String() {
			exact = append(exact, h)
		}
	}
	switch len(exact) {
	case 0:
		return Resolved{Module: name.String()}, nil // the install says it is not found
	case 1:
		return r.fetchModule(ctx, store, home, exact[0], sp.Ref, cloner)
	}
	var ms []string
	for _, h := range exact {
		ms = append(ms, "@"+h.Market)
	}
	return Resolved{}, fmt.Errorf("%s %w: %s", name, ErrAmbiguous, strings.Join(ms, ", "))
}

func (r *Registry) fetchModule(ctx context.Context, store *module.Store, home string, h Hit, ref string, cloner module.Cloner) (Resolved, error) {
	name, err := module.ParseName(h.Entry.Name)
	if err != nil {
		return Resolved{}, err
	}
	if err := CheckRepository(h.Entry.Repository, r.policy); err != nil {
		return Resolved{}, err
	}
	content, err := CleanContentPath(h.Entry.Path)
	if err != nil {
		return Resolved{}, err
	}
	src, err := module.ParseSource(h.Entry.Repository)
	if err != nil {
		return Resolved{}, err
	}
	if ref == "" {
		ref = h.Entry.Ref
	}
	ao := module.AddOptions{Name: name, Content: content, Cloner: cloner}
	switch src.Kind() {
	case module.SourceGit:
		ao.Ref = ref
	case module.SourceArchiveURL:
		// Today's Lola fetches an archive URL too; it has no ref to pin.
		if ref != "" {
			return Resolved{}, fmt.Errorf("%s: %w: cannot pin ref %q on %s", name, ErrNotGit, ref, remote.RedactURL(h.Entry.Repository))
		}
		f, ok := cloner.(module.Fetcher)
		if !ok {
			return Resolved{}, fmt.Errorf("%s: no client to fetch an archive with", name)
		}
		ao.Fetcher = f
	default:
		return Resolved{}, fmt.Errorf("%s: repository is not a git or archive URL", name)
	}
	if _, err := store.Get(name); err == nil {
		if err := sameSource(home, name, src); err != nil {
			return Resolved{}, err
		}
		ao.Force = true
	}
	added, err := store.Add(ctx, src, ao)
	if err != nil {
		return Resolved{}, err
	}
	if err := modsource.Write(home, name, modsource.Of(src, ref, content, added)); err != nil {
		return Resolved{}, fmt.Errorf("%s was fetched, but its source was not recorded: %w", name, err)
	}
	e := h.Entry
	return Resolved{Module: name.String(), Fetched: added, From: "@" + h.Market, Entry: &e, Ref: ref}, nil
}

// CheckStoreSource refuses (ErrOtherSource) a store module name whose
// recorded source is not the repository of the catalog entry h: the
// entry's hooks and version are that repository's, never another
// module's of the same name. A module with no source record (added from a
// local directory, say) is another source too. It is the check an
// install of @MARKET/NAME makes before fetching; lola sync makes it for a
// line naming @MARKET when the store already holds NAME.
func CheckStoreSource(home string, name module.Name, h Hit) error {
	src, err := module.ParseSource(h.Entry.Repository)
	if err != nil {
		return fmt.Errorf("%s: %w", name, ErrOtherSource)
	}
	return sameSource(home, name, src)
}

func sameSource(home string, name module.Name, src module.Source) error {
	rec, err := modsource.Read(home, name)
	if err != nil || rec.Source != src.Location() {
		return fmt.Errorf("%s: %w", name, ErrOtherSource)
	}
	return nil
}
