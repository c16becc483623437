package schema

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"maps"
	"strings"
)

// Plan is what an extension returns: a set of intents the host validates as a
// whole and applies atomically. The order of Intents carries no meaning; the
// host fixes its own apply order.
type Plan struct {
	Protocol int      `json:"protocol" jsonschema:"minimum=1,maximum=1" jsonschema_description:"The protocol version; 1."`
	Intents  []Intent `json:"intents" jsonschema_description:"The intents, validated as a whole and applied atomically; their order carries no meaning."`
}

// Op names an intent's kind. Its string form is the wire spelling.
type Op string

// The five intents. The spelling is fixed by the protocol.
const (
	OpWrite  Op = "write"
	OpDelete Op = "delete"
	OpRename Op = "rename"
	OpFetch  Op = "fetch"
	OpClone  Op = "clone"
)

// Ops lists every op in the protocol, in its canonical order.
var Ops = []Op{OpWrite, OpDelete, OpRename, OpFetch, OpClone}

// Encoding is how a content field is spelled on the wire.
type Encoding string

// Content encodings. The empty string means EncodingUTF8.
const (
	EncodingUTF8   Encoding = "utf8"
	EncodingBase64 Encoding = "base64"
)

// Intent is one element of a plan. Exactly one of its fields is set; on the
// wire it is a single object whose "op" member says which.
type Intent struct {
	Write  *Write
	Delete *Delete
	Rename *Rename
	Fetch  *Fetch
	Clone  *Clone
}

// Write creates or replaces the file at Path with Content.
type Write struct {
	Path       string   `json:"path" jsonschema:"minLength=1" jsonschema_description:"The root-relative file to create or replace."`
	Content    string   `json:"content" jsonschema_description:"The content: UTF-8 text, or base64 when encoding is base64."`
	Encoding   Encoding `json:"encoding,omitempty" jsonschema:"enum=utf8,enum=base64" jsonschema_description:"How content is spelled: utf8 (the default) or base64."`
	Executable bool     `json:"executable,omitempty" jsonschema_description:"Set to make the file executable."`
	// IfContent makes the write a compare-and-swap: the host applies the
	// plan only if the file still holds what the write was computed from
	// (IfContentAbsent, or IfContentSHA256 of its bytes); otherwise it
	// refuses the whole plan, conflict.changed, nothing applied.
	IfContent string `json:"if_content,omitempty" jsonschema:"pattern=^(absent|sha256:[0-9a-f]{64})$" jsonschema_description:"Compare-and-swap: apply only if the file is still as the write was computed from: \"absent\" (no file there) or \"sha256:\" and the lowercase hex SHA-256 of its bytes; otherwise the host refuses the whole plan (conflict.changed)."`
	// Mode is the file's permission bits in octal ("0664"), for a copy
	// that keeps its module file's mode (File.Mode); "" is 0644, 0755
	// when Executable. Permission bits only: the host refuses setuid,
	// setgid, sticky and anything but 3 or 4 octal digits, a mode that
	// contradicts Executable, and group or other write no module file of
	// that content has (plan.mode).
	Mode string `json:"mode,omitempty" jsonschema:"pattern=^0?[0-7]{3}$" jsonschema_description:"Permission bits in octal (0664); absent is 0644, or 0755 when executable."`
}

// IfContentAbsent is the if_content of a write computed from no file.
const IfContentAbsent = "absent"

