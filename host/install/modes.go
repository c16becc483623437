package install

import (
	"encoding/base64"
	"fmt"
	"io/fs"

	"github.com/lola-pm/lola/host/plan"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// sourceWriteBits maps the sha256 of each module file's content to the
// group and other write bits (0o022) the module files of that content
// have, from the request sent to the target.
func sourceWriteBits(req schema.Request) map[string]fs.FileMode {
	out := map[string]fs.FileMode{}
	for _, m := range req.Modules {
		for _, f := range m.Files {
			mode, ok := schema.ParseMode(f.Mode)
			if !ok || mode&0o022 == 0 {
				continue
			}
			body := []byte(f.Content)
			if f.Encoding == schema.EncodingBase64 {
				b, err := base64.StdEncoding.DecodeString(f.Content)
				if err != nil {
					continue
				}
				body = b
			}
			out[hashHex(body)] |= mode & 0o022
		}
	}
	return out
}

// checkModes refuses (plan.mode) every write whose mode makes the file
// group or other writable beyond what a module file of exactly that
// content is: a target may keep a module file's mode on its copy (a 0664
// source installs as 0664, as today's Lola's copies do) but never widen
// who may change what it writes. The decoder has already refused modes
// that are not permission bits or contradict executable.
func (g *guard) checkModes(p *plan.Plan, set *rejection.Set) {
	for i := 0; i < p.Len(); i++ {
		in := p.Intent(i)
		w := in.Write
		if w == nil || w.Mode == "" {
			continue
		}
		extra := w.FileMode() & 0o022
		if extra == 0 {
			continue
		}
		body, err := p.Body(i)
		if err != nil {
			continue // undecodable content is refused by the plan's own rules
		}
		if extra &^= g.sourceWrite[hashHex(body)]; extra != 0 {
			set.Add(rejection.New(schema.RulePlanMode, fmt.Sprintf("%s asks for mode %s: group or other write (%04o) that no module file of that content has", w.Path, w.Mode, uint32(extra)), rejection.IntentRef{Index: i, Op: schema.OpWrite}))
		}
	}
}
