//go:build !wasip1

package lola

import (
	"bytes"
	"strings"
	"testing"
)

func TestMainIO(t *testing.T) {
	defer func(h Handler) { registered = h }(registered)
	registered = nil
	var out, errOut bytes.Buffer
	if s := mainIO(strings.NewReader(`{"protocol":1,"operation":"install","modules":[]}`), &out, &errOut); s != StatusNoHandler {
		t.Fatalf("no handler: status %s", s)
	}
	registered = func(req *Request, p *Plan) error {
		for _, m := range req.Modules {
			if err := p.Delete("out/" + m.Name); err != nil {
				return err
			}
		}
		return nil
	}
	out.Reset()
	errOut.Reset()
	s := mainIO(strings.NewReader(`{"protocol":1,"operation":"uninstall","modules":[{"name":"m","files":[]}]}`), &out, &errOut)
	if s != StatusOK || out.String() != `{"protocol":1,"intents":[{"op":"delete","path":"out/m"}]}` || errOut.Len() != 0 {
		t.Fatalf("status %s stdout %q stderr %q", s, out.String(), errOut.String())
	}
	out.Reset()
	s = mainIO(strings.NewReader(`{"protocol":1,"operation":"uninstall","modules":[{"name":"..","files":[]}]}`), &out, &errOut)
	if s != StatusHandlerError || out.Len() != 0 || !strings.Contains(errOut.String(), "path.traversal") {
		t.Fatalf("status %s stdout %q stderr %q", s, out.String(), errOut.String())
	}
}
