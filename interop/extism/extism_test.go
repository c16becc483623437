package extism

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	extism "github.com/extism/go-sdk"
)

const (
	sdkDir     = "../../sdk-go"
	vectorsDir = "../../schema/vectors/requests"
)

func goBuild(t *testing.T, out string, env []string, args ...string) {
	t.Helper()
	cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), append([]string{"build", "-o", out}, args...)...)
	cmd.Dir = sdkDir
	cmd.Env = append(append(os.Environ(), "CGO_ENABLED=0"), env...)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", strings.Join(args, " "), err, b)
	}
}

// TestFixtureUnderExtismHost runs the fixture's Extism build under Extism's
// Go host on every request vector in one plugin instance (repeated calls)
// and compares each plan, byte for byte, with the Lola tier-2 build's; a
// failing vector must fail under Extism too, with the rule in the error.
func TestFixtureUnderExtismHost(t *testing.T) {
	dir := t.TempDir()
	wasm := filepath.Join(dir, "fixture-extism.wasm")
	native := filepath.Join(dir, "fixture")
	goBuild(t, wasm, []string{"GOOS=wasip1", "GOARCH=wasm"}, "-tags", "extism", "-buildmode=c-shared", "-trimpath", "-ldflags=-s -w", "./internal/fixture")
	goBuild(t, native, nil, "-trimpath", "-ldflags=-s -w", "./internal/fixture")

	ctx := context.Background()
	manifest := extism.Manifest{Wasm: []extism.Wasm{extism.WasmFile{Path: wasm}}}
	plugin, err := extism.NewPlugin(ctx, manifest, extism.PluginConfig{EnableWasi: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer plugin.Close(ctx)

	reqs, _ := filepath.Glob(filepath.Join(vectorsDir, "*.request.json"))
	if len(reqs) == 0 {
		t.Fatal("no request vectors")
	}
	for _, r := range reqs {
		name := strings.TrimSuffix(filepath.Base(r), ".request.json")
		t.Run(name, func(t *testing.T) {
			req, err := os.ReadFile(r)
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(native)
			cmd.Stdin = bytes.NewReader(req)
			var want bytes.Buffer
			cmd.Stdout = &want
			nativeErr := cmd.Run()

			status, got, callErr := plugin.Call("run", req)
			failure, _ := os.ReadFile(filepath.Join(vectorsDir, name+".failure.json"))
			if failure != nil {
				var f struct {
					Status uint32 `json:"status"`
					Rule   string `json:"rule"`
				}
				if err := json.Unmarshal(failure, &f); err != nil {
					t.Fatal(err)
				}
				var exit *exec.ExitError
				if !errors.As(nativeErr, &exit) || uint32(exit.ExitCode()) != f.Status {
					t.Fatalf("native: %v, want exit %d", nativeErr, f.Status)
				}
				if callErr == nil || status != f.Status || !strings.Contains(callErr.Error(), f.Rule) {
					t.Fatalf("extism: status %d err %v, want status %d naming %q", status, callErr, f.Status, f.Rule)
				}
				return
			}
			if nativeErr != nil || callErr != nil || status != 0 {
				t.Fatalf("native %v; extism status %d err %v", nativeErr, status, callErr)
			}
			if !bytes.Equal(got, want.Bytes()) {
				t.Fatalf("plans differ\nextism %s\nnative %s", got, want.Bytes())
			}
		})
	}
}
