//go:build !wasip1

package lolatest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/lola-pm/lola/host/extension"
	"github.com/lola-pm/lola/host/exttest"
	"github.com/lola-pm/lola/schema"
)

// loadManifest parses the extension manifest in dir with the host's own
// parser (its artifacts need not be built). A package without one fails t: its plans could only be held to a
// subset of the host's rules (no path grant, no capabilities), and a
// harness that approves what the host would refuse is worse than none.
func loadManifest(t testing.TB, dir string) *extension.Manifest {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(abs, extension.ManifestFile))
	if err != nil {
		t.Fatalf("no readable %s in %s: lolatest holds each plan to the manifest's capabilities and path grant, as the host does", extension.ManifestFile, abs)
	}
	defer f.Close()
	m, err := extension.ParseManifest(f)
	if err != nil {
		t.Fatalf("%s: %v", extension.ManifestFile, err)
	}
	return m
}

// hostCheck holds an emitted plan to the host's checks, by the host's own
// code (host/exttest.CheckPlan, which `lola ext test` also runs): strict
// decoding, paths, conflicts (same path, nesting, case-fold clashes under
// every relation), the capability set and the path grant.
//
// The scratch root holds the request's current managed files, so a
// compare-and-swap write (if_content) is checked against what the
// extension was handed.
func hostCheck(m *extension.Manifest, request, plan []byte) error {
	var req struct {
		Current []schema.File `json:"current"`
	}
	if err := json.Unmarshal(request, &req); err != nil {
		return fmt.Errorf("the request does not decode: %w", err)
	}
	if err := exttest.CheckPlanFor(context.Background(), m, req.Current, plan); err != nil {
		return fmt.Errorf("the host would refuse this plan: %w", err)
	}
	return nil
}
