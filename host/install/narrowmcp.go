package install

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"os"
	"slices"

	"github.com/lola-pm/lola/host/internal/jsonobject"
	"github.com/lola-pm/lola/host/pathrule"
	"github.com/lola-pm/lola/host/plan"
	"github.com/lola-pm/lola/schema"
)

// Uninstall removes only the MCP servers lola can prove are still as it
// wrote them. A target removes the module's servers from the assistant's
// MCP configuration by name; a server of that name may be the user's
// (it was there, with the module's value, before the install: lola never
// recorded it) or lola's and edited by the user since (its value no
// longer has the digest installed.yml's mcp_values recorded). Such a
// server is put back into the target's rewrite of the file, value as the
// user has it, and reported (Report.Kept, KeptFile.Server), as an edited
// file is kept. A deletion of the file that would take such a server
// with it becomes a rewrite without lola's unchanged servers. The guard
// (managedparts.go) then judges the narrowed plan with the same proof:
// on uninstall a server is lola's only with its recorded value.
//
// Non-guarantee: the target's rewrite of the rest of the file (other
// members re-indented, its own servers removed) is kept as it planned
// it; values are compared as canonical JSON (ServerDigest), so a server
// the user only re-indented or reordered is still lola's.

// indentRaw is ms as an indented file (two spaces, a final newline).
func indentRaw(ms []jsonobject.Member) ([]byte, bool) {
	var ind bytes.Buffer
	if err := json.Indent(&ind, jsonobject.Encode(ms), "", "  "); err != nil {
		return nil, false
	}
	ind.WriteByte('\n')
	return ind.Bytes(), true
}

// provenServer reports whether rec proves that the server name with the
// value raw in the managed JSON file path is lola's: rec claims the name
// and recorded exactly this value there.
func provenServer(rec *Record, path, name string, raw []byte) bool {
	if rec == nil || !slices.Contains(rec.MCPs, name) {
		return false
	}
	want := rec.MCPValues[path][name]
	d, ok := ServerDigest(raw)
	return want != "" && ok && d == want
}

// keptServer is the KeptFile of a server uninstall leaves in path.
func keptServer(rec *Record, path, name string) KeptFile {
	why := KeptUnowned
	if slices.Contains(rec.MCPs, name) {
		why = KeptEdited
	}
	return KeptFile{Path: path, Server: name, Reason: why}
}

// narrowServers returns p with every rewrite or deletion of a managed JSON
// file changed so that no server rec does not prove lola's leaves the file
// or changes, and the servers so kept. When nothing is kept, p itself is
// returned.
func narrowServers(r *os.Root, p *plan.Plan, managed map[string]bool, rec *Record) (*plan.Plan, []KeptFile, error) {
	intents := p.Intents()
	out := make([]schema.Intent, 0, len(intents))
	var kept []KeptFile
	for i, in := range intents {
		var at string
		switch {
		case in.Write != nil:
			at = in.Write.Path
		case in.Delete != nil:
			at = in.Delete.Path
		}
		pp, err := pathrule.Parse(at)
		if at == "" || err != nil || !managed[pp.String()] || !isJSON(pp.String()) {
			out = append(out, in)
			continue
		}
		path := pp.String()
		before, existed, err := fileBytes(r, path)
		if err != nil {
			return nil, nil, err
		}
		bt, ok := jsonobject.Decode(before)
		if !existed || !ok {
			out = append(out, in) // nothing to keep, or the guard judges it
			continue
		}
		var restored []jsonobject.Member
		var ks []KeptFile
		if in.Write != nil {
			body, err := p.Body(i)
			if err != nil {
				return nil, nil, err
			}
			after, ok := jsonobject.Decode(body)
			if !ok {
				out = append(out, in) // the guard refuses it
				continue
			}
			restored, ks = restoreServers(bt, after, path, rec)
		} else {
			// A deletion would take every server with the file: it
			// becomes a rewrite without lola's proven servers when any
			// other is there.
			restored, ks = withoutProven(bt, path, rec)
		}
		if len(ks) == 0 {
			out = append(out, in)
			continue
		}
		body, ok := indentRaw(restored)
		if !ok {
			return nil, nil, errors.New("uninstall: " + path + " cannot be rewritten")
		}
		kept = append(kept, ks...)
		// Computed from before: a compare-and-swap on it, so an edit made
		// since this read refuses the uninstall rather than being lost.
		out = append(out, schema.Intent{Write: &schema.Write{Path: path, Content: base64.StdEncoding.EncodeToString(body), Encoding: schema.EncodingBase64, IfContent: schema.IfContentSHA256(before)}})
	}
	if len(kept) == 0 {
		return p, nil, nil
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

// withoutProven is top without the servers rec proves lola's, and the
// servers left.
func withoutProven(top []jsonobject.Member, path string, rec *Record) ([]jsonobject.Member, []KeptFile) {
	out := make([]jsonobject.Member, 0, len(top))
	var kept []KeptFile
	for _, m := range top {
		inner, ok := jsonobject.Decode(m.Raw)
		if m.Name == "$schema" || !ok {
			out = append(out, m)
			continue
		}
		left := []jsonobject.Member{}
		for _, s := range inner {
			if !provenServer(rec, path, s.Name, s.Raw) {
				left = append(left, s)
				kept = append(kept, keptServer(rec, path, s.Name))
			}
		}
		out = append(out, jsonobject.Member{Name: m.Name, Raw: jsonobject.Encode(left)})
	}
	return out, kept
}

// restoreServers puts back into after every server of before (a member of
// a top-level object member) that rec does not prove lola's and that
// after lacks or changed, and lists them. Only servers are put back; the
// rest of after is as the target planned it.
func restoreServers(before, after []jsonobject.Member, path string, rec *Record) ([]jsonobject.Member, []KeptFile) {
	var kept []KeptFile
	after = slices.Clone(after)
	for _, m := range before {
		inner, ok := jsonobject.Decode(m.Raw)
		if m.Name == "$schema" || !ok {
			continue
		}
		for _, s := range inner {
			if provenServer(rec, path, s.Name, s.Raw) {
				continue
			}
			ai := slices.IndexFunc(after, func(a jsonobject.Member) bool { return a.Name == m.Name })
			if ai < 0 {
				after = append(after, jsonobject.Member{Name: m.Name, Raw: jsonobject.Encode([]jsonobject.Member{s})})
				kept = append(kept, keptServer(rec, path, s.Name))
				continue
			}
			ainner, ok := jsonobject.Decode(after[ai].Raw)
			if !ok {
				continue // the guard refuses a container turned into something else
			}
			si := slices.IndexFunc(ainner, func(a jsonobject.Member) bool { return a.Name == s.Name })
			if si >= 0 && sameJSON(ainner[si].Raw, s.Raw) {
				continue
			}
			if si >= 0 {
				ainner[si].Raw = s.Raw
			} else {
				ainner = append(ainner, s)
			}
			after[ai].Raw = jsonobject.Encode(ainner)
			kept = append(kept, keptServer(rec, path, s.Name))
		}
	}
	return after, kept
}

// sameJSON reports whether a and b are the same JSON value once
// compacted (as the guard compares them).
func sameJSON(a, b []byte) bool {
	var ca, cb bytes.Buffer
	if json.Compact(&ca, a) != nil || json.Compact(&cb, b) != nil {
		return false
	}
	return bytes.Equal(ca.Bytes(), cb.Bytes())
}
