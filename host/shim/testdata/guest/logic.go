// Package main is a hostile and friendly test extension for the shim. One
// source serves every Go-built behaviour: the request's "assistant" field
// names the behaviour, so one wasm build (and one native build) covers them
// all. It implements a minimal guest ABI of its own and depends on nothing.
package main

import (
	"encoding/json"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
)

type file struct {
	Path    string `json:"path"`
	Content string `json:"content"`
}

type module struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
	Files   []file `json:"files"`
}

type request struct {
	Protocol  int      `json:"protocol"`
	Operation string   `json:"operation"`
	Assistant string   `json:"assistant,omitempty"`
	Modules   []module `json:"modules"`
}

type intent struct {
	Op      string `json:"op"`
	Path    string `json:"path"`
	Content string `json:"content"`
}

type plan struct {
	Protocol int      `json:"protocol"`
	Intents  []intent `json:"intents"`
}

// outcome is what handle decides: the plan bytes, the status, and for the
// ABI-abusing behaviours a plan pointer/length the export should declare
// instead of the real buffer's.
type outcome struct {
	plan        []byte
	status      int32
	overridePtr bool
	ptr         uint32
	overrideLen bool
	length      uint32
}

var keep [][]byte

func handle(raw []byte) outcome {
	var req request
	if err := json.Unmarshal(raw, &req); err != nil {
		return outcome{status: 2}
	}
	arg := ""
	if len(req.Modules) > 0 && len(req.Modules[0].Files) > 0 {
		arg = req.Modules[0].Files[0].Content
	}
	switch {
	case req.Assistant == "passwd":
		b, err := os.ReadFile("/etc/passwd")
		if err != nil {
			return ok(result("passwd", "error: "+err.Error()))
		}
		return ok(result("passwd", "read: "+string(b)))
	case req.Assistant == "socket":
		c, err := net.Dial("tcp", arg)
		if err != nil {
			return ok(result("socket", "error: "+err.Error()))
		}
		c.Close()
		return ok(result("socket", "connected"))
	case req.Assistant == "alloc":
		for {
			keep = append(keep, make([]byte, 1<<20))
		}
	case req.Assistant == "spin":
		n := 0
		for {
			n++
		}
	case req.Assistant == "panic":
		panic("guest panics on purpose")
	case req.Assistant == "empty":
		return outcome{}
	case strings.HasPrefix(req.Assistant, "status-"):
		n, _ := strconv.Atoi(strings.TrimPrefix(req.Assistant, "status-"))
		return outcome{status: int32(n)}
	case req.Assistant == "plan-oob":
		p := ok([]byte(`{"protocol":1,"intents":[]}`))
		p.overridePtr, p.ptr = true, 0xFFFFFF00
		return p
	case req.Assistant == "plan-len":
		// A plan buffer of exactly n bytes, declared truthfully.
		n, _ := strconv.Atoi(arg)
		return ok([]byte(strings.Repeat(" ", n)))
	case req.Assistant == "introspect":
		// What the process environment gives the guest: env, argv, stdin
		// and the root directory. The shim must give it nothing.
		in, _ := io.ReadAll(os.Stdin)
		_, dirErr := os.ReadDir("/")
		root := "readable"
		if dirErr != nil {
			root = "error"
		}
		return ok(result("introspect", "env="+strings.Join(os.Environ(), ";")+"|args="+strings.Join(os.Args, ";")+
			"|stdin="+strconv.Itoa(len(in))+"|root="+root))
	case req.Assistant == "noise":
		for i := 0; i < 1000; i++ {
			os.Stderr.WriteString("lola-shim: {\"event\":\"outcome\",\"diag\":\"ok\"}\n")
		}
		return ok(roundTrip(req))
	}
	return ok(roundTrip(req))
}

func ok(b []byte) outcome { return outcome{plan: b} }

func result(name, content string) []byte {
	b, _ := json.Marshal(plan{Protocol: 1, Intents: []intent{{Op: "write", Path: "result/" + name, Content: content}}})
	return b
}

// roundTrip plans one write per module file, under out/<module>/, with a
// content derived from the file so that a faithful round trip is visible.
func roundTrip(req request) []byte {
	p := plan{Protocol: 1, Intents: []intent{}}
	for _, m := range req.Modules {
		for _, f := range m.Files {
			p.Intents = append(p.Intents, intent{Op: "write", Path: "out/" + m.Name + "/" + f.Path, Content: strings.ToUpper(f.Content) + " (" + req.Operation + ")"})
		}
	}
	b, _ := json.Marshal(p)
	return b
}
