package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/lola-pm/lola/host/pathrule"
	"github.com/lola-pm/lola/host/plan"
	"github.com/lola-pm/lola/schema"
)

// KeptFile is a file an uninstall left in place because it is not lola's
// (any more): the user edited it since lola wrote it, or lola never
// recorded writing it.
//
// Server is set when what was kept is one MCP server in the managed JSON
// file Path rather than the file: a server lola wrote and the user edited
// since ("edited"), or one lola never proved it wrote ("not-lola's"), that
// the target's uninstall would have removed (narrowmcp.go).
type KeptFile struct {
	Path   string `json:"path"`   // root-relative, slash form
	Reason string `json:"reason"` // "edited" or "not-lola's"
	Server string `json:"server,omitempty"`
}

// Reasons a file is kept.
const (
	KeptEdited  = "edited"     // lola wrote it; its content changed since
	KeptUnowned = "not-lola's" // lola has no record of writing it
	maxNarrowed = 1 << 16
)

// narrowUninstall returns p without the deletes of files lola does not own
// now, and the files so kept. A delete of a directory holding any such
// file becomes deletes of its owned files only (the directory stays, and
// the install's created_dirs removal takes it away once empty). Deletes
// of managed files and of paths that do not exist pass through. When
// nothing is kept, p itself is returned.
//
// The narrowed plan is what the pipeline validates, audits and applies
// under the target's identity: it is a subset of the target's own plan's
// effects, never more.
func narrowUninstall(root string, p *plan.Plan, owned owned, managed map[string]bool) (*plan.Plan, []KeptFile, error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, nil, err
	}
	defer r.Close()
	intents := p.Intents()
	out := []schema.Intent{}
	var kept []KeptFile
	keep := func(path string) {
		reason := KeptUnowned
		if owned.recorded(path) {
			reason = KeptEdited
		}
		kept = append(kept, KeptFile{Path: path, Reason: reason})
	}
	for _, in := range intents {
		if in.Delete == nil {
			out = append(out, in)
			continue
		}
		pp, err := pathrule.Parse(in.Delete.Path)
		if err != nil || managed[pp.String()] {
			out = append(out, in) // the path rules judge it
			continue
		}
		rel := pp.String()
		fi, err := r.Lstat(filepath.FromSlash(rel))
		if errors.Is(err, fs.ErrNotExist) {
			out = append(out, in)
			continue
		}
		if err != nil {
			return nil, nil, err
		}
		if !fi.IsDir() {
			sum := ""
			if fi.Mode().IsRegular() {
				if sum, err = fileSum(r, rel); err != nil {
					return nil, nil, err
				}
			}
			if owned.has(rel, sum) {
				out = append(out, in)
			} else {
				keep(rel)
			}
			continue
		}
		var mine []string
		all := true
		err = fs.WalkDir(r.FS(), rel, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				return nil
			}
			sum := ""
			if d.Type().IsRegular() {
				if sum, err = fileSum(r, p); err != nil {
					return err
				}
			}
			if owned.has(p, sum) {
				mine = append(mine, p)
			} else {
				all = false
				keep(p)
			}
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
		if all {
			out = append(out, in)
			continue
		}
		for _, m := range mine {
			out = append(out, schema.Intent{Delete: &schema.Delete{Path: m}})
		}
	}
	if len(kept) == 0 {
		return p, nil, nil
	}
	if len(out) > maxNarrowed {
		return nil, nil, errors.New("uninstall: too many files to delete one by one")
	}
	b, err := json.Marshal(schema.Plan{Protocol: 1, Intents: out})
	if err != nil {
		return nil, nil, err
	}
	np, err := plan.Decode(bytes.NewReader(b), plan.DefaultLimits())
	if err != nil {
		return nil, nil, err
	}
	return np, kept, nil
}
