// Package shimtest builds tiny WebAssembly modules from Go values, for tests
// that need a module of an exact shape (a missing export, a wrong signature,
// a plan pointer one byte past memory, a command-style start) without a
// toolchain. It is test support: nothing in production imports it.
package shimtest

// Func is one function of a module. Params and Results count i32 values;
// Body is the function's instruction bytes without the final end opcode.
// An empty Name keeps the function unexported.
type Func struct {
	Name    string
	Params  int
	Results int
	Body    []byte
	// Locals declares this many i32 locals in one declaration (any count
	// a hostile module may claim, encoded in a few bytes).
	Locals uint32
}

// Table is a funcref table. Max nil declares no maximum.
type Table struct {
	Min uint32
	Max *uint32
}

// Import is one imported function (module.field) of the given i32 arity.
type Import struct {
	Module, Field   string
	Params, Results int
}

// Data places Bytes at Offset in memory 0.
type Data struct {
	Offset uint32
	Bytes  []byte
}

// Module describes a module: imports come first in the function index
// space, then Funcs in order. Pages is memory 0's minimum (0: no memory),
// exported as "memory".
type Module struct {
	Imports []Import
	Funcs   []Func
	Pages   uint32
	// MaxPages, when non-zero, is memory 0's declared maximum.
	MaxPages uint32
	Tables   []Table
	Data     []Data
}

// Instruction helpers.
var (
	Unreachable = []byte{0x00}
	// Spin loops forever: loop (br 0) end.
	Spin = []byte{0x03, 0x40, 0x0c, 0x00, 0x0b}
)

// I32 is i32.const v.
func I32(v int32) []byte { return append([]byte{0x41}, sleb(int64(v))...) }

// Call is call idx.
func Call(idx uint32) []byte { return append([]byte{0x10}, uleb(uint64(idx))...) }

// Drop is drop.
var Drop = []byte{0x1a}

// TableGrow is table.grow 0 by n null references, leaving the result
// (the old size, or -1 when refused) on the stack.
func TableGrow(n int32) []byte {
	return Concat([]byte{0xd0, 0x70}, I32(n), []byte{0xfc, 0x0f, 0x00})
}

// MemoryGrow is memory.grow 0 by n pages, leaving the result on the stack.
func MemoryGrow(n int32) []byte { return Concat(I32(n), []byte{0x40, 0x00}) }

// TrapIfMinusOne traps (unreachable) when the i32 on the stack is -1 and
// drops it otherwise.
var TrapIfMinusOne = Concat(I32(-1), []byte{0x46, 0x04, 0x40, 0x00, 0x0b})

