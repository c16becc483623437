package sigverify

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/lola-pm/lola/host/child"
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
var ErrNoHelper = errors.New("signature verification needs " + HelperExecutable + " beside the lola executable, and there is none: " +
	"unpack it from the release archive next to lola, or install it where go install put lola " +
	"(go install github.com/lola-pm/lola/cmd/" + HelperExecutable + "@<lola's version>); until then no signature is trusted")

// inProcess, when set, answers requests in this process instead of the
// helper: host/signature sets it when it is linked (the helper itself,
// and tests).
var inProcess func(Request) Response

// SetInProcess makes this process verify requests with f instead of
// running the helper. host/signature calls it from its init.
func SetInProcess(f func(Request) Response) { inProcess = f }

// helperPath finds the helper; a variable so tests can name a fake.
var helperPath = func() (string, bool) { return sibling.Beside(HelperExecutable) }

// verify answers req in-process or through the helper, run as any child
// of lola's is (host/child): empty environment, the request on stdin,
// stdout and stderr bounded, killed with its descendants at the deadline.
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
	spec, err := child.NewSpec(child.Config{
		Path: p, Stdin: body, Deadline: helperTimeout, Grace: child.DefaultGrace,
		StderrCap: helperStderrBytes, Stdout: child.StdoutDiagnostics, StdoutCap: MaxResponseBytes,
	})
	if err != nil {
		return Response{}, err
	}
	r := child.Run(ctx, spec)
	if r.Outcome != child.OutcomeCompleted {
		return Response{}, fmt.Errorf("the signature verifier %s failed (%s): %s", HelperExecutable, r.Outcome, lexical.Printable(string(r.Diagnostics), lexical.TextEcho))
	}
	if r.OutputTruncated {
		return Response{}, fmt.Errorf("the signature verifier %s answered more than %d bytes", HelperExecutable, MaxResponseBytes)
	}
	resp, err := decodeResponse(r.Output)
	if err != nil {
		return Response{}, fmt.Errorf("the signature verifier %s answered no response: %w", HelperExecutable, err)
	}
	return resp, nil
}
