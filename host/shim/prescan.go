package shim

import (
	"errors"
	"fmt"
)

// Module-shape limits, checked by prescan before wazero decodes a byte.
//
// wazero has no knobs for these: its decoder allocates in proportion to
// what a module declares (a function's locals, a table's elements), so a
// few hundred hostile bytes can ask it for gigabytes. The values follow the
// implementation limits every browser engine shares (the WebAssembly JS
// API, "Limits"), so no module built by an ordinary toolchain is refused,
// except MaxTableElements and MaxLocalsTotal, which are tighter and sized
// against the modules lola's SDKs produce (see the package doc).
const (
	MaxTypes           = 1_000_000
	MaxFunctions       = 1_000_000
	MaxImports         = 100_000
	MaxExports         = 100_000
	MaxGlobals         = 1_000_000
	MaxTables          = 100
	MaxDataSegments    = 100_000
	MaxElemSegments    = 10_000_000
	MaxParams          = 1_000
	MaxResults         = 1_000
	MaxFunctionBody    = 7_654_321 // bytes
	MaxLocalsPerFunc   = 50_000
	MaxLocalsTotal     = 4_000_000 // summed over every function of the module
	MaxTableElements   = 1 << 20   // every table's size, minimum and growth
	maxSectionsScanned = 1 << 16
)

// limitError is a module-shape limit prescan found exceeded: Name is the
// limit's stable spelling (the diagnostic's limit_name), Value what the
// module declared, Max the bound.
type limitError struct {
	Name       string
	Value, Max uint64
	Where      string
}

func (e *limitError) Error() string {
	return fmt.Sprintf("%s: %s declares %d, over the %d maximum", e.Name, e.Where, e.Value, e.Max)
}

// memoryMinError is a memory whose declared minimum exceeds the ceiling.
type memoryMinError struct{ Min uint64 }

func (e *memoryMinError) Error() string {
	return fmt.Sprintf("the module declares a minimum of %d pages", e.Min)
}

var errMalformed = errors.New("malformed module")

// prescan walks the module's section structure with a bounded parser: it
// reads each section's size and skips it, and looks inside only the
// sections whose declarations make wazero allocate (types, imports,
// functions, tables, memories, globals, exports, elements, data and, in the
// code section, each body's size and local declarations). It allocates
// nothing in proportion to any declared count and takes time linear in the
// module's size. It returns a *limitError, a *memoryMinError (a memory
// minimum over pages), errMalformed (wazero would refuse the bytes anyway;
// the caller lets wazero name the fault) or nil.
func prescan(b []byte, pages uint32) (scanned, error) {
	var s scanned
	return s, prescanInto(b, pages, &s)
}

// scanned is what prescan learnt beyond the verdict: where the table
// section lies, and whether a table in it has no maximum.
type scanned struct {
	tableHeader          int // the table section's id byte
	tableStart, tableEnd int // the table section's body, [start, end); 0, 0: none
	unboundedTable       bool
}

func prescanInto(b []byte, pages uint32, s *scanned) error {
	r := reader{b: b}
	if len(b) < 8 || string(b[:4]) != "\x00asm" {
		return errMalformed
	}
	r.off = 8
	for n := 0; r.off < len(r.b); n++ {
		if n >= maxSectionsScanned {
			return &limitError{Name: "sections", Value: uint64(n), Max: maxSectionsScanned, Where: "the module"}
		}
		hdr := r.off
		id, err := r.byte()
		if err != nil {
			return err
		}
		size, err := r.u32()
		if err != nil {
			return err
		}
		if uint64(size) > uint64(len(r.b)-r.off) {
			return errMalformed
		}
		body := reader{b: r.b[r.off : r.off+int(size)]}
		if id == 4 {
			s.tableHeader, s.tableStart, s.tableEnd = hdr, r.off, r.off+int(size)
		}
		r.off += int(size)
		if err := scanSection(id, &body, pages, s); err != nil {
			return err
		}
	}
	return nil
}

