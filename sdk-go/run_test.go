package lola

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/lola-pm/lola/schema"
)

func TestRunStatuses(t *testing.T) {
	ok := func(req *Request, p *Plan) error { return p.Write("a", "b") }
	cases := []struct {
		name    string
		h       Handler
		req     string
		status  Status
		message string
	}{
		{"ok", ok, `{"protocol":1,"operation":"install","modules":[]}`, StatusOK, ""},
		{"not json", ok, `{"protocol":`, StatusBadRequest, "request is not a JSON request object"},
		{"empty", ok, ``, StatusBadRequest, "request is not a JSON request object"},
		{"array", ok, `[1]`, StatusBadRequest, "wrong type"},
		{"trailing", ok, `{"protocol":1,"operation":"install","modules":[]} {}`, StatusBadRequest, "trailing data"},
		{"trailing brace", ok, `{"protocol":1,"operation":"install","modules":[]}}`, StatusBadRequest, "trailing data"},
		{"trailing bracket", ok, "{\"protocol\":1,\"operation\":\"install\",\"modules\":[]}\n]", StatusBadRequest, "trailing data"},
		{"trailing whitespace", ok, "{\"protocol\":1,\"operation\":\"install\",\"modules\":[]} \r\n\t", StatusOK, ""},
		{"protocol 0", ok, `{"operation":"install","modules":[]}`, StatusBadRequest, "protocol 0"},
		{"protocol 2", ok, `{"protocol":2,"operation":"install","modules":[]}`, StatusBadRequest, "protocol 2"},
		{"handler error", func(*Request, *Plan) error { return errors.New("boom") }, `{"protocol":1,"operation":"install","modules":[]}`, StatusHandlerError, "boom"},
		{"ignored refusal", func(_ *Request, p *Plan) error { _ = p.Delete("../x"); return nil }, `{"protocol":1,"operation":"install","modules":[]}`, StatusHandlerError, "path.traversal"},
		{"panic", func(*Request, *Plan) error { panic("kaboom") }, `{"protocol":1,"operation":"install","modules":[]}`, StatusHandlerPanic, "kaboom"},
		{"handler refuses the request", func(_ *Request, p *Plan) error {
			p.Write("a", "b")
			return BadRequest("module m: no inventory")
		}, `{"protocol":1,"operation":"install","modules":[]}`, StatusBadRequest, "lola: request.invalid: module m: no inventory"},
		{"wrapped refusal", func(*Request, *Plan) error {
			return fmt.Errorf("claude-code: %w", BadRequest("scope system"))
		}, `{"protocol":1,"operation":"install","modules":[]}`, StatusBadRequest, "claude-code: lola: request.invalid: scope system"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			plan, status, err := run(c.h, []byte(c.req))
			if status != c.status {
				t.Fatalf("status %s, want %s (err %v)", status, c.status, err)
			}
			if c.status == StatusOK {
				if err != nil || string(plan) != `{"protocol":1,"intents":[{"op":"write","path":"a","content":"b"}]}` {
					t.Fatalf("plan %s err %v", plan, err)
				}
				return
			}
			if plan != nil {
				t.Fatalf("a failed run returned a plan: %s", plan)
			}
			if err == nil || !strings.Contains(err.Error(), c.message) {
				t.Fatalf("error %v, want it to mention %q", err, c.message)
			}
		})
	}
}

// A request decode error must not echo request bytes (they are content).
func TestRunDoesNotEchoTheRequest(t *testing.T) {
	_, _, err := run(func(*Request, *Plan) error { return nil }, []byte(`{"protocol":1,"modules":[{"name":"secret-body","files":7}]}`))
	if err == nil || strings.Contains(err.Error(), "secret-body") {
		t.Fatalf("error %v echoes the request", err)
	}
}

func TestRegisterRefusesNilAndTwice(t *testing.T) {
	defer func(h Handler) { registered = h }(registered)
	registered = nil
	mustPanic(t, func() { Register(nil) })
	Register(func(*Request, *Plan) error { return nil })
	mustPanic(t, func() { Register(func(*Request, *Plan) error { return nil }) })
}

func mustPanic(t *testing.T, f func()) {
	t.Helper()
	defer func() {
		if recover() == nil {
			t.Fatal("did not panic")
		}
	}()
	f()
}

func TestStatusSpellingsAreDistinct(t *testing.T) {
	seen := map[string]Status{}
	for s := StatusOK; s <= StatusHandlerPanic; s++ {
		n := s.String()
		if strings.HasPrefix(n, "status(") {
			t.Fatalf("status %d has no spelling", s)
		}
		if prev, dup := seen[n]; dup {
			t.Fatalf("statuses %d and %d share %q", prev, s, n)
		}
		seen[n] = s
	}
	if Status(99).String() != "status(99)" {
		t.Fatal(Status(99).String())
	}
	_ = schema.Protocol
}
