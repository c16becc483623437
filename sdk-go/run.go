package lola

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"

	"github.com/lola-pm/lola/schema"
)

// Handler plans for one request by adding intents to p. Returning an error
// fails the run (StatusHandlerError) and no plan is emitted; returning
// BadRequest's error refuses the request (StatusBadRequest).
type Handler func(req *Request, p *Plan) error

// Status is the result of one run: lola_run's return value in tier 1, the
// process exit code in tier 2 (schema.GuestStatus: one table for every SDK).
type Status = schema.GuestStatus

// The statuses a run can end with. Their numbers are part of the ABI.
const (
	StatusOK           = schema.StatusOK
	StatusBadRequest   = schema.StatusBadRequest
	StatusHandlerError = schema.StatusHandlerError
	StatusPlanEncoding = schema.StatusPlanEncoding
	StatusNoHandler    = schema.StatusNoHandler
	StatusHandlerPanic = schema.StatusHandlerPanic
)

var registered Handler

// Register installs the extension's handler. Call it once, from init: in
// tier 1, init runs inside the module's _initialize, before the first
// lola_run. A second call, or a nil handler, panics.
func Register(h Handler) {
	if h == nil {
		panic("lola: Register with a nil handler")
	}
	if registered != nil {
		panic("lola: Register called twice")
	}
	registered = h
}

// Process runs the registered handler on one request and returns the
// canonical plan. It is what both tiers call; it is exported so tests can
// drive an extension in-process. On a non-zero status the plan is nil and
// err says why.
func Process(request []byte) (plan []byte, status Status, err error) {
	if registered == nil {
		return nil, StatusNoHandler, errors.New("lola: no handler registered (call lola.Register in init)")
	}
	return run(registered, request)
}

func run(h Handler, request []byte) (plan []byte, status Status, err error) {
	var req Request
	dec := json.NewDecoder(bytes.NewReader(request))
	if err := dec.Decode(&req); err != nil {
		return nil, StatusBadRequest, errors.New("lola: request is not a JSON request object: " + jsonErrorKind(err))
	}
	// dec.More would miss a stray '}' or ']': whatever follows the object
	// must be JSON whitespace.
	if len(bytes.TrimLeft(request[dec.InputOffset():], " \t\r\n")) != 0 {
		return nil, StatusBadRequest, errors.New("lola: trailing data after the request")
	}
	if req.Protocol != schema.Protocol {
		return nil, StatusBadRequest, fmt.Errorf("lola: request protocol %d, this SDK speaks %d", req.Protocol, schema.Protocol)
	}
	var p Plan
	if herr := callHandler(h, &req, &p); herr != nil {
		if _, panicked := herr.(panicError); panicked {
			return nil, StatusHandlerPanic, herr
		}
		if re := (*RequestError)(nil); errors.As(herr, &re) {
			return nil, StatusBadRequest, herr
		}
		return nil, StatusHandlerError, herr
	}
	if p.err != nil {
		return nil, StatusHandlerError, p.err
	}
	out, merr := p.MarshalJSON()
	if merr != nil {
		return nil, StatusPlanEncoding, errors.New("lola: plan encoding: " + merr.Error())
	}
	return out, StatusOK, nil
}

type panicError struct{ msg string }

// panicSite is " at FILE:LINE (FUNC)" of the frame that panicked, found
// from inside the recovering deferred function: the first frame below
// runtime.gopanic that is not the runtime's own (a nil dereference or an
// index out of range panics from runtime.panicmem / goPanicIndex). File
// names are as the build recorded them (module-relative with -trimpath).
func panicSite() string {
	pcs := make([]uintptr, 32)
	n := runtime.Callers(2, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	seenPanic := false
	for {
		f, more := frames.Next()
		if f.Function == "runtime.gopanic" {
			seenPanic = true
		} else if seenPanic && !strings.HasPrefix(f.Function, "runtime.") {
			return fmt.Sprintf(" at %s:%d (%s)", f.File, f.Line, f.Function)
		}
		if !more {
			return ""
		}
	}
}

func (e panicError) Error() string { return e.msg }

func callHandler(h Handler, req *Request, p *Plan) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = panicError{fmt.Sprintf("lola: handler panicked: %v%s", r, panicSite())}
		}
	}()
	return h(req, p)
}

// jsonErrorKind describes a decode error without echoing request bytes.
func jsonErrorKind(err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return "syntax error at byte " + strconv.FormatInt(syn.Offset, 10)
	case errors.As(err, &typ):
		return "member " + quote(typ.Field) + " has the wrong type"
	}
	return "unreadable"
}
