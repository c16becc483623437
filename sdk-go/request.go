package lola

import (
	"github.com/lola-pm/lola/schema"
)

// Request is what the host sends: the operation, the assistant and scope
// where they apply, and the modules with their files. It is schema.Request,
// so its fields are the protocol's.
type Request = schema.Request

// Module is one module of a request.
type Module = schema.Module

// File is one file of a module, at a path relative to the module's root.
type File = schema.File

// Bytes returns f's content decoded from its encoding: the UTF-8 bytes for
// utf8 (or no encoding), the decoded bytes for base64. A base64 content that
// does not decode, or an unknown encoding, is a *BuildError for
// plan.encoding.
func Bytes(f File) ([]byte, error) {
	switch f.Encoding {
	case "", schema.EncodingUTF8:
		return []byte(f.Content), nil
	case schema.EncodingBase64:
		b, ok := decodeBase64(f.Content)
		if !ok {
			return nil, &BuildError{Rule: schema.RulePlanEncoding, Field: "content", Detail: "request file content is not valid base64"}
		}
		return b, nil
	}
	return nil, &BuildError{Rule: schema.RulePlanEncoding, Field: "encoding", Detail: "unknown encoding " + quote(string(f.Encoding))}
}
