package extension

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/lola-pm/lola/host/audit"
)

// RunTarget is what an argument naming an extension to run resolves to.
type RunTarget struct {
	Name     string // what messages and reports show
	Path     string // the artifact, absolute; never shown
	Tier     audit.Tier
	Manifest *Extension // nil for a bare artifact
	// Expect, for an artifact without a host path (a built-in embedded
	// in lola), is the digest of the bytes copied to Path: the run must
	// be held to it (pipeline.Launch.Expect). Cleanup removes the copy;
	// it is nil when there is nothing to remove.
	Expect  *[32]byte
	Cleanup func()
}

// ResolveRun classifies arg: a directory holding a manifest (or, when no
// such file exists, the name of an extension lola knows: built in or under
// home/extensions) runs its preferred built tier; a .wasm file is a bare
// tier-1 module; an executable regular file is a bare tier-2 extension.
//
// It refuses a hook extension (it writes no plan), an unbuilt artifact, a
// file that is not regular, and (outside Windows) a bare native artifact
// without an execute bit. Errors name arg as given.
func ResolveRun(arg, home string) (RunTarget, error) {
	abs, err := filepath.Abs(arg)
	if err != nil {
		return RunTarget{}, err
	}
	name := filepath.Base(abs)
	st, err := os.Stat(abs)
	if err != nil && !strings.ContainsAny(arg, `/\`) && ValidName(arg) {
		cat, derr := Discover(home)
		if derr != nil {
			return RunTarget{}, derr
		}
		e, lerr := cat.Lookup(arg)
		if lerr != nil {
			return RunTarget{}, fmt.Errorf("extension %s: no such file, and %v", arg, lerr)
		}
		return RunTargetOf(e)
	}
	if err != nil {
		return RunTarget{}, fmt.Errorf("extension %s: no such file", arg)
	}
	switch {
	case st.IsDir():
		e, err := Load(abs)
		if err != nil {
			return RunTarget{}, fmt.Errorf("extension %s: %w", arg, err)
		}
		return RunTargetOf(e)
	case !st.Mode().IsRegular():
		return RunTarget{}, fmt.Errorf("extension %s is not a regular file", arg)
	case strings.EqualFold(filepath.Ext(abs), ".wasm"):
		return RunTarget{Name: strings.TrimSuffix(name, filepath.Ext(name)), Path: abs, Tier: audit.TierWasm}, nil
	case runtime.GOOS != "windows" && st.Mode().Perm()&0o111 == 0:
		return RunTarget{}, fmt.Errorf("extension %s is not executable (chmod +x it)", arg)
	}
	return RunTarget{Name: name, Path: abs, Tier: audit.TierNative}, nil
}

// RunTargetOf is the run target of a loaded extension: its preferred tier's
// built artifact. A hook extension and an unbuilt artifact are refused.
func RunTargetOf(e *Extension) (RunTarget, error) {
	if e.Kind() == KindHook {
		return RunTarget{}, fmt.Errorf("extension %s is an install hook: it writes no plan (lola install runs it)", e.Name())
	}
	a, ok := e.Artifact(e.Tier())
	if !ok || !a.Present() {
		return RunTarget{}, fmt.Errorf("extension %s: its %s artifact is not built (lola ext build)", e.Name(), e.Tier())
	}
	if a.HostPath() == "" {
		c, err := CopyArtifact(e, e.Tier())
		if err != nil {
			return RunTarget{}, err
		}
		sum := c.Sum
		return RunTarget{Name: e.Name(), Path: c.Path, Tier: e.AuditTier(), Manifest: e, Expect: &sum, Cleanup: c.Cleanup}, nil
	}
	return RunTarget{Name: e.Name(), Path: a.HostPath(), Tier: e.AuditTier(), Manifest: e}, nil
}
