package lola_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
)

// abiDriver is a minimal in-test stand-in for host/shim: it instantiates a
// reactor with WASI only (no preopens, env or argv), calls _initialize, and
// drives the five lola_* exports. It is not the host; the shim is.
type abiDriver struct {
	rt       wazero.Runtime
	compiled wazero.CompiledModule
}

func newABIDriver(t testing.TB, wasm []byte) *abiDriver {
	t.Helper()
	ctx := context.Background()
	rt := wazero.NewRuntime(ctx)
	t.Cleanup(func() { rt.Close(ctx) })
	wasi_snapshot_preview1.MustInstantiate(ctx, rt)
	compiled, err := rt.CompileModule(ctx, wasm)
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range compiled.ImportedFunctions() {
		if mod, _, _ := imp.Import(); mod != wasi_snapshot_preview1.ModuleName {
			t.Fatalf("module imports %q: the Lola ABI must import only WASI", mod)
		}
	}
	return &abiDriver{rt: rt, compiled: compiled}
}

// instance is one instantiated module with its captured stderr.
type instance struct {
	mod    api.Module
	stderr *bytes.Buffer
}

func (d *abiDriver) instantiate(t testing.TB) *instance {
	t.Helper()
	var stderr bytes.Buffer
	cfg := wazero.NewModuleConfig().WithName("").WithStartFunctions("_initialize").WithStderr(&stderr)
	mod, err := d.rt.InstantiateModule(context.Background(), d.compiled, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mod.Close(context.Background()) })
	return &instance{mod: mod, stderr: &stderr}
}

func (in *instance) call(name string, args ...uint64) (uint64, error) {
	f := in.mod.ExportedFunction(name)
	if f == nil {
		return 0, fmt.Errorf("no export %s", name)
	}
	res, err := f.Call(context.Background(), args...)
	if err != nil {
		return 0, err
	}
	if len(res) != 1 {
		return 0, fmt.Errorf("%s returned %d results", name, len(res))
	}
	return res[0], nil
}

// run does what the shim does for one request: version, alloc, copy, run,
// then copy the plan out. It returns the plan (nil on a failed status).
func (in *instance) run(req []byte) (plan []byte, status int32, err error) {
	v, err := in.call("lola_abi_version")
	if err != nil {
		return nil, 0, err
	}
	if int32(v) != 1 {
		return nil, 0, fmt.Errorf("abi version %d", int32(v))
	}
	ptr, err := in.call("lola_alloc", uint64(len(req)))
	if err != nil {
		return nil, 0, err
	}
	if !in.mod.Memory().Write(uint32(ptr), req) {
		return nil, 0, fmt.Errorf("lola_alloc returned %d, outside memory", ptr)
	}
	st, err := in.call("lola_run", ptr, uint64(len(req)))
	if err != nil {
		return nil, 0, err
	}
	status = int32(st)
	if status != 0 {
		return nil, status, nil
	}
	plan, err = in.planBytes()
	return plan, status, err
}

func (in *instance) planBytes() ([]byte, error) {
	p, err := in.call("lola_plan_ptr")
	if err != nil {
		return nil, err
	}
	n, err := in.call("lola_plan_len")
	if err != nil {
		return nil, err
	}
	b, ok := in.mod.Memory().Read(uint32(p), uint32(n))
	if !ok {
		return nil, fmt.Errorf("plan extent [%d,+%d) outside memory", p, n)
	}
	return bytes.Clone(b), nil
}
