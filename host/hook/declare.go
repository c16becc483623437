package hook

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/lola-pm/lola/host/internal/strictyaml"
)

// maxModuleConfig bounds lola.yaml: it is module input, not trusted.
const maxModuleConfig = 64 << 10

// Declared is the hook scripts a module declares, per point, as written
// (module-relative; not yet resolved).
type Declared struct {
	scripts map[Point]string
}

// Script returns the script declared for p, or "" when none.
func (d Declared) Script(p Point) string { return d.scripts[p] }

// With returns d with p's script replaced by script (the CLI's
// --pre-install / --post-install, which win over lola.yaml). An empty
// script leaves d unchanged.
func (d Declared) With(p Point, script string) Declared {
	if script == "" {
		return d
	}
	out := Declared{scripts: map[Point]string{}}
	for k, v := range d.scripts {
		out.scripts[k] = v
	}
	out.scripts[p] = script
	return out
}

type moduleConfig struct {
	Hooks map[string]string `yaml:"hooks"`
}

// LoadDeclared reads the hooks a module declares in contentDir/lola.yaml or
// contentDir/lola.yml. No file means no hooks. The file is strict: an
// unknown key, an unknown hook point, both spellings present, or a file
// over 64 KiB is an error naming what is wrong.
func LoadDeclared(contentDir string) (Declared, error) {
	d := Declared{scripts: map[Point]string{}}
	var found string
	var f *os.File
	defer func() {
		if f != nil {
			f.Close()
		}
	}()
	for _, name := range []string{"lola.yaml", "lola.yml"} {
		g, err := os.Open(filepath.Join(contentDir, name))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return d, fmt.Errorf("module %s: cannot open", name)
		}
		if f != nil {
			g.Close()
			return d, fmt.Errorf("module has both %s and %s; keep one", found, name)
		}
		found, f = name, g
	}
	if f == nil {
		return d, nil
	}
	var mc moduleConfig
	if err := strictyaml.Decode(f, maxModuleConfig, &mc); err != nil && !errors.Is(err, strictyaml.ErrEmpty) {
		return d, fmt.Errorf("module %s: %v", found, err)
	}
	for k, v := range mc.Hooks {
		p, ok := ParsePoint(k)
		if !ok {
			return d, fmt.Errorf("module %s: unknown hook %q (known: pre-install, post-install)", found, k)
		}
		if v == "" {
			return d, fmt.Errorf("module %s: hook %s has an empty script path", found, k)
		}
		d.scripts[p] = v
	}
	return d, nil
}
