package lolatest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/lola-pm/lola/schema"
	lola "github.com/lola-pm/lola/sdk-go"
)

// Build builds the extension package pkg (a go build package argument,
// such as ".") as `lola ext build` does: a tier-2 native executable and a
// tier-1 wasip1 c-shared module, trimmed and stripped, without cgo, into
// t's temporary directory. It returns both paths.
func Build(t testing.TB, pkg string) (native, wasm string) {
	t.Helper()
	dir := t.TempDir()
	native, wasm = filepath.Join(dir, "extension"), filepath.Join(dir, "extension.wasm")
	if err := goBuild(native, nil, "-trimpath", "-ldflags=-s -w", pkg); err != nil {
		t.Fatal(err)
	}
	if err := goBuild(wasm, []string{"GOOS=wasip1", "GOARCH=wasm"}, "-buildmode=c-shared", "-trimpath", "-ldflags=-s -w", pkg); err != nil {
		t.Fatal(err)
	}
	return native, wasm
}

func goBuild(out string, env []string, args ...string) error {
	cmd := exec.Command(goTool(), append([]string{"build", "-o", out}, args...)...)
	cmd.Env = append(append(os.Environ(), "CGO_ENABLED=0"), env...)
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build %v: %v\n%s", args, err, b)
	}
	return nil
}

// TierParity builds pkg both ways (Build), checks both builds with
// CheckGuest, and asserts that on every case of dir the tier-2 executable
// (request on stdin, plan on stdout, status as exit code) and the tier-1
// module (run through wazero with WASI only, by the shim's ABI sequence)
// emit byte for byte the plan that the in-process run (lola.Process) emits,
// and end in the same status; a failing request fails in all three. The
// test binary must register the same handler as pkg, as the extension's
// own package main does.
func TierParity(t *testing.T, pkg, dir string) {
	t.Helper()
	native, wasm := Build(t, pkg)
	CheckGuest(t, native, wasm)

	ctx := context.Background()
	rt := wazero.NewRuntime(ctx)
	defer rt.Close(ctx)
	wasi_snapshot_preview1.MustInstantiate(ctx, rt)
	mod, err := rt.CompileModule(ctx, mustRead(t, wasm))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range Cases(t, dir) {
		t.Run(c.Name, func(t *testing.T) {
			want, wantStatus, _ := lola.Process(c.Request)

			cmd := exec.Command(native)
			cmd.Stdin = bytes.NewReader(c.Request)
			var stdout bytes.Buffer
			cmd.Stdout = &stdout
			nativeStatus := int32(0)
			var exit *exec.ExitError
			if err := cmd.Run(); errors.As(err, &exit) {
				nativeStatus = int32(exit.ExitCode())
			} else if err != nil {
				t.Fatal(err)
			}
			wasmPlan, wasmStatus, wasmErr := runWasm(ctx, rt, mod, c.Request)
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
		fn := m.ExportedFunction(name)
		if fn == nil {
			err = fmt.Errorf("the module exports no %s", name)
			return 0
		}
		var res []uint64
		res, err = fn.Call(ctx, args...)
		if err != nil || len(res) != 1 {
			err = errors.Join(err, fmt.Errorf("%s failed", name))
			return 0
		}
		return res[0]
	}
	if v := call("lola_abi_version"); err == nil && v != schema.ABIVersion {
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
