package install

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/lola-pm/lola/host/apply"
	"github.com/lola-pm/lola/host/extension"
	"github.com/lola-pm/lola/host/plan"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// Ownership: lola changes or removes an existing file only when it wrote
// that file for this root and the file still holds what it wrote. What it
// wrote is installed.yml's per-record "files" map (root-relative path to
// the sha256 of the content written). A file is owned when some record of
// the same scope and project lists it with the hash the file has now; a
// file the user edited since is therefore no longer lola's. The target's
// managed files (CLAUDE.md, GEMINI.md, .mcp.json, ...) are shared by
// design and judged by parts instead (managedparts.go).
//
// Non-guarantees: the check reads the tree after the plan was prepared and
// before it is committed; a process changing a file in between is not
// noticed (the executor's own checks still refuse symlinks and type
// changes). Records written by today's Python Lola carry no "files" map:
// their files are judged unowned (a reinstall writing identical content is
// still fine, since it changes nothing).

// owned is what lola wrote: root-relative path -> the sha256s (hex) of the
// contents lola recorded writing there (two modules may have written one
// path).
type owned map[string]map[string]bool

// has reports whether lola wrote exactly content sum at p.
func (o owned) has(p, sum string) bool { return sum != "" && o[p][sum] }

// recorded reports whether lola wrote anything at p.
func (o owned) recorded(p string) bool { return len(o[p]) > 0 }

func (o owned) add(p, sum string) {
	if o[p] == nil {
		o[p] = map[string]bool{}
	}
	o[p][sum] = true
}

// ownedFiles collects the files of every record of this root: an install
// may replace what any install of the project wrote.
func ownedFiles(reg *Registry, scope, project string) owned {
	out := owned{}
	for _, r := range reg.All() {
		if r.Scope == scope && r.ProjectPath == project {
			out.addRecord(r)
		}
	}
	return out
}

func (o owned) addRecord(r Record) {
	for p, sum := range r.Files {
		o.add(p, sum)
	}
}

// guard is the conflict.unowned rule for one plan under one root.
type guard struct {
	root    string
	owned   owned
	managed map[string]bool
	// parts judges what a plan does to the managed files (managedparts.go).
	parts managedParts
	// home is $LOLA_HOME relative to root in slash form, "" when it does
	// not lie beneath the root: a target never writes or deletes there.
	home  string
	force bool
	// forced lists the unowned paths --force waived, for the audit log.
	forced []string
	// same lists the replaced files whose new content equals the old.
	same map[string]bool
	// before is path -> sha256 of each file beneath a path the plan
	// removes, as it was, so a delete-then-rewrite of the same content can
	// be reported as unchanged.
	before map[string]string
	// rewrites is path -> sha256 of every file the plan writes.
	rewrites map[string]string
	// prior is, for every JSON file the plan writes, what it held when
	// the plan was checked: the servers the plan adds or changes there
	// are the ones lola may claim (record.go).
	prior map[string]priorFile
	// sourceWrite is sha256 of a module file's content -> the group and
	// other write bits some module file of that content has (modes.go).
	sourceWrite map[string]fs.FileMode
}

// priorFile is a file's content before the plan: absent, read, or
// unknown (unreadable or too large: nothing is claimed in it).
type priorFile struct {
	existed, known bool
	body           []byte
}

// lolaHomeWithin returns home relative to root in slash form when home
// lies beneath root (or is root), else "".
func lolaHomeWithin(root, home string) string {
	rel, err := filepath.Rel(root, home)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return ""
	}
	return filepath.ToSlash(rel)
}

// within reports whether p is base or lies beneath it, or is an ancestor
// of it (deleting an ancestor removes base too).
func overlaps(p, base string) bool {
	if base == "" {
		return false
	}
	if base == "." {
		return true
	}
	return p == base || strings.HasPrefix(p, base+"/") || strings.HasPrefix(base, p+"/")
}

