package plan

import (
	"strconv"

	"github.com/lola-pm/lola/schema"
	"github.com/lola-pm/lola/schema/lexical"
)

// member identifies one member an intent object may carry; the set of them
// is the union over the five ops, and each op allows a subset.
type member uint16

const (
	mOp member = 1 << iota
	mPath
	mContent
	mEncoding
	mExecutable
	mFrom
	mTo
	mURL
	mDest
	mMethod
	mHeaders
	mRef
	mDepth
	mIfContent
	mMode
)

// memberNames is the wire spelling of each member, in bit order.
var memberNames = [...]string{"op", "path", "content", "encoding", "executable", "from", "to", "url", "dest", "method", "headers", "ref", "depth", "if_content", "mode"}

func memberOf(name []byte) member {
	switch string(name) {
	case "op":
		return mOp
	case "path":
		return mPath
	case "content":
		return mContent
	case "encoding":
		return mEncoding
	case "executable":
		return mExecutable
	case "from":
		return mFrom
	case "to":
		return mTo
	case "url":
		return mURL
	case "dest":
		return mDest
	case "method":
		return mMethod
	case "headers":
		return mHeaders
	case "ref":
		return mRef
	case "depth":
		return mDepth
	case "if_content":
		return mIfContent
	case "mode":
		return mMode
	}
	return 0
}

// opShape is what one op allows and requires.
type opShape struct {
	allowed, required member
}

var shapes = map[schema.Op]opShape{
	schema.OpWrite:  {allowed: mOp | mPath | mContent | mEncoding | mExecutable | mIfContent | mMode, required: mOp | mPath | mContent},
	schema.OpDelete: {allowed: mOp | mPath, required: mOp | mPath},
	schema.OpRename: {allowed: mOp | mFrom | mTo, required: mOp | mFrom | mTo},
	schema.OpFetch:  {allowed: mOp | mURL | mDest | mMethod | mHeaders, required: mOp | mURL | mDest},
	schema.OpClone:  {allowed: mOp | mURL | mDest | mRef | mDepth, required: mOp | mURL | mDest},
}

// rawIntent collects an intent's members before its op is known: "op" may
// come last on the wire.
type rawIntent struct {
	seen       member
	path       string
	content    string
	encoding   schema.Encoding
	executable bool
	from, to   string
	url, dest  string
	method     string
	headers    []header
	ref        string
	depth      int
	ifContent  string
	mode       string
}

const headerValueCtx = `member "headers" value`

// header is one request header as it appeared on the wire.
type header struct{ name, value string }

// memberCtxs names each member in a violation's detail, built once so that
// decoding allocates nothing for a context it does not report.
var memberCtxs = func() (out [len(memberNames)]string) {
	for i, n := range memberNames {
		out[i] = `member "` + n + `"`
	}
	return out
}()

func memberCtx(m member) string {
	for i := range memberNames {
		if m == 1<<i {
			return memberCtxs[i]
		}
	}
	return "member"
}

// intent reads one intent object whose '{' is consumed. A member is refused
// the moment it is read when it belongs to no op, is named twice, or does
// not belong to the op already read; members read before "op" are checked
// against it when it arrives. A refusal of a member the protocol defines
// is noted and its value still read by its type, so decoding goes on and
// reports every violation; an unknown member's value has no known type,
// so it ends the decode. ok is false when the intent was refused.
func (d *decoder) intent() (in schema.Intent, ok bool, err error) {
	const ctx = "intent"
	var raw rawIntent
	before := len(d.found.Violations)
	for first := true; ; first = false {
		key, more, err := d.nextKey(first, maxMemberName, ctx)
		if err == errOverLimit {
			return schema.Intent{}, false, d.unknownMember(ctx, nil, err)
		}
		if err != nil {
			return schema.Intent{}, false, err
		}
		if !more {
			break
		}
		m := memberOf(key)
		if m == 0 {
			return schema.Intent{}, false, d.unknownMember(ctx, key, nil)
		}
		if raw.seen&m != 0 {
			err = d.note(d.violation(schema.RulePlanDuplicateKey, ctx, memberCtx(m)+" named twice"))
		} else if d.op != "" && d.shape.allowed&m == 0 {
			err = d.note(d.violation(schema.RulePlanUnknownField, ctx, memberCtx(m)+" is not a member of "+string(d.op)))
		}
		if err != nil {
			return schema.Intent{}, false, err
		}
		raw.seen |= m
		if err := d.member(&raw, m); err != nil {
			return schema.Intent{}, false, err
		}
	}
	if d.badOp {
		return schema.Intent{}, false, nil
	}
	if raw.seen&mOp == 0 {
		return schema.Intent{}, false, d.note(d.violation(schema.RulePlanMissingField, ctx, `member "op" is required`))
	}
	if missing := d.shape.required &^ raw.seen; missing != 0 {
		return schema.Intent{}, false, d.note(d.violation(schema.RulePlanMissingField, ctx, memberCtx(lowest(missing))+" is required for "+string(d.op)))
	}
	if len(d.found.Violations) > before {
		return schema.Intent{}, false, nil
	}
	in, err = d.build(&raw)
	if err != nil {
		return schema.Intent{}, false, d.note(err)
	}
	return in, true, nil
}

