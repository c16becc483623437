package reinstall

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/lola-pm/lola/host/apply"
	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/install"
	"github.com/lola-pm/lola/host/pipeline"
	"github.com/lola-pm/lola/host/plan"
	"github.com/lola-pm/lola/schema"
)

// Stale is what a reinstall found the new module version no longer has.
type Stale struct {
	Removed []string // files deleted (they held what lola wrote)
	Kept    []string // files left because they changed since lola wrote them
	Servers []string // MCP servers removed from the assistant's configuration
	// KeptServers are the MCP servers the module no longer brings that
	// were left in place: changed since lola wrote them, or written before
	// lola recorded server values (mcpstale.go).
	KeptServers []StaleServer
}

// staleFiles lists the files of old's record that belong to an item
// (skill, command, agent) the new record no longer lists: a path with a
// component equal to the item's name or ending in "-<name>" (a
// module-prefixed file), the last component compared without its
// extension (and without a second one: "x.prompt.md", "x.agent.md"). It
// mirrors how host/install attributes written files to items, and
// considers only files lola recorded writing.
func staleFiles(old, cur install.Record) []string {
	gone := map[string]bool{}
	for _, pair := range [][2][]string{{old.Skills, cur.Skills}, {old.Commands, cur.Commands}, {old.Agents, cur.Agents}} {
		now := map[string]bool{}
		for _, n := range pair[1] {
			now[n] = true
		}
		for _, n := range pair[0] {
			if !now[n] {
				gone[n] = true
			}
		}
	}
	if len(gone) == 0 {
		return nil
	}
	var out []string
	for p := range old.Files {
		comps := strings.Split(p, "/")
		last := len(comps) - 1
		comps[last] = strings.TrimSuffix(comps[last], path.Ext(comps[last]))
		// A kind before the extension ("x.prompt.md") names x too.
		comps = append(comps, strings.TrimSuffix(comps[last], path.Ext(comps[last])))
	match:
		for _, c := range comps {
			for n := range gone {
				if c == n || strings.HasSuffix(c, "-"+n) {
					out = append(out, p)
					break match
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// notRewritten lists the files old's record says lola wrote that the
// reinstall's plan (changes, as the pipeline reported them) did not write
// again: what the install no longer provides, whether the module dropped
// an item or the target extension, updated, writes elsewhere. A target
// plans every file of an install each time, so a recorded file it does
// not write is not its any more.
func notRewritten(old install.Record, changes []apply.Change) []string {
	written := map[string]bool{}
	for _, c := range changes {
		if c.Op == schema.OpWrite {
			written[c.Path] = true
		}
	}
	var out []string
	for p := range old.Files {
		if !written[p] {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// staleOf is every stale file of a reinstall: staleFiles' and
// notRewritten's, once each, sorted.
func staleOf(old, cur install.Record, changes []apply.Change) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range append(staleFiles(old, cur), notRewritten(old, changes)...) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// removeStale deletes, as one plan through the pipeline (validated whole,
// applied atomically, audited under log's correlation as a plan lola
// itself proposes), the stale files (staleOf) that still hold exactly
// what lola wrote; a file changed since is kept and reported. The record loses the
// deleted files; directories the install created are removed once empty.
func removeStale(ctx context.Context, root string, home string, old, cur install.Record, stale []string, log *audit.Log) (Stale, error) {
	var st Stale
	type intent struct {
		Op   string `json:"op"`
		Path string `json:"path"`
	}
	var intents []intent
	for _, p := range stale {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		sum := sha256.Sum256(b)
		if err != nil || hex.EncodeToString(sum[:]) != old.Files[p] {
			st.Kept = append(st.Kept, p)
			continue
		}
		intents = append(intents, intent{Op: "delete", Path: p})
	}
	if len(intents) == 0 {
		return st, nil
	}
	if err := applyOwnPlan(ctx, root, home, intents, log, "removing what the new version no longer has"); err != nil {
		return st, err
	}
	for _, in := range intents {
		st.Removed = append(st.Removed, in.Path)
	}
	// Directories the install created, deepest first, once empty; beneath
	// the project only (a parent swapped for a link is not followed).
	gone := map[string]bool{}
	for _, d := range install.RemoveEmptyDirs(root, old.CreatedDirs) {
		gone[d] = true
	}
	err := install.UpdateRegistry(home, func(reg *install.Registry) error {
		for _, r := range reg.Find(cur.Module, cur.Assistant, cur.Scope, cur.ProjectPath) {
			for _, p := range st.Removed {
				delete(r.Files, p)
			}
			var kept []string
			for _, d := range r.CreatedDirs {
				if !gone[d] {
					kept = append(kept, d)
				}
			}
			r.CreatedDirs = kept
			reg.Put(r)
		}
		return nil
	})
	return st, err
}

// applyOwnPlan takes intents (a slice of JSON-encodable intents) through
// the pipeline as one plan lola itself proposes ("lola-update"):
// validated whole, applied atomically, audited under log's correlation.
// Anything but a commit is an error naming what the plan was for.
func applyOwnPlan(ctx context.Context, root, home string, intents any, log *audit.Log, what string) error {
	body, err := json.Marshal(map[string]any{"protocol": 1, "intents": intents})
	if err != nil {
		return err
	}
	p, err := plan.Decode(bytes.NewReader(body), plan.DefaultLimits())
	if err != nil {
		return err
	}
	id, err := audit.NewExtension("lola-update", "")
	if err != nil {
		return err
	}
	res, err := pipeline.Apply(ctx, root, p, pipeline.Proposer{Extension: id, Tier: audit.TierPlanFile}, pipeline.Options{Log: log, Home: home})
	if err != nil {
		return err
	}
	if res.Outcome != pipeline.OutcomeCommitted {
		if res.Err != nil {
			// The rule stays visible to errors.Is (conflict.changed: a
			// file changed since lola read it).
			return fmt.Errorf("%s: the plan was %s: %w", what, res.Outcome.String(), res.Err)
		}
		return errors.New(what + ": the plan was " + res.Outcome.String())
	}
	return nil
}
