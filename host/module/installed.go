package module

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"go.yaml.in/yaml/v3"
)

// InstalledFile is the install registry under $LOLA_HOME, written by
// `lola install` in today's Lola's shape:
//
//	version: "1.0"
//	installations:
//	  - module: NAME
//	    assistant: claude-code
//	    scope: project
//	    project_path: /path      # absent for user scope
//	    skills: [...]            # and commands, agents, mcps, has_instructions, ...
//
// This package only reads it, and only the fields below; the rest is the
// install command's.
const InstalledFile = "installed.yml"

// installedMax bounds installed.yml.
const installedMax = 16 << 20

// Install is one record of installed.yml.
type Install struct {
	Module      string `yaml:"module"`
	Assistant   string `yaml:"assistant"`
	Scope       string `yaml:"scope"`
	ProjectPath string `yaml:"project_path"`
}

// ReadInstalls reads $LOLA_HOME/installed.yml; a missing file is no
// installs. Unknown fields are ignored: the file belongs to the install
// command, whose records carry more than these.
func ReadInstalls(home string) ([]Install, error) {
	f, err := os.Open(filepath.Join(home, InstalledFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", InstalledFile, stripPath(err))
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, installedMax+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", InstalledFile, stripPath(err))
	}
	if len(b) > installedMax {
		return nil, fmt.Errorf("%s: larger than %d bytes", InstalledFile, installedMax)
	}
	var doc struct {
		Installations []Install `yaml:"installations"`
	}
	if err := yaml.NewDecoder(bytes.NewReader(b)).Decode(&doc); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: %v", InstalledFile, err)
	}
	return doc.Installations, nil
}
