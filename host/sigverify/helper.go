package sigverify

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"time"

	"github.com/lola-pm/lola/host/sibling"
	"github.com/lola-pm/lola/schema/lexical"
)

// HelperExecutable is the verifier's executable (cmd/lola-sigstore),
// found beside lola's.
const HelperExecutable = "lola-sigstore"

// helperTimeout bounds one verification: reading the request, parsing a
// trusted root and a bundle and checking a few signatures take
// milliseconds.
const helperTimeout = 30 * time.Second

// helperStderrBytes bounds what of the helper's stderr an error quotes.
const helperStderrBytes = 4 << 10

// ErrNoHelper: there is no lola-sigstore beside lola, so no bundle can be
// verified (and none is trusted).
var ErrNoHelper = errors.New("signature verification needs " + HelperExecutable + " beside the lola executable, and there is none (reinstall lola with its helpers)")

// inProcess, when set, answers requests in this process instead of the
// helper: host/signature sets it when it is linked (the helper itself,
// and tests).
var inProcess func(Request) Response

// SetInProcess makes this process verify requests with f instead of
// running the helper. host/signature calls it from its init.
func SetInProcess(f func(Request) Response) { inProcess = f }

// helperPath finds the helper; a variable so tests can name a fake.
var helperPath = func() (string, bool) { return sibling.Beside(HelperExecutable) }

// verify answers req in-process or through the helper.
func verify(ctx context.Context, req Request) (Response, error) {
	if inProcess != nil {
		return inProcess(req), nil
	}
	p, ok := helperPath()
	if !ok {
		return Response{}, ErrNoHelper
	}
	body, err := json.Marshal(req)
	if err != nil {
		return Response{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, helperTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, p)
	cmd.Env = []string{}
	cmd.Stdin = bytes.NewReader(body)
	out := &capped{max: MaxResponseBytes}
	errOut := &capped{max: helperStderrBytes}
	cmd.Stdout, cmd.Stderr = out, errOut
	cmd.WaitDelay = time.Second
	if err := cmd.Run(); err != nil {
		return Response{}, fmt.Errorf("the signature verifier %s failed (%v): %s", HelperExecutable, err, lexical.Printable(errOut.String(), lexical.TextEcho))
	}
	if out.over {
		return Response{}, fmt.Errorf("the signature verifier %s answered more than %d bytes", HelperExecutable, MaxResponseBytes)
	}
	resp, err := decodeResponse(out.Bytes())
	if err != nil {
		return Response{}, fmt.Errorf("the signature verifier %s answered no response: %w", HelperExecutable, err)
	}
	return resp, nil
}

// capped keeps the first max bytes written and notes whether more came.
// It holds its buffer in a field, not embedded: an embedded bytes.Buffer
// would lend it ReadFrom, which io.Copy prefers to Write, past the cap.
type capped struct {
	buf  bytes.Buffer
	max  int
	over bool
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.buf.Len(); room < len(p) {
		c.over = true
		if room > 0 {
			c.buf.Write(p[:room])
		}
		return len(p), nil
	}
	return c.buf.Write(p)
}

func (c *capped) Bytes() []byte  { return c.buf.Bytes() }
func (c *capped) String() string { return c.buf.String() }
