package audit

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
)

// Extension is the identity the log records for the code behind a plan:
// its name, its version and optionally the sha256 of its artifact (module,
// executable or plan file). Only NewExtension constructs one.
type Extension struct {
	name, version, digest, signature string
}

// maxIdent bounds an extension name or version.
const maxIdent = 128

// NewExtension validates an extension's name and version. Both must be 1 to
// 128 bytes of printable ASCII without spaces, slashes or backslashes: a
// name is a manifest name or a file's base name, never a path, so that no
// host path can reach the log through it. version may be empty (a plan file
// has none).
func NewExtension(name, version string) (Extension, error) {
	if err := checkIdent("extension name", name, false); err != nil {
		return Extension{}, err
	}
	if err := checkIdent("extension version", version, true); err != nil {
		return Extension{}, err
	}
	return Extension{name: name, version: version}, nil
}

// WithArtifact returns e with the sha256 of the artifact that ran (the
// module, the executable, or the plan file's bytes).
func (e Extension) WithArtifact(sum [sha256.Size]byte) Extension {
	e.digest = hex.EncodeToString(sum[:])
	return e
}

// maxSignature bounds the logged signature description.
const maxSignature = 256

// WithSignature returns e naming how the artifact that ran was vouched
// for: "signed by <signer>", "unsigned, opted in" or "unsigned", as
// host/extension.RunPin.Describe spells it; "" names nothing (a built-in,
// or an artifact the user named on the command line). A signer is an
// OIDC identity or a key's name, not a secret; control characters become
// "?" and the text is cut at 256 bytes, so the log stays one line.
func (e Extension) WithSignature(describe string) Extension {
	b := []byte(strings.ToValidUTF8(describe, "?"))
	for i, c := range b {
		if c < ' ' || c == 0x7f {
			b[i] = '?'
		}
	}
	if len(b) > maxSignature {
		b = []byte(strings.ToValidUTF8(string(b[:maxSignature-3]), "") + "...")
	}
	e.signature = string(b)
	return e
}

// Signature is how the artifact was vouched for ("" when not said).
func (e Extension) Signature() string { return e.signature }

// Name is the extension's name.
func (e Extension) Name() string { return e.name }

// Version is the extension's version, possibly empty.
func (e Extension) Version() string { return e.version }

// IsZero reports whether e was not built by NewExtension.
func (e Extension) IsZero() bool { return e.name == "" }

func (e Extension) entry() ExtensionEntry {
	return ExtensionEntry{Name: e.name, Version: e.version, SHA256: e.digest, Signature: e.signature}
}

func checkIdent(what, s string, emptyOK bool) error {
	if s == "" {
		if emptyOK {
			return nil
		}
		return fmt.Errorf("audit: %s is empty", what)
	}
	if len(s) > maxIdent {
		return fmt.Errorf("audit: %s longer than %d bytes", what, maxIdent)
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || c == '/' || c == '\\' {
			return fmt.Errorf("audit: %s must be printable ASCII without spaces or path separators", what)
		}
	}
	return nil
}

// RootID names the root a plan was applied under without logging its host
// path: a domain-separated sha256 of the absolute path, stable for one path
// on one machine, so records about the same tree can be grouped. It is not
// keyed: whoever reads the log and can guess a path can confirm the guess.
// Only NewRootID constructs one.
type RootID struct{ id string }

// NewRootID derives the id for an absolute root path.
func NewRootID(absRoot string) RootID {
	sum := sha256.Sum256([]byte("lola.audit.root\x00" + absRoot))
	return RootID{id: hex.EncodeToString(sum[:16])}
}

// String is the id's hex form ("" for the zero value).
func (r RootID) String() string { return r.id }
