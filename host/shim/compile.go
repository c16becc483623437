package shim

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"

	"github.com/lola-pm/lola/schema/lexical"
)

// engine is a compiled module and the runtime that owns it.
type engine struct {
	rt       wazero.Runtime
	compiled wazero.CompiledModule
	cache    string // "off", "hit", "miss", "recovered", "refused"
}

// runtimeConfig leaves wazero's own memory limit at the wasm32 maximum:
// the ceiling is enforced by ceilingAllocator, which, unlike wazero's
// limit, tells the shim when it refused a growth. A declared minimum over
// the ceiling is refused before compilation (checkDeclarations).
func runtimeConfig(cache wazero.CompilationCache) wazero.RuntimeConfig {
	cfg := wazero.NewRuntimeConfig().
		WithMemoryLimitPages(65536).
		WithCloseOnContextDone(true)
	if cache != nil {
		cfg = cfg.WithCompilationCache(cache)
	}
	return cfg
}

// compile compiles the module within the compile budget and the shim's
// clock (deadline), whichever ends first. With a cache, a
// failure is retried once without it: if the uncached compile succeeds, the
// cached entry was corrupt (wazero checks a magic, its version and a CRC of
// the machine code); the shim's cache directory is purged and the run goes
// on with "recovered". A module that fails both ways is module-invalid.
func compile(wasm []byte, l Limits, deadline time.Time, cache wazero.CompilationCache, cacheDir string) (*engine, *Diagnostic) {
	if cache == nil {
		return compileOnce(wasm, l, deadline, nil)
	}
	before := countEntries(cacheDir)
	e, d := compileOnce(wasm, l, deadline, cache)
	if d == nil {
		e.cache = "hit"
		if countEntries(cacheDir) > before {
			e.cache = "miss"
		}
		return e, nil
	}
	if d.Kind != KindModuleInvalid {
		return nil, d
	}
	e, d2 := compileOnce(wasm, l, deadline, nil)
	if d2 != nil {
		return nil, d
	}
	purgeCache(cacheDir)
	e.cache = "recovered"
	return e, nil
}

func compileOnce(wasm []byte, l Limits, deadline time.Time, cache wazero.CompilationCache) (*engine, *Diagnostic) {
	ctx := context.Background()
	rt := wazero.NewRuntimeWithConfig(ctx, runtimeConfig(cache))
	type result struct {
		m   wazero.CompiledModule
		err error
	}
	done := make(chan result, 1)
	go func() {
		m, err := rt.CompileModule(ctx, wasm)
		done <- result{m, err}
	}()
	budget, clock := l.compileTimeout, false
	if left := time.Until(deadline); left < budget {
		budget, clock = left, true
	}
	timer := time.NewTimer(budget)
	defer timer.Stop()
	select {
	case r := <-done:
		if r.err != nil {
			rt.Close(ctx)
			return nil, &Diagnostic{Kind: KindModuleInvalid, Detail: firstLine(r.err.Error())}
		}
		return &engine{rt: rt, compiled: r.m, cache: "off"}, nil
	case <-timer.C:
		// The compiling goroutine is abandoned: the shim exits next.
		if clock {
			return nil, &Diagnostic{Kind: KindTimeout, Limit: l.timeout.Milliseconds(),
				Detail: "the shim's clock expired during compilation"}
		}
		return nil, &Diagnostic{Kind: KindCompileTimeout, Limit: l.compileTimeout.Milliseconds(),
			Detail: "compilation exceeded its budget"}
	}
}

// The lola ABI, version 1: every export and its type.
var abiExports = []struct {
	name            string
	params, results []api.ValueType
}{
	{"lola_abi_version", nil, []api.ValueType{api.ValueTypeI32}},
	{"lola_alloc", []api.ValueType{api.ValueTypeI32}, []api.ValueType{api.ValueTypeI32}},
	{"lola_run", []api.ValueType{api.ValueTypeI32, api.ValueTypeI32}, []api.ValueType{api.ValueTypeI32}},
	{"lola_plan_ptr", nil, []api.ValueType{api.ValueTypeI32}},
	{"lola_plan_len", nil, []api.ValueType{api.ValueTypeI32}},
}

const wasiModule = "wasi_snapshot_preview1"

// checkShape refuses, before any guest code runs, a module that cannot be
// run under this ABI: one importing anything but WASI preview 1 (the shim
// provides nothing else), a command-style module (its _start runs main and
// exits, closing the instance before any export could be called), or one
// missing an ABI export or memory, or exporting one with the wrong type.
func checkShape(m wazero.CompiledModule) *Diagnostic {
	for _, f := range m.ImportedFunctions() {
		mod, name, _ := f.Import()
		if mod != wasiModule {
			return &Diagnostic{Kind: KindUnsupportedImport, Detail: "imports " + guestName(mod) + "." + guestName(name) + "; the shim provides only " + wasiModule}
		}
	}
	if len(m.ImportedMemories()) > 0 {
		return &Diagnostic{Kind: KindUnsupportedImport, Detail: "imports a memory; the module must define its own"}
	}
	if _, ok := m.ExportedMemories()["memory"]; !ok {
		return &Diagnostic{Kind: KindMissingExport, Export: "memory", Detail: "the lola ABI exchanges buffers through the exported linear memory"}
	}
	exports := m.ExportedFunctions()
	_, hasStart := exports["_start"]
	initFn, hasInit := exports["_initialize"]
	if hasStart && !hasInit {
		return &Diagnostic{Kind: KindCommandModule, Export: "_start",
			Detail: "a command-style module (exports _start, no _initialize) cannot serve the ABI; build a WASI reactor (Go: -buildmode=c-shared)"}
	}
	if hasInit && (len(initFn.ParamTypes()) != 0 || len(initFn.ResultTypes()) != 0) {
		return &Diagnostic{Kind: KindExportSignature, Export: "_initialize", Detail: "want () -> ()"}
	}
	for _, want := range abiExports {
		f, ok := exports[want.name]
		if !ok {
			return &Diagnostic{Kind: KindMissingExport, Export: want.name, Detail: "the lola ABI requires it"}
		}
		if !slices.Equal(f.ParamTypes(), want.params) || !slices.Equal(f.ResultTypes(), want.results) {
			return &Diagnostic{Kind: KindExportSignature, Export: want.name, Detail: "want " + signature(want.params, want.results)}
		}
	}
	return nil
}

func signature(params, results []api.ValueType) string {
	name := func(ts []api.ValueType) string {
		s := make([]string, len(ts))
		for i, t := range ts {
			s[i] = api.ValueTypeName(t)
		}
		return "(" + strings.Join(s, ", ") + ")"
	}
	return name(params) + " -> " + name(results)
}

// guestName renders a name the module chose: quoted and escaped, at most
// 64 bytes of it (lexical.Quote).
func guestName(s string) string { return lexical.Quote(s, 64) }

// firstLine keeps an error's first line (wazero appends a guest stack
// trace), at most 200 bytes.
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 200 {
		s = s[:200]
	}
	return s
}
