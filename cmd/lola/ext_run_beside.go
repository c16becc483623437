package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/lola-pm/lola/host/extension"
)

// extRunBesideDepth is how many directories up from a bare artifact ext
// run looks for the manifest that declares it (dist/x.wasm -> its
// extension directory, or one more level for target/<triple>/release/x).
const extRunBesideDepth = 4

// extRunAdoptManifest makes the dev loop equal production: a bare
// artifact that an enclosing extension directory's manifest declares (as
// tier1 or tier2) runs as that extension — its capabilities, its path
// grant, its managed files. A bare artifact no manifest declares runs with
// no capability and no path grant beyond the root, and ext run says so in
// one line on w.
func extRunAdoptManifest(ext extension.RunTarget, w io.Writer) extension.RunTarget {
	if ext.Manifest != nil {
		return ext
	}
	dir := filepath.Dir(ext.Path)
	for i := 0; i < extRunBesideDepth; i++ {
		if _, err := os.Lstat(filepath.Join(dir, extension.ManifestFile)); err == nil {
			if e, err := extension.Load(dir); err == nil {
				for _, a := range e.Artifacts() {
					if a.Present() && a.HostPath() == ext.Path && e.Kind() != extension.KindHook {
						fmt.Fprintf(w, "lola: %s is %s's %s artifact: running with its manifest (capabilities, path grant)\n",
							extRunShown(ext.Name), e.Name(), a.Tier())
						return extension.RunTarget{Name: e.Name(), Path: ext.Path, Tier: extension.AuditTier(a.Tier(), e.Kind()), Manifest: e}
					}
				}
			}
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	fmt.Fprintf(w, "lola: %s has no manifest: it runs with no capability (unless --caps) and no path grant beyond the root\n", extRunShown(ext.Name))
	return ext
}
