package install

import (
	"sort"

	"github.com/lola-pm/lola/host/apply"
	"github.com/lola-pm/lola/host/extension"
	"github.com/lola-pm/lola/schema"
)

// What installed.yml says about a root's managed files: which server
// names lola put in each managed JSON file (the records' mcps lists) and
// which managed files lola created (managed_created). The created list is
// a property of the root, not of one install, so it lives on one record
// of the root and is handed on to another when that record is removed;
// when the last record of a root goes it goes too (the files lola created
// are then gone, or hold the user's text and are the user's).
//
// Non-guarantee: a created file the user deletes and writes again between
// two runs of lola is still taken as lola's; it is deleted only when
// nothing but lola's part is in it, so the user's content is never lost
// with it.

func sameRoot(r Record, scope, project string) bool {
	return r.Scope == scope && r.ProjectPath == project
}

// partsFor is what installed.yml says of the managed files of an install
// for assistant self under a root: the server names every record of the
// root put into each managed JSON file (a record counts for a file when
// its assistant's target manages that file too), the module's own server
// names, and the managed files lola created.
func partsFor(reg *Registry, cat *extension.Catalog, self string, managed map[string]bool, scope, project string, brought []string) managedParts {
	mp := managedParts{owned: map[string]map[string]bool{}, brought: map[string]bool{}, created: createdIn(reg, scope, project)}
	for _, b := range brought {
		mp.brought[b] = true
	}
	manages := map[string]map[string]bool{self: managed}
	for _, r := range reg.All() {
		if !sameRoot(r, scope, project) {
			continue
		}
		files, ok := manages[r.Assistant]
		if !ok {
			files = map[string]bool{}
			if ext, err := cat.Lookup(r.Assistant); err == nil {
				for _, p := range ext.Manifest().Managed() {
					files[p.String()] = true
				}
			}
			manages[r.Assistant] = files
		}
		for p := range managed {
			if files[p] {
				mp.addOwned(p, r.MCPs)
			}
		}
	}
	return mp
}

// ownedBy is the uninstall's view: only the record being removed owns
// names, in every managed file.
func ownedBy(rec Record, managed map[string]bool, created map[string]bool) managedParts {
	mp := managedParts{owned: map[string]map[string]bool{}, created: created}
	for p := range managed {
		mp.addOwned(p, rec.MCPs)
	}
	return mp
}

func (m *managedParts) addOwned(path string, names []string) {
	if m.owned[path] == nil {
		m.owned[path] = map[string]bool{}
	}
	for _, n := range names {
		m.owned[path][n] = true
	}
}

// createdIn is the managed files lola created under a root.
func createdIn(reg *Registry, scope, project string) map[string]bool {
	out := map[string]bool{}
	for _, r := range reg.All() {
		if sameRoot(r, scope, project) {
			for _, p := range r.ManagedCreated {
				out[p] = true
			}
		}
	}
	return out
}

// setCurrent hands the target the managed files as they are now and
// names those of them lola created (schema.Request.Created).
func (j *job) setCurrent(current []schema.File) {
	j.req.Current = current
	j.req.Created = nil
	j.present = map[string]bool{}
	for _, f := range current {
		j.present[f.Path] = true
		if j.guard.parts.created[f.Path] {
			j.req.Created = append(j.req.Created, f.Path)
		}
	}
	sort.Strings(j.req.Created)
}

// settleManaged notes, from the committed plan's changes, which managed
// files the plan created and which are gone (deleted by it, or absent
// already).
func (j *job) settleManaged(changes []apply.Change) {
	j.managedAdded, j.managedGone = nil, nil
	added := map[string]bool{}
	for _, c := range changes {
		if !j.managed[c.Path] {
			continue
		}
		switch {
		case c.Kind == apply.ChangeAdded && c.Op == schema.OpWrite:
			added[c.Path] = true
			j.managedAdded = append(j.managedAdded, c.Path)
		case c.Kind == apply.ChangeRemoved:
			j.managedGone = append(j.managedGone, c.Path)
		}
	}
	for p := range j.managed {
		if !j.present[p] && !added[p] {
			j.managedGone = append(j.managedGone, p)
		}
	}
}

// settleCreated rewrites the root's managed_created list: what it held,
// less what is gone, plus what was added, kept on the root's first record.
// It runs inside UpdateRegistry, before the operation's record is put or
// removed (gone lists what that record's install had created, too).
func settleCreated(reg *Registry, scope, project string, gone, added []string, change func()) {
	carry := createdIn(reg, scope, project)
	for _, p := range gone {
		delete(carry, p)
	}
	for _, p := range added {
		carry[p] = true
	}
	change()
	var list []string
	for p := range carry {
		list = append(list, p)
	}
	sort.Strings(list)
	holder := false
	for i := range reg.doc.Installations {
		r := &reg.doc.Installations[i]
		if !sameRoot(*r, scope, project) {
			continue
		}
		r.ManagedCreated = nil
		if !holder {
			r.ManagedCreated, holder = list, true
		}
	}
}