func scanSection(id byte, r *reader, pages uint32, s *scanned) error {
	switch id {
	case 1:
		return scanTypes(r)
	case 2:
		return scanImports(r, pages)
	case 3:
		_, err := r.count("functions", MaxFunctions)
		return err
	case 4:
		n, err := r.count("tables", MaxTables)
		if err != nil {
			return err
		}
		for i := uint32(0); i < n; i++ {
			if _, err := r.byte(); err != nil { // reference type
				return err
			}
			bounded, err := scanTableLimits(r, i)
			if err != nil {
				return err
			}
			s.unboundedTable = s.unboundedTable || !bounded
		}
	case 5:
		n, err := r.count("memories", 1)
		if err != nil {
			return err
		}
		for i := uint32(0); i < n; i++ {
			if err := scanMemoryLimits(r, pages); err != nil {
				return err
			}
		}
	case 6:
		_, err := r.count("globals", MaxGlobals)
		return err
	case 7:
		_, err := r.count("exports", MaxExports)
		return err
	case 9:
		_, err := r.count("element segments", MaxElemSegments)
		return err
	case 10:
		return scanCode(r)
	case 11:
		_, err := r.count("data segments", MaxDataSegments)
		return err
	case 12:
		n, err := r.u32()
		if err == nil && n > MaxDataSegments {
			return &limitError{Name: "data segments", Value: uint64(n), Max: MaxDataSegments, Where: "the data count section"}
		}
		return err
	}
	return nil
}

func scanTypes(r *reader) error {
	n, err := r.count("types", MaxTypes)
	if err != nil {
		return err
	}
	for i := uint32(0); i < n; i++ {
		if form, err := r.byte(); err != nil || form != 0x60 {
			return errMalformed // wazero 1.12 accepts only function types here
		}
		for _, which := range []struct {
			name string
			max  uint32
		}{{"parameters", MaxParams}, {"results", MaxResults}} {
			k, err := r.u32()
			if err != nil {
				return err
			}
			if k > which.max {
				return &limitError{Name: which.name, Value: uint64(k), Max: uint64(which.max), Where: fmt.Sprintf("type %d", i)}
			}
			if err := r.skip(int(k)); err != nil {
				return err
			}
		}
	}
	return nil
}