// IfContentSHA256 is the if_content of a write computed from the bytes b:
// "sha256:" and the lowercase hex SHA-256 of b.
func IfContentSHA256(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// ValidIfContent reports whether s is an if_content a plan may carry:
// IfContentAbsent or "sha256:" and 64 lowercase hex digits.
func ValidIfContent(s string) bool {
	if s == IfContentAbsent {
		return true
	}
	h, ok := strings.CutPrefix(s, "sha256:")
	if !ok || len(h) != 64 {
		return false
	}
	for i := 0; i < len(h); i++ {
		if c := h[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// Delete removes the file or subtree at Path. A missing path is a no-op.
type Delete struct {
	Path string `json:"path" jsonschema:"minLength=1" jsonschema_description:"The root-relative file or subtree to remove; a missing path is a no-op."`
}

// Rename moves From to To. To must not exist.
type Rename struct {
	From string `json:"from" jsonschema:"minLength=1" jsonschema_description:"The root-relative path to move."`
	To   string `json:"to" jsonschema:"minLength=1" jsonschema_description:"The root-relative path to move it to."`
}

// Fetch asks the host to GET URL over https and write the body at Dest.
// The extension never sees the response.
type Fetch struct {
	URL     string            `json:"url" jsonschema:"minLength=1" jsonschema_description:"The https URL the host downloads (needs net.http)."`
	Dest    string            `json:"dest" jsonschema:"minLength=1" jsonschema_description:"The root-relative file the host writes the response to."`
	Method  string            `json:"method,omitempty" jsonschema:"enum=GET" jsonschema_description:"The HTTP method; GET only."`
	Headers map[string]string `json:"headers,omitempty" jsonschema_description:"Request headers; the host drops those its remote rules forbid."`
}

// Clone asks the host to clone URL (https or ssh) into Dest.
type Clone struct {
	URL   string `json:"url" jsonschema:"minLength=1" jsonschema_description:"The https or ssh repository URL the host clones (needs net.git)."`
	Dest  string `json:"dest" jsonschema:"minLength=1" jsonschema_description:"The root-relative directory the host clones into."`
	Ref   string `json:"ref,omitempty" jsonschema_description:"The branch, tag or commit to check out; the default branch when absent."`
	Depth int    `json:"depth,omitempty" jsonschema:"minimum=0,maximum=2147483647" jsonschema_description:"The history depth; 0 means full history."`
}

// Op reports which intent i holds, or "" when none or several are set.
func (i Intent) Op() Op {
	var op Op
	n := 0
	if i.Write != nil {
		op, n = OpWrite, n+1
	}
	if i.Delete != nil {
		op, n = OpDelete, n+1
	}
	if i.Rename != nil {
		op, n = OpRename, n+1
	}
	if i.Fetch != nil {
		op, n = OpFetch, n+1
	}
	if i.Clone != nil {
		op, n = OpClone, n+1
	}
	if n != 1 {
		return ""
	}
	return op
}

// Paths returns the root-relative paths the intent touches, in field order:
// one for write, delete, fetch and clone (path or dest), two for rename
// (from, then to).
func (i Intent) Paths() []string {
	switch {
	case i.Write != nil:
		return []string{i.Write.Path}
	case i.Delete != nil:
		return []string{i.Delete.Path}
	case i.Rename != nil:
		return []string{i.Rename.From, i.Rename.To}
	case i.Fetch != nil:
		return []string{i.Fetch.Dest}
	case i.Clone != nil:
		return []string{i.Clone.Dest}
	}
	return nil
}

// DeepCopy returns a copy of i that shares nothing with it, header map
// included, so a holder of the copy cannot change the original.
func (i Intent) DeepCopy() Intent {
	switch {
	case i.Write != nil:
		w := *i.Write
		return Intent{Write: &w}
	case i.Delete != nil:
		d := *i.Delete
		return Intent{Delete: &d}
	case i.Rename != nil:
		r := *i.Rename
		return Intent{Rename: &r}
	case i.Fetch != nil:
		f := *i.Fetch
		f.Headers = maps.Clone(i.Fetch.Headers) // nil stays nil
		return Intent{Fetch: &f}
	case i.Clone != nil:
		c := *i.Clone
		return Intent{Clone: &c}
	}
	return Intent{}
}

// PathField is the wire name of an op's touched-path slot (the order of
// Intent.Paths): "from" and "to" for rename, "dest" for fetch and clone,
// "path" otherwise.
func (op Op) PathField(slot int) string {
	switch op {
	case OpRename:
		if slot == 0 {
			return "from"
		}
		return "to"
	case OpFetch, OpClone:
		return "dest"
	}
	return "path"
}

// ParseMode reads a Write.Mode or File.Mode: 3 or 4 octal digits, a
// 4-digit one starting with 0, so permission bits only (at most 0777:
// no setuid, setgid or sticky bit can be spelled).
func ParseMode(s string) (fs.FileMode, bool) {
	if len(s) == 4 && s[0] == '0' {
		s = s[1:]
	}
	if len(s) != 3 {
		return 0, false
	}
	var m fs.FileMode
	for i := 0; i < 3; i++ {
		c := s[i]
		if c < '0' || c > '7' {
			return 0, false
		}
		m = m<<3 | fs.FileMode(c-'0')
	}
	return m, true
}

// FileMode is the permission bits w asks for: Mode when it parses, else
// 0755 when Executable, else 0644. (A host validates Mode before it
// applies a plan; an unparsable one here falls back to the default.)
func (w *Write) FileMode() fs.FileMode {
	if m, ok := ParseMode(w.Mode); ok && w.Mode != "" {
		return m
	}
	if w.Executable {
		return 0o755
	}
	return 0o644
}