// lowest is the first member of a set, in wire-spelling order.
func lowest(s member) member { return s & -s }

// member reads the value of member m into raw.
func (d *decoder) member(raw *rawIntent, m member) error {
	ctx := memberCtx(m)
	var err error
	switch m {
	case mOp:
		var op string
		if op, err = d.stringValue(ctx); err != nil {
			return err
		}
		shape, ok := shapes[schema.Op(op)]
		if !ok {
			// Read the rest by member type; the intent is refused.
			d.badOp, d.shape = true, opShape{allowed: ^member(0)}
			return d.note(d.violation(schema.RulePlanUnknownOp, ctx, "unknown op "+lexical.Quote(op, lexical.NameEcho)))
		}
		if d.badOp {
			return nil // a repeated op after an unknown one: refused already
		}
		d.op, d.shape = schema.Op(op), shape
		if extra := raw.seen &^ shape.allowed; extra != 0 {
			return d.note(d.violation(schema.RulePlanUnknownField, "intent", memberCtx(lowest(extra))+" is not a member of "+op))
		}
	case mPath:
		raw.path, err = d.stringValue(ctx)
	case mContent:
		raw.content, err = d.stringValue(ctx)
	case mEncoding:
		var e string
		if e, err = d.stringValue(ctx); err != nil {
			return err
		}
		switch schema.Encoding(e) {
		case schema.EncodingUTF8, schema.EncodingBase64:
			raw.encoding = schema.Encoding(e)
		default:
			return d.note(d.violation(schema.RulePlanEncoding, ctx, "unknown encoding "+lexical.Quote(e, lexical.NameEcho)+" (utf8 or base64)"))
		}
	case mExecutable:
		raw.executable, err = d.readBool(ctx)
	case mFrom:
		raw.from, err = d.stringValue(ctx)
	case mTo:
		raw.to, err = d.stringValue(ctx)
	case mURL:
		raw.url, err = d.stringValue(ctx)
	case mDest:
		raw.dest, err = d.stringValue(ctx)
	case mMethod:
		raw.method, err = d.stringValue(ctx)
	case mHeaders:
		raw.headers, err = d.headers()
	case mRef:
		raw.ref, err = d.stringValue(ctx)
	case mDepth:
		raw.depth, err = d.depth(ctx)
	case mIfContent:
		if raw.ifContent, err = d.stringValue(ctx); err != nil {
			return err
		}
		if !schema.ValidIfContent(raw.ifContent) {
			return d.note(d.violation(schema.RulePlanMalformed, ctx, "if_content "+lexical.Quote(raw.ifContent, lexical.NameEcho)+` is neither "absent" nor "sha256:" and 64 lowercase hex digits`))
		}
	case mMode:
		raw.mode, err = d.stringValue(ctx)
	}
	return err
}

// depth reads a clone depth: an integer from 0 (the whole history) to
// MaxCloneDepth.
func (d *decoder) depth(ctx string) (int, error) {
	c, err := d.skipSpace(ctx)
	if err != nil {
		return 0, err
	}
	if c != '-' && (c < '0' || c > '9') {
		return 0, d.malformed(ctx, "expected an integer")
	}
	v, err := d.readInt(ctx)
	if err != nil {
		return 0, err
	}
	if v < 0 || v > MaxCloneDepth {
		return 0, d.note(d.violation(schema.RulePlanMalformed, ctx, "depth "+strconv.FormatInt(v, 10)+" is outside 0.."+strconv.Itoa(MaxCloneDepth)))
	}
	return int(v), nil
}

// MaxFetchHeaders is the most headers one fetch may carry. Without it a
// plan of many tiny headers would cost the host far more memory (in maps)
// than the plan's bytes; more is remote.header, refused at the extra
// header's name.
const MaxFetchHeaders = lexical.MaxHeaders