// check is the pipeline guard (pipeline.Options.Guard).
func (g *guard) check(changes []apply.Change, p *plan.Plan) error {
	r, err := os.OpenRoot(g.root)
	if err != nil {
		return err
	}
	defer r.Close()
	var set rejection.Set
	g.forced, g.same, g.before = nil, map[string]bool{}, map[string]string{}
	// What the plan writes back: a file it removes (with its directory)
	// and writes again with the same content is not changed by it.
	g.rewrites, g.prior = map[string]string{}, map[string]priorFile{}
	for _, c := range changes {
		if c.Op == schema.OpWrite {
			if body, err := p.Body(c.Intent); err == nil {
				g.rewrites[c.Path] = hashHex(body)
			}
			if isJSON(c.Path) {
				b, existed, err := fileBytes(r, c.Path)
				g.prior[c.Path] = priorFile{existed: existed, known: err == nil && (!existed || b != nil), body: b}
			}
		}
	}
	g.checkModes(p, &set)
	for _, c := range changes {
		ref := rejection.IntentRef{Index: c.Intent, Op: c.Op}
		for _, at := range []string{c.Path, c.From} {
			if at != "" && overlaps(at, g.home) {
				set.Add(rejection.New(schema.RuleConflictUnowned, at+" is lola's own state ($LOLA_HOME and its module store): no target may write there", ref))
			}
		}
		var unowned []string
		switch c.Kind {
		case apply.ChangeReplaced:
			sum, err := fileSum(r, c.Path)
			if err != nil {
				return err
			}
			if w, ok := g.rewrites[c.Path]; ok && w == sum {
				g.same[c.Path] = true
				continue // writes what is there: changes nothing
			}
			if g.managed[c.Path] {
				if err := g.checkManaged(r, c, p, &set); err != nil {
					return err
				}
				continue
			}
			if !g.owned.has(c.Path, sum) {
				unowned = append(unowned, c.Path)
			}
		case apply.ChangeAdded:
			if g.managed[c.Path] && c.Op == schema.OpWrite {
				if err := g.checkManaged(r, c, p, &set); err != nil {
					return err
				}
			}
		case apply.ChangeRemoved:
			if g.managed[c.Path] {
				if err := g.checkManaged(r, c, p, &set); err != nil {
					return err
				}
				continue
			}
			if unowned, err = g.unownedUnder(r, c.Path, g.before); err != nil {
				return err
			}
		case apply.ChangeRenamed:
			if unowned, err = g.unownedUnder(r, c.From, nil); err != nil {
				return err
			}
		}
		for _, u := range unowned {
			if g.force {
				g.forced = append(g.forced, u)
				continue
			}
			set.Add(rejection.New(schema.RuleConflictUnowned, u+" exists and lola did not write it (or it was edited since): it is kept; lola install --force takes it over", ref))
		}
	}
	sort.Strings(g.forced)
	return set.Err()
}

// checkManaged adds the conflict.unowned rejection of a change to a
// managed file that touches the user's part of it (managedparts.go).
func (g *guard) checkManaged(r *os.Root, c apply.Change, p *plan.Plan, set *rejection.Set) error {
	ref := rejection.IntentRef{Index: c.Intent, Op: c.Op}
	before, existed, err := fileBytes(r, c.Path)
	if err != nil {
		return err
	}
	var why string
	switch {
	case c.Kind == apply.ChangeRemoved && isJSON(c.Path):
		why = g.parts.jsonDelete(c.Path, before)
	case c.Kind == apply.ChangeRemoved:
		why = g.parts.textDelete(c.Path)
	case isJSON(c.Path):
		after, err := p.Body(c.Intent)
		if err != nil {
			return err
		}
		why = g.parts.jsonRewrite(c.Path, before, existed, after)
	}
	if why != "" {
		set.Add(rejection.New(schema.RuleConflictUnowned, why, ref))
	}
	return nil
}

// fileBytes reads the regular file rel under r, bounded as a managed file
// handed to a target is; existed is false when there is none.
func fileBytes(r *os.Root, rel string) (b []byte, existed bool, err error) {
	fi, err := r.Lstat(filepath.FromSlash(rel))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	if !fi.Mode().IsRegular() {
		return nil, true, nil
	}
	if fi.Size() > extension.MaxCurrentFileBytes {
		return nil, true, fmt.Errorf("managed file %s is larger than %d bytes", rel, extension.MaxCurrentFileBytes)
	}
	f, err := r.Open(filepath.FromSlash(rel))
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	b, err = io.ReadAll(io.LimitReader(f, extension.MaxCurrentFileBytes+1))
	if err == nil && len(b) > extension.MaxCurrentFileBytes {
		err = fmt.Errorf("managed file %s is larger than %d bytes", rel, extension.MaxCurrentFileBytes)
	}
	return b, true, err
}

