package lola

import (
	"encoding/base64"
	"encoding/json"
	"unicode/utf8"

	"github.com/lola-pm/lola/schema"
	"github.com/lola-pm/lola/schema/lexical"
)

// Plan accumulates the intents an extension returns. Each method checks its
// intent lexically before adding it and returns a *BuildError when the host
// would refuse it; a refused intent is not added, and the first refusal is
// remembered (Err) so that the run fails even if the handler ignored it.
// The zero Plan is empty and ready to use. A Plan is not safe for concurrent
// use.
type Plan struct {
	intents []schema.Intent
	err     error
}

// WriteOption adjusts a write intent.
type WriteOption func(*schema.Write)

// Executable marks a written file executable.
func Executable(w *schema.Write) { w.Executable = true }

// IfContent makes the write a compare-and-swap on the content it was
// computed from: the host applies the plan only if the file still holds
// exactly before (exists true), or still does not exist (exists false);
// otherwise it refuses the whole plan, conflict.changed, nothing applied.
// Use it for a rewrite of a file the user also edits, computed from the
// request's Current (the managed-file helpers of package assistant do).
func IfContent(before []byte, exists bool) WriteOption {
	v := schema.IfContentAbsent
	if exists {
		v = schema.IfContentSHA256(before)
	}
	return func(w *schema.Write) { w.IfContent = v }
}

// Mode gives a written file the permission bits m ("0664"), as a copy
// that keeps its module file's mode does (File.Mode; WriteFile's copy
// helpers in sdk-go/assistant do it). m must be 3 or 4 octal digits, at
// most 0777, with an execute bit exactly when Executable is given too;
// anything else is refused (plan.mode), as the host refuses it. The host
// also refuses group or other write that no module file of the same
// content has.
func Mode(m string) WriteOption { return func(w *schema.Write) { w.Mode = m } }

// Write adds a write of UTF-8 text at path. Content that is not valid UTF-8
// is refused (plan.invalid-utf8): use WriteBytes for binary content.
func (p *Plan) Write(path, content string, opts ...WriteOption) error {
	if !utf8.ValidString(content) {
		return p.refuse(schema.OpWrite, "content", schema.RulePlanInvalidUTF8, "content is not valid UTF-8; use WriteBytes")
	}
	return p.write(&schema.Write{Path: path, Content: content}, opts)
}

// WriteBytes adds a write of arbitrary bytes at path, carried as base64.
func (p *Plan) WriteBytes(path string, data []byte, opts ...WriteOption) error {
	return p.write(&schema.Write{Path: path, Content: base64.StdEncoding.EncodeToString(data), Encoding: schema.EncodingBase64}, opts)
}

// WriteFile adds a write at path of a request file's content, in the file's
// own encoding: base64 content stays base64 (after checking it decodes),
// utf8 content is emitted with the encoding omitted.
func (p *Plan) WriteFile(path string, f File, opts ...WriteOption) error {
	switch f.Encoding {
	case "", schema.EncodingUTF8:
		return p.Write(path, f.Content, opts...)
	case schema.EncodingBase64:
		if _, ok := decodeBase64(f.Content); !ok {
			return p.refuse(schema.OpWrite, "content", schema.RulePlanEncoding, "content is not strict standard base64")
		}
		return p.write(&schema.Write{Path: path, Content: f.Content, Encoding: schema.EncodingBase64}, opts)
	}
	return p.refuse(schema.OpWrite, "encoding", schema.RulePlanEncoding, "unknown encoding "+quote(string(f.Encoding)))
}

func (p *Plan) write(w *schema.Write, opts []WriteOption) error {
	for _, o := range opts {
		o(w)
	}
	if w.Mode != "" {
		m, ok := schema.ParseMode(w.Mode)
		if !ok {
			return p.refuse(schema.OpWrite, "mode", schema.RulePlanMode, "mode "+quote(w.Mode)+" is not permission bits: 3 or 4 octal digits, at most 0777")
		}
		if (m&0o111 != 0) != w.Executable {
			return p.refuse(schema.OpWrite, "mode", schema.RulePlanMode, "mode "+w.Mode+" contradicts executable")
		}
	}
	if err := p.checkPath(schema.OpWrite, "path", w.Path); err != nil {
		return err
	}
	p.intents = append(p.intents, schema.Intent{Write: w})
	return nil
}

// Delete adds the removal of the file or subtree at path. The host treats a
// missing path as a no-op.
func (p *Plan) Delete(path string) error {
	if err := p.checkPath(schema.OpDelete, "path", path); err != nil {
		return err
	}
	p.intents = append(p.intents, schema.Intent{Delete: &schema.Delete{Path: path}})
	return nil
}

// Rename adds a move of from to to.
func (p *Plan) Rename(from, to string) error {
	if err := p.checkPath(schema.OpRename, "from", from); err != nil {
		return err
	}
	if err := p.checkPath(schema.OpRename, "to", to); err != nil {
		return err
	}
	p.intents = append(p.intents, schema.Intent{Rename: &schema.Rename{From: from, To: to}})
	return nil
}