// headers reads the fetch headers object: names to string values, each
// capped at the field bound, an exact repeat of a name being
// plan.duplicate-key like any other object's.
func (d *decoder) headers() ([]header, error) {
	const ctx = `member "headers"`
	if err := d.expect('{', ctx, "an object"); err != nil {
		return nil, err
	}
	var out []header
	var names map[string]struct{} // a set, so a plan of many headers stays linear
	for first := true; ; first = false {
		key, ok, err := d.nextKey(first, d.lim.maxField, ctx)
		if err == errOverLimit {
			return nil, d.violation(schema.RulePlanFieldTooLarge, ctx, "header name longer than "+strconv.FormatInt(d.lim.maxField, 10)+" bytes")
		}
		if err != nil {
			return nil, err
		}
		if !ok {
			return out, nil
		}
		if len(out) == MaxFetchHeaders {
			return nil, d.violation(schema.RuleRemoteHeader, ctx, "more than "+strconv.Itoa(MaxFetchHeaders)+" headers")
		}
		if _, dup := names[string(key)]; dup {
			return nil, d.violation(schema.RulePlanDuplicateKey, ctx, "header "+lexical.Quote(string(key), lexical.NameEcho)+" named twice")
		}
		name := string(key)
		if names == nil {
			names = make(map[string]struct{})
		}
		names[name] = struct{}{}
		value, err := d.stringValue(headerValueCtx)
		if err != nil {
			return nil, err
		}
		out = append(out, header{name: name, value: value})
	}
}

// build turns a complete raw intent into a schema.Intent, applying the
// checks that need the whole intent: content in its encoding, and the
// lexical remote rules.
func (d *decoder) build(raw *rawIntent) (schema.Intent, error) {
	switch d.op {
	case schema.OpWrite:
		if raw.encoding == schema.EncodingBase64 {
			if err := d.checkBase64(raw.content); err != nil {
				return schema.Intent{}, err
			}
		}
		if raw.seen&mMode != 0 {
			if err := d.checkMode(raw.mode, raw.executable); err != nil {
				return schema.Intent{}, err
			}
		}
		return schema.Intent{Write: &schema.Write{Path: raw.path, Content: raw.content, Encoding: raw.encoding, Executable: raw.executable, IfContent: raw.ifContent, Mode: raw.mode}}, nil
	case schema.OpDelete:
		return schema.Intent{Delete: &schema.Delete{Path: raw.path}}, nil
	case schema.OpRename:
		return schema.Intent{Rename: &schema.Rename{From: raw.from, To: raw.to}}, nil
	case schema.OpFetch:
		if err := d.checkURL(raw.url, "https"); err != nil {
			return schema.Intent{}, err
		}
		if raw.seen&mMethod != 0 && raw.method != "GET" {
			return schema.Intent{}, d.violation(schema.RuleRemoteMethod, memberCtx(mMethod), "method "+lexical.Quote(raw.method, lexical.NameEcho)+" refused: fetch is GET only (case-sensitive)")
		}
		h, err := d.checkHeaders(raw.headers)
		if err != nil {
			return schema.Intent{}, err
		}
		return schema.Intent{Fetch: &schema.Fetch{URL: raw.url, Dest: raw.dest, Method: raw.method, Headers: h}}, nil
	case schema.OpClone:
		if err := d.checkURL(raw.url, "https", "ssh"); err != nil {
			return schema.Intent{}, err
		}
		return schema.Intent{Clone: &schema.Clone{URL: raw.url, Dest: raw.dest, Ref: raw.ref, Depth: raw.depth}}, nil
	}
	return schema.Intent{}, d.violation(schema.RulePlanUnknownOp, "intent", "unknown op")
}

// checkMode refuses a write's mode that is not permission bits (3 or 4
// octal digits, at most 0777: setuid, setgid and sticky cannot be asked
// for) or that contradicts its executable member (executable is set
// exactly when the mode has an execute bit), as plan.mode. Whether the
// mode adds group or other write is the install's to check, against the
// module's files (it needs the request).
func (d *decoder) checkMode(mode string, executable bool) error {
	ctx := memberCtx(mMode)
	m, ok := schema.ParseMode(mode)
	if !ok {
		return d.violation(schema.RulePlanMode, ctx, "mode "+lexical.Quote(mode, lexical.NameEcho)+" is not permission bits: 3 or 4 octal digits, at most 0777 (no setuid, setgid or sticky bit)")
	}
	if (m&0o111 != 0) != executable {
		return d.violation(schema.RulePlanMode, ctx, "mode "+mode+" contradicts executable: set executable exactly when the mode has an execute bit")
	}
	return nil
}
