package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	lola "github.com/lola-pm/lola/sdk-go"
)

func goBuild(t *testing.T, out string, env []string, args ...string) {
	t.Helper()
	cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), append([]string{"build", "-o", out}, args...)...)
	cmd.Env = append(append(os.Environ(), "CGO_ENABLED=0"), env...)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
}

// runWasm is the shim's ABI sequence, in miniature: a fresh instance with
// WASI only, _initialize, version, alloc, run, read the plan.
func runWasm(ctx context.Context, rt wazero.Runtime, mod wazero.CompiledModule, req []byte) ([]byte, int32, error) {
	var stderr bytes.Buffer
	m, err := rt.InstantiateModule(ctx, mod, wazero.NewModuleConfig().WithName("").WithStartFunctions("_initialize").WithStderr(&stderr))
	if err != nil {
		return nil, 0, err
	}
	defer m.Close(ctx)
	call := func(name string, args ...uint64) uint64 {
		if err != nil {
			return 0
		}
		var res []uint64
		res, err = m.ExportedFunction(name).Call(ctx, args...)
		if err != nil || len(res) != 1 {
			err = errors.Join(err, fmt.Errorf("%s failed", name))
			return 0
		}
		return res[0]
	}
	if v := call("lola_abi_version"); err == nil && v != 1 {
		return nil, 0, fmt.Errorf("abi version %d", v)
	}
	ptr := call("lola_alloc", uint64(len(req)))
	if err == nil && !m.Memory().Write(uint32(ptr), req) {
		return nil, 0, errors.New("request does not fit")
	}
	status := int32(call("lola_run", ptr, uint64(len(req))))
	if err != nil || status != 0 {
		return nil, status, errors.Join(err, errors.New(stderr.String()))
	}
	p, n := call("lola_plan_ptr"), call("lola_plan_len")
	b, ok := m.Memory().Read(uint32(p), uint32(n))
	if err != nil || !ok {
		return nil, 0, errors.Join(err, errors.New("plan outside memory"))
	}
	return bytes.Clone(b), 0, nil
}

// TestTierParity builds the target as tier 1 and tier 2 and asserts both
// emit, byte for byte, the plan the in-process run emits, on every testdata
// request; failing requests fail in both tiers with the same status.
func TestTierParity(t *testing.T) {
	dir := t.TempDir()
	native, wasm := filepath.Join(dir, "opencode"), filepath.Join(dir, "opencode.wasm")
	goBuild(t, native, nil, "-trimpath", "-ldflags=-s -w", ".")
	goBuild(t, wasm, []string{"GOOS=wasip1", "GOARCH=wasm"}, "-buildmode=c-shared", "-trimpath", "-ldflags=-s -w", ".")

	ctx := context.Background()
	rt := wazero.NewRuntime(ctx)
	defer rt.Close(ctx)
	wasi_snapshot_preview1.MustInstantiate(ctx, rt)
	mod, err := rt.CompileModule(ctx, mustRead(t, wasm))
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range goldens(t) {
		t.Run(g.name, func(t *testing.T) {
			want, wantStatus, _ := lola.Process(g.request)

			cmd := exec.Command(native)
			cmd.Stdin = bytes.NewReader(g.request)
			var stdout bytes.Buffer
			cmd.Stdout = &stdout
			nativeStatus := int32(0)
			var exit *exec.ExitError
			if err := cmd.Run(); errors.As(err, &exit) {
				nativeStatus = int32(exit.ExitCode())
			} else if err != nil {
				t.Fatal(err)
			}
			wasmPlan, wasmStatus, wasmErr := runWasm(ctx, rt, mod, g.request)
			if wasmStatus == 0 && wasmErr != nil {
				t.Fatal(wasmErr)
			}
			if nativeStatus != int32(wantStatus) || wasmStatus != int32(wantStatus) {
				t.Fatalf("status: in-process %d, tier 2 %d, tier 1 %d", wantStatus, nativeStatus, wasmStatus)
			}
			if !bytes.Equal(stdout.Bytes(), want) || !bytes.Equal(wasmPlan, want) {
				t.Fatalf("plans differ\nin-process %s\ntier 2     %s\ntier 1     %s", want, stdout.Bytes(), wasmPlan)
			}
		})
	}
}