// Concat joins instruction sequences.
func Concat(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// Bytes encodes the module in the WebAssembly binary format.
func (m Module) Bytes() []byte {
	out := []byte{0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00}
	var types [][]byte
	for _, im := range m.Imports {
		types = append(types, funcType(im.Params, im.Results))
	}
	for _, f := range m.Funcs {
		types = append(types, funcType(f.Params, f.Results))
	}
	out = append(out, section(1, vec(types))...)
	if len(m.Imports) > 0 {
		var ims [][]byte
		for i, im := range m.Imports {
			e := append(name(im.Module), name(im.Field)...)
			e = append(e, 0x00)
			e = append(e, uleb(uint64(i))...)
			ims = append(ims, e)
		}
		out = append(out, section(2, vec(ims))...)
	}
	var fidx [][]byte
	for i := range m.Funcs {
		fidx = append(fidx, uleb(uint64(len(m.Imports)+i)))
	}
	out = append(out, section(3, vec(fidx))...)
	if len(m.Tables) > 0 {
		var ts [][]byte
		for _, t := range m.Tables {
			e := []byte{0x70, 0x00}
			if t.Max != nil {
				e[1] = 0x01
			}
			e = append(e, uleb(uint64(t.Min))...)
			if t.Max != nil {
				e = append(e, uleb(uint64(*t.Max))...)
			}
			ts = append(ts, e)
		}
		out = append(out, section(4, vec(ts))...)
	}
	if m.Pages > 0 {
		lim := append([]byte{0x00}, uleb(uint64(m.Pages))...)
		if m.MaxPages > 0 {
			lim[0] = 0x01
			lim = append(lim, uleb(uint64(m.MaxPages))...)
		}
		out = append(out, section(5, vec([][]byte{lim}))...)
	}
	var exps [][]byte
	for i, f := range m.Funcs {
		if f.Name == "" {
			continue
		}
		e := append(name(f.Name), 0x00)
		exps = append(exps, append(e, uleb(uint64(len(m.Imports)+i))...))
	}
	if m.Pages > 0 {
		exps = append(exps, append(name("memory"), 0x02, 0x00))
	}
	out = append(out, section(7, vec(exps))...)
	var bodies [][]byte
	for _, f := range m.Funcs {
		b := []byte{0x00} // no locals
		if f.Locals > 0 {
			b = append(append([]byte{0x01}, uleb(uint64(f.Locals))...), 0x7f)
		}
		b = append(b, f.Body...)
		b = append(b, 0x0b)
		bodies = append(bodies, append(uleb(uint64(len(b))), b...))
	}
	out = append(out, section(10, vec(bodies))...)
	if len(m.Data) > 0 {
		var segs [][]byte
		for _, d := range m.Data {
			s := []byte{0x00}
			s = append(s, I32(int32(d.Offset))...)
			s = append(s, 0x0b)
			s = append(s, uleb(uint64(len(d.Bytes)))...)
			segs = append(segs, append(s, d.Bytes...))
		}
		out = append(out, section(11, vec(segs))...)
	}
	return out
}

// Reactor is a well-formed lola ABI v1 module with one page of memory whose
// lola_run returns status and whose plan is planBytes at offset 1024.
func Reactor(abiVersion, status int32, planBytes []byte) Module {
	return Module{
		Pages: 1,
		Data:  []Data{{Offset: 1024, Bytes: planBytes}},
		Funcs: []Func{
			{Name: "_initialize"},
			{Name: "lola_abi_version", Results: 1, Body: I32(abiVersion)},
			{Name: "lola_alloc", Params: 1, Results: 1, Body: I32(8192)},
			{Name: "lola_run", Params: 2, Results: 1, Body: I32(status)},
			{Name: "lola_plan_ptr", Results: 1, Body: I32(1024)},
			{Name: "lola_plan_len", Results: 1, Body: I32(int32(len(planBytes)))},
		},
	}
}

// Replace returns m with the function named n replaced by f (or removed
// when f.Name is empty).
func (m Module) Replace(n string, f Func) Module {
	var fs []Func
	for _, g := range m.Funcs {
		if g.Name == n {
			if f.Name == "" {
				continue
			}
			g = f
		}
		fs = append(fs, g)
	}
	m.Funcs = fs
	return m
}

func funcType(params, results int) []byte {
	b := []byte{0x60}
	b = append(b, uleb(uint64(params))...)
	for i := 0; i < params; i++ {
		b = append(b, 0x7f)
	}
	b = append(b, uleb(uint64(results))...)
	for i := 0; i < results; i++ {
		b = append(b, 0x7f)
	}
	return b
}

func section(id byte, body []byte) []byte {
	return append(append([]byte{id}, uleb(uint64(len(body)))...), body...)
}

func vec(items [][]byte) []byte {
	out := uleb(uint64(len(items)))
	for _, it := range items {
		out = append(out, it...)
	}
	return out
}

func name(s string) []byte { return append(uleb(uint64(len(s))), s...) }

func uleb(v uint64) []byte {
	var out []byte
	for {
		b := byte(v & 0x7f)
		v >>= 7
		if v != 0 {
			out = append(out, b|0x80)
			continue
		}
		return append(out, b)
	}
}

func sleb(v int64) []byte {
	var out []byte
	for {
		b := byte(v & 0x7f)
		v >>= 7
		if (v == 0 && b&0x40 == 0) || (v == -1 && b&0x40 != 0) {
			return append(out, b)
		}
		out = append(out, b|0x80)
	}
}