func scanImports(r *reader, pages uint32) error {
	n, err := r.count("imports", MaxImports)
	if err != nil {
		return err
	}
	for i := uint32(0); i < n; i++ {
		for range 2 { // module and field names
			k, err := r.u32()
			if err != nil {
				return err
			}
			if err := r.skip(int(k)); err != nil {
				return err
			}
		}
		kind, err := r.byte()
		if err != nil {
			return err
		}
		switch kind {
		case 0x00: // function: type index
			_, err = r.u32()
		case 0x01: // table
			if _, err = r.byte(); err == nil {
				_, err = scanTableLimits(r, i)
			}
		case 0x02: // memory
			err = scanMemoryLimits(r, pages)
		case 0x03: // global: value type, mutability
			err = r.skip(2)
		default:
			return errMalformed
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// scanTableLimits refuses a table whose minimum or maximum exceeds
// MaxTableElements, and reports whether it declares a maximum at all.
// wazero lets table.grow on a table without one reach 2^32-1 elements of 8
// bytes each, an allocation no context cancellation interrupts, so such a
// table is given the maximum MaxTableElements before compilation
// (boundTables).
func scanTableLimits(r *reader, i uint32) (bounded bool, err error) {
	flag, err := r.byte()
	if err != nil {
		return false, err
	}
	min, err := r.u32()
	if err != nil {
		return false, err
	}
	where := fmt.Sprintf("table %d", i)
	if min > MaxTableElements {
		return false, &limitError{Name: "table-elements", Value: uint64(min), Max: MaxTableElements, Where: where + "'s minimum"}
	}
	switch flag {
	case 0x00:
		return false, nil
	case 0x01:
		max, err := r.u32()
		if err != nil {
			return false, err
		}
		if max > MaxTableElements {
			return false, &limitError{Name: "table-elements", Value: uint64(max), Max: MaxTableElements, Where: where + "'s maximum"}
		}
		return true, nil
	}
	return false, errMalformed
}

// boundTables returns wasm with every table of its table section that
// declares no maximum given the maximum MaxTableElements, so that
// table.grow past it returns -1 (the WebAssembly semantics of a grow past
// the maximum) instead of allocating. The rest of the module is unchanged;
// the result is a new slice. prescan must have accepted wasm and reported
// the section.
func boundTables(wasm []byte, s scanned) ([]byte, error) {
	r := reader{b: wasm[s.tableStart:s.tableEnd]}
	n, err := r.u32()
	if err != nil {
		return nil, err
	}
	body := appendULEB(nil, uint64(n))
	for i := uint32(0); i < n; i++ {
		ref, err := r.byte()
		if err != nil {
			return nil, err
		}
		flag, err := r.byte()
		if err != nil {
			return nil, err
		}
		min, err := r.u32()
		if err != nil {
			return nil, err
		}
		max := uint32(MaxTableElements)
		if flag == 0x01 {
			if max, err = r.u32(); err != nil {
				return nil, err
			}
		}
		body = append(body, ref, 0x01)
		body = appendULEB(appendULEB(body, uint64(min)), uint64(max))
	}
	if r.off != len(r.b) {
		return nil, errMalformed
	}
	sec := appendULEB([]byte{4}, uint64(len(body)))
	sec = append(sec, body...)
	size := len(wasm)
	delta := len(sec) - (s.tableEnd - s.tableHeader)
	if delta > cap(wasm)-size {
		out := make([]byte, 0, size+delta)
		out = append(out, wasm[:s.tableHeader]...)
		out = append(out, sec...)
		return append(out, wasm[s.tableEnd:]...), nil
	}
	// In place (the read buffer keeps TableHeadroom spare bytes): no
	// second copy of a module of megabytes. copy is a memmove.
	out := wasm[:size+max(delta, 0)]
	copy(out[s.tableEnd+delta:], wasm[s.tableEnd:size])
	copy(out[s.tableHeader:], sec)
	return out[:size+delta], nil
}

// TableHeadroom is the spare capacity the artifact's buffer is read with,
// so that boundTables can rewrite the table section in place: each table
// grows by at most four bytes (the flag is rewritten, a maximum of at most
// three LEB128 bytes is added), MaxTables of them.
const TableHeadroom = 4*MaxTables + 8

func appendULEB(b []byte, v uint64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v == 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

// scanMemoryLimits refuses a memory whose declared minimum exceeds the
// ceiling; a larger maximum is fine (growth is refused at the ceiling).
func scanMemoryLimits(r *reader, pages uint32) error {
	flag, err := r.byte()
	if err != nil {
		return err
	}
	if flag > 0x03 { // 0x02, 0x03: shared memory, refused by wazero without threads
		return errMalformed
	}
	min, err := r.u32()
	if err != nil {
		return err
	}
	if flag&1 == 1 {
		if _, err := r.u32(); err != nil {
			return err
		}
	}
	if uint64(min) > uint64(pages) {
		return &memoryMinError{Min: uint64(min)}
	}
	return nil
}

func scanCode(r *reader) error {
	n, err := r.count("functions", MaxFunctions)
	if err != nil {
		return err
	}
	var total uint64
	for i := uint32(0); i < n; i++ {
		size, err := r.u32()
		if err != nil {
			return err
		}
		// Formatted only on a refusal: this loop runs once per function.
		where := func() string { return fmt.Sprintf("function body %d", i) }
		if size > MaxFunctionBody {
			return &limitError{Name: "function-body-bytes", Value: uint64(size), Max: MaxFunctionBody, Where: where()}
		}
		if uint64(size) > uint64(len(r.b)-r.off) {
			return errMalformed
		}
		body := reader{b: r.b[r.off : r.off+int(size)]}
		r.off += int(size)
		decls, err := body.u32()
		if err != nil {
			return err
		}
		var locals uint64
		for j := uint32(0); j < decls; j++ {
			k, err := body.u32()
			if err != nil {
				return err
			}
			if _, err := body.byte(); err != nil { // value type
				return err
			}
			locals += uint64(k)
			if locals > MaxLocalsPerFunc {
				return &limitError{Name: "locals-per-function", Value: locals, Max: MaxLocalsPerFunc, Where: where()}
			}
		}
		total += locals
		if total > MaxLocalsTotal {
			return &limitError{Name: "locals-total", Value: total, Max: MaxLocalsTotal, Where: "the code section"}
		}
	}
	return nil
}

// reader is a bounds-checked cursor over a byte slice.
type reader struct {
	b   []byte
	off int
}

func (r *reader) byte() (byte, error) {
	if r.off >= len(r.b) {
		return 0, errMalformed
	}
	c := r.b[r.off]
	r.off++
	return c, nil
}

func (r *reader) skip(n int) error {
	if n < 0 || n > len(r.b)-r.off {
		return errMalformed
	}
	r.off += n
	return nil
}

// u32 reads an unsigned LEB128 of at most 5 bytes that fits 32 bits.
func (r *reader) u32() (uint32, error) {
	var v uint64
	for shift := 0; shift < 35; shift += 7 {
		c, err := r.byte()
		if err != nil {
			return 0, err
		}
		v |= uint64(c&0x7f) << shift
		if c&0x80 == 0 {
			if v > 0xffffffff {
				return 0, errMalformed
			}
			return uint32(v), nil
		}
	}
	return 0, errMalformed
}

// count reads a vector length and refuses one over max.
func (r *reader) count(name string, max uint32) (uint32, error) {
	n, err := r.u32()
	if err != nil {
		return 0, err
	}
	if n > max {
		return 0, &limitError{Name: name, Value: uint64(n), Max: uint64(max), Where: "the module"}
	}
	return n, nil
}
