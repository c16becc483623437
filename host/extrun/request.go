package extrun

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/lola-pm/lola/schema"
)

// MaxRequestBytes bounds a request file: the shim's own request bound
// (shim.DefaultLimits().MaxRequest, 64 MiB), so every request 'lola ext
// request' prints for an install lola would run can be run again here.
const MaxRequestBytes = 64 << 20

// DefaultRequest is the request sent without --request: an empty module
// list, {"protocol":1,"operation":"generate","modules":[]}.
func DefaultRequest() schema.Request {
	return schema.Request{Protocol: 1, Operation: schema.OperationGenerate, Modules: []schema.Module{}}
}

// LoadRequest returns the request to send: DefaultRequest for name "",
// else the file name (stdin for "-"), which must be one JSON object of
// at most MaxRequestBytes, a request of protocol 1 with an operation lola
// knows (install, uninstall, generate), unknown fields refused. A missing
// module list is sent as an empty one. A file that cannot be opened is
// named by its base name.
func LoadRequest(name string, stdin io.Reader) (schema.Request, error) {
	if name == "" {
		return DefaultRequest(), nil
	}
	var r io.Reader
	if name == "-" {
		r = stdin
	} else {
		f, err := os.Open(name)
		if err != nil {
			return schema.Request{}, fmt.Errorf("cannot open %s", filepath.Base(name))
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(io.LimitReader(r, MaxRequestBytes+1))
	if err != nil {
		return schema.Request{}, fmt.Errorf("cannot read %s", name)
	}
	if len(b) > MaxRequestBytes {
		return schema.Request{}, fmt.Errorf("larger than %d bytes", MaxRequestBytes)
	}
	var req schema.Request
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		return schema.Request{}, fmt.Errorf("not a request: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return schema.Request{}, errors.New("not a request: trailing data after the object")
	}
	if req.Protocol != 1 {
		return schema.Request{}, fmt.Errorf("protocol %d; this lola speaks 1", req.Protocol)
	}
	switch req.Operation {
	case schema.OperationInstall, schema.OperationUninstall, schema.OperationGenerate:
	default:
		return schema.Request{}, fmt.Errorf("unknown operation %q", req.Operation)
	}
	if req.Modules == nil {
		req.Modules = []schema.Module{}
	}
	return req, nil
}
