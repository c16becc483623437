package lexical

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/lola-pm/lola/schema"
)

// Path applies the plan path vocabulary to p, which is the same on every
// platform: one or more non-empty components separated by "/", none of
// them "." or "..", no backslash, no control character, none of the
// characters in WindowsForbidden, no trailing dot or space, no Windows
// device name. A path that passes names the same location on every
// supported platform. Path returns RuleUnknown and "" when p passes, and
// otherwise
//   - RulePathAbsolute: p is rooted ("/x", "\x", "//server/share",
//     `\\?\...`) or drive-qualified ("C:", "C:x", `C:\x`);
//   - RulePathTraversal: a ".." component;
//   - RulePathInvalid: anything else the vocabulary refuses (the empty
//     path, an empty or "." component including a trailing "/", invalid
//     UTF-8, a control character, a backslash, one of <>:"|?*, a trailing
//     dot or space, a device name such as CON, nul.txt, COM1, LPT¹ or
//     CONIN$), and a path too long for some supported filesystem: a
//     component longer than MaxComponentBytes or a whole path of
//     MaxPathBytes or more.
//
// When p has several faults the rule is chosen in the order above, and
// within path.invalid the first faulty component decides. The detail never
// repeats p whole: a rooted path may name the host's home, so only a
// faulty component is quoted, as a prefix of at most PathEcho bytes.
func Path(p string) (schema.Rule, string) {
	if p == "" {
		return schema.RulePathInvalid, "empty path"
	}
	if p[0] == '/' || p[0] == '\\' {
		return schema.RulePathAbsolute, "path is rooted; plan paths are relative to the root"
	}
	if len(p) >= 2 && p[1] == ':' && isASCIILetter(p[0]) {
		return schema.RulePathAbsolute, "path names a drive; plan paths are relative to the root"
	}
	// Traversal is reported before any other fault of the same path: it is
	// the one that says the author tried to leave the root.
	for c := range strings.SplitSeq(p, "/") {
		if c == ".." {
			return schema.RulePathTraversal, "'..' component"
		}
	}
	if !utf8.ValidString(p) {
		return schema.RulePathInvalid, "path is not valid UTF-8"
	}
	if len(p) >= MaxPathBytes {
		return schema.RulePathInvalid, "path is " + strconv.Itoa(len(p)) + " bytes long; the limit is " + strconv.Itoa(MaxPathBytes-1)
	}
	for c := range strings.SplitSeq(p, "/") {
		if why := componentFault(c); why != "" {
			return schema.RulePathInvalid, why
		}
	}
	return schema.RuleUnknown, ""
}

// componentFault says why c cannot be a component, or "" when it can.
// c is valid UTF-8 and not "..".
func componentFault(c string) string {
	switch c {
	case "":
		return "empty component"
	case ".":
		return "'.' component"
	}
	if len(c) > MaxComponentBytes {
		return "component " + Quote(c, PathEcho) + " is " + strconv.Itoa(len(c)) + " bytes long; the limit is " + strconv.Itoa(MaxComponentBytes)
	}
	for _, r := range c {
		switch {
		case unicode.IsControl(r):
			return "control character " + strconv.QuoteRune(r) + " in component " + Quote(c, PathEcho)
		case r == '\\':
			return "backslash in component " + Quote(c, PathEcho) + "; the separator is '/'"
		case strings.ContainsRune(WindowsForbidden, r):
			return "character " + strconv.QuoteRune(r) + " is not allowed on Windows, in component " + Quote(c, PathEcho)
		}
	}
	if last := c[len(c)-1]; last == '.' || last == ' ' {
		return "component " + Quote(c, PathEcho) + " ends in a dot or space, which Windows strips"
	}
	if IsDeviceName(c) {
		return "component " + Quote(c, PathEcho) + " is a Windows device name"
	}
	return ""
}

// The length bounds, chosen so that a path that passes can be created on
// every supported filesystem instead of validating and then failing at
// apply with "file name too long":
//   - MaxComponentBytes: Linux (ext4, btrfs, xfs, tmpfs) and APFS allow 255
//     bytes of UTF-8 per name; HFS+ and NTFS allow 255 UTF-16 code units.
//     A code point never takes more UTF-16 units than UTF-8 bytes, so 255
//     UTF-8 bytes fits all of them.
//   - MaxPathBytes: Linux refuses a path argument of PATH_MAX (4096) bytes
//     or more, counting its terminating NUL, with ENAMETOOLONG; a plan
//     path is handed to openat2 beneath the root as one argument, so it
//     must be shorter. macOS's PATH_MAX is 1024, but there the executor
//     walks a path one component at a time, so only the component bound
//     applies; Windows takes up to 32767 UTF-16 units through \\?\ paths.
//     The root's own name is not counted: every path is resolved relative
//     to the root's descriptor.
const (
	MaxComponentBytes = 255
	MaxPathBytes      = 4096
)

// WindowsForbidden are the printable characters Win32 refuses in a name.
// ':' is among them, which also refuses alternate data streams
// ("notes.txt:hidden") and a drive letter after the first component.
const WindowsForbidden = `<>:"|?*`

func isASCIILetter(b byte) bool { return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' }