// FetchOption adjusts a fetch intent.
type FetchOption func(*fetchSpec)

// fetchSpec is a fetch being built: headers in the order added (so a name
// added twice is seen), and whether a method was given at all.
type fetchSpec struct {
	method    string
	methodSet bool
	headers   [][2]string
}

// Header adds a request header to a fetch. Names are case-insensitive and
// may appear once. The host drops Authorization, Cookie and
// Proxy-Authorization (credentials are the host's to attach) and refuses
// headers that change framing or routing (Host, Content-Length,
// Transfer-Encoding, Connection, Upgrade, TE, Trailer, Keep-Alive,
// Proxy-Connection, Expect).
func Header(name, value string) FetchOption {
	return func(f *fetchSpec) { f.headers = append(f.headers, [2]string{name, value}) }
}

// Method sets a fetch's method. Only "GET" is valid (remote.method
// otherwise, "get" and "" included); it exists so that code porting a
// request is refused here rather than at the host. GET is omitted from the
// plan, where it is the default.
func Method(m string) FetchOption { return func(f *fetchSpec) { f.method, f.methodSet = m, true } }

// Fetch asks the host to GET url over https and write the body at dest. The
// extension never sees the response; the host needs the net.http capability
// granted.
func (p *Plan) Fetch(url, dest string, opts ...FetchOption) error {
	var spec fetchSpec
	for _, o := range opts {
		o(&spec)
	}
	if spec.methodSet && spec.method != "GET" {
		return p.refuse(schema.OpFetch, "method", schema.RuleRemoteMethod, "method "+quote(spec.method)+" is not GET; fetch carries GET and nothing else")
	}
	if rule, detail := lexical.URL(url, "https"); rule != schema.RuleUnknown {
		return p.refuse(schema.OpFetch, "url", rule, detail)
	}
	if rule, detail := checkHeaders(spec.headers); rule != schema.RuleUnknown {
		return p.refuse(schema.OpFetch, "headers", rule, detail)
	}
	if err := p.checkPath(schema.OpFetch, "dest", dest); err != nil {
		return err
	}
	f := &schema.Fetch{URL: url, Dest: dest}
	for _, h := range spec.headers {
		if f.Headers == nil {
			f.Headers = make(map[string]string, len(spec.headers))
		}
		f.Headers[h[0]] = h[1]
	}
	p.intents = append(p.intents, schema.Intent{Fetch: f})
	return nil
}

// Clone asks the host to clone url (https or ssh://, without userinfo) into
// dest, at ref when it is not empty, with the given history depth when it
// is positive (0 is the full history; at most 2147483647). The host needs
// the net.git capability granted.
func (p *Plan) Clone(url, dest, ref string, depth int) error {
	if rule, detail := lexical.URL(url, "https", "ssh"); rule != schema.RuleUnknown {
		return p.refuse(schema.OpClone, "url", rule, detail)
	}
	if !utf8.ValidString(ref) {
		return p.refuse(schema.OpClone, "ref", schema.RulePlanInvalidUTF8, "ref is not valid UTF-8")
	}
	if depth < 0 || int64(depth) > maxDepth {
		return p.refuse(schema.OpClone, "depth", schema.RulePlanMalformed, "depth outside 0..2147483647")
	}
	if err := p.checkPath(schema.OpClone, "dest", dest); err != nil {
		return err
	}
	p.intents = append(p.intents, schema.Intent{Clone: &schema.Clone{URL: url, Dest: dest, Ref: ref, Depth: depth}})
	return nil
}

const maxDepth = 1<<31 - 1

// strictBase64 is standard base64 with padding and zero trailing bits.
var strictBase64 = base64.StdEncoding.Strict()

// Len is the number of intents added so far.
func (p *Plan) Len() int { return len(p.intents) }

// Intents returns a copy of the intents added so far, in emission order,
// sharing nothing with p (schema.Intent.DeepCopy).
func (p *Plan) Intents() []schema.Intent {
	out := make([]schema.Intent, len(p.intents))
	for i, in := range p.intents {
		out[i] = in.DeepCopy()
	}
	return out
}

// Err returns the first refusal of any builder call on p, or nil.
func (p *Plan) Err() error { return p.err }

// MarshalJSON renders the plan canonically: {"protocol":1,"intents":[...]}
// with each intent "op" first and map keys sorted. An empty plan is
// {"protocol":1,"intents":[]}.
func (p *Plan) MarshalJSON() ([]byte, error) {
	intents := p.intents
	if intents == nil {
		intents = []schema.Intent{}
	}
	return json.Marshal(schema.Plan{Protocol: schema.Protocol, Intents: intents})
}

func (p *Plan) checkPath(op schema.Op, field, path string) error {
	if rule, detail := checkPath(path); rule != schema.RuleUnknown {
		return p.refuse(op, field, rule, detail)
	}
	return nil
}

func (p *Plan) refuse(op schema.Op, field string, rule schema.Rule, detail string) error {
	err := &BuildError{Rule: rule, Op: op, Index: len(p.intents), Field: field, Detail: detail}
	if p.err == nil {
		p.err = err
	}
	return err
}