// unownedUnder lists the files at or beneath rel that are not owned: the
// file itself, or every non-directory in the subtree. A symlink inside is
// never lola's.
func (g *guard) unownedUnder(r *os.Root, rel string, sums map[string]string) ([]string, error) {
	var out []string
	err := fs.WalkDir(r.FS(), rel, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if d.IsDir() {
			return nil
		}
		if !d.Type().IsRegular() {
			out = append(out, p)
			return nil
		}
		sum, err := fileSum(r, p)
		if err != nil {
			return err
		}
		if sums != nil {
			sums[p] = sum
		}
		if !g.owned.has(p, sum) && g.rewrites[p] != sum {
			out = append(out, p)
		}
		return nil
	})
	return out, err
}

// netUnchanged marks as unchanged (apply.ChangeNoop) what the plan did not
// really change: a write of the content the file had, and the removal of a
// subtree every file of which the plan wrote back identically (a target
// that clears a skill directory before writing it again).
func (g *guard) netUnchanged(changes []apply.Change, p *plan.Plan) {
	rewritten := map[string]bool{}
	for i, c := range changes {
		switch {
		case c.Kind == apply.ChangeReplaced && g.same[c.Path]:
			changes[i].Kind = apply.ChangeNoop
		case c.Kind == apply.ChangeAdded && c.Op == schema.OpWrite:
			if sum, ok := g.before[c.Path]; ok {
				if body, err := p.Body(c.Intent); err == nil && hashHex(body) == sum {
					changes[i].Kind = apply.ChangeNoop
					rewritten[c.Path] = true
				}
			}
		}
	}
	for i, c := range changes {
		if c.Kind != apply.ChangeRemoved {
			continue
		}
		all, any := true, false
		for f := range g.before {
			if f == c.Path || strings.HasPrefix(f, c.Path+"/") {
				any = true
				all = all && rewritten[f]
			}
		}
		if any && all {
			changes[i].Kind = apply.ChangeNoop
		}
	}
}

// fileSum is the sha256 (hex) of the regular file rel under r; "" when it
// does not exist or is not a regular file.
func fileSum(r *os.Root, rel string) (string, error) {
	fi, err := r.Lstat(filepath.FromSlash(rel))
	if errors.Is(err, fs.ErrNotExist) || err == nil && !fi.Mode().IsRegular() {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	f, err := r.Open(filepath.FromSlash(rel))
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func hashHex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// writtenFiles is path -> sha256 of every file the committed plan made
// lola's, managed files excepted: ownership is proven, never inferred.
// A file the plan added (nothing was there) or replaced (its content
// differed: lola's already, or taken over with --force, audited) is
// lola's. A write that left a file as it was (apply.ChangeNoop) proves
// nothing, since the bytes may be the user's own that happen to equal
// what the target renders: it is recorded only when lola already owned
// exactly that content (prior), so a reinstall keeps what it had and a
// user's identical file stays the user's, and uninstall never deletes it.
// legacy is a reinstall over today's Lola's record of this install (no
// "files"): its files are what the target writes, so a write equal to the
// file there is taken as lola's, as the uninstall of such a record judges
// (legacyOwnership); with a record of lola's own, only prior proves.
func writtenFiles(changes []apply.Change, p *plan.Plan, managed map[string]bool, prior owned, legacy bool) map[string]string {
	out := map[string]string{}
	for _, c := range changes {
		if c.Op != schema.OpWrite || managed[c.Path] {
			continue
		}
		body, err := p.Body(c.Intent)
		if err != nil {
			continue
		}
		sum := hashHex(body)
		switch c.Kind {
		case apply.ChangeAdded, apply.ChangeReplaced:
			out[c.Path] = sum
		case apply.ChangeNoop:
			if legacy || prior.has(c.Path, sum) {
				out[c.Path] = sum
			}
		}
	}
	return out
}
