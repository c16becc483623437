package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// extShippedSDK is one shipped SDK set (scripts/ship-sdks.sh lays it out),
// every path absolute, so a project scaffolded against it builds in any
// directory without a lola checkout and without a network.
type extShippedSDK struct {
	goSDK, schema, host string // the sdk-go, schema and host Go modules
	rust                string // the lola-sdk crate
	asTarball           string // the npm pack tarball of @lola-pm/sdk-assemblyscript
}

// extFindShippedSDK returns the shipped SDK named by flag, else by
// $LOLA_SDK, else sdk/ beside the lola executable; nil (no error) when none
// was named and none ships beside lola. A named directory that is not a
// complete SDK set is an error: falling back silently would scaffold
// against something the author did not choose.
func extFindShippedSDK(flag string) (*extShippedSDK, error) {
	named, source := flag, "--sdk "+flag
	if named == "" {
		named, source = os.Getenv("LOLA_SDK"), "$LOLA_SDK"
	}
	if named != "" {
		s, err := extShippedSDKAt(named)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", source, err)
		}
		return s, nil
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, nil
	}
	if exe, err = filepath.EvalSymlinks(exe); err != nil {
		return nil, nil
	}
	s, err := extShippedSDKAt(filepath.Join(filepath.Dir(exe), "sdk"))
	if err != nil {
		return nil, nil
	}
	return s, nil
}

// extShippedSDKAt checks dir holds all three SDKs.
func extShippedSDKAt(dir string) (*extShippedSDK, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	s := &extShippedSDK{
		goSDK:  filepath.Join(abs, "go", "sdk-go"),
		schema: filepath.Join(abs, "go", "schema"),
		host:   filepath.Join(abs, "go", "host"),
		rust:   filepath.Join(abs, "rust"),
	}
	if !extIsSDKGo(s.goSDK) {
		return nil, fmt.Errorf("%s holds no go/sdk-go (module %s)", dir, extSDKGoModule)
	}
	for _, m := range []string{s.schema, s.host} {
		if _, err := os.Stat(filepath.Join(m, "go.mod")); err != nil {
			return nil, fmt.Errorf("%s holds no go/%s module", dir, filepath.Base(m))
		}
	}
	if _, err := os.Stat(filepath.Join(s.rust, "Cargo.toml")); err != nil {
		return nil, fmt.Errorf("%s holds no rust/Cargo.toml", dir)
	}
	tgz, _ := filepath.Glob(filepath.Join(abs, "assemblyscript", "lola-pm-sdk-assemblyscript-*.tgz"))
	if len(tgz) != 1 {
		return nil, errors.New(dir + " holds not exactly one assemblyscript/lola-pm-sdk-assemblyscript-*.tgz")
	}
	s.asTarball = tgz[0]
	return s, nil
}

// extSeedGoSum writes the new Go project's go.sum as the union of the
// SDK modules' own go.sum files (checksums this lola was built and tested
// with), so the `go mod tidy` that follows needs neither the module proxy
// nor the checksum database for them; tidy then drops what is not needed.
func extSeedGoSum(dir string, d extTemplateData) error {
	seen := map[string]bool{}
	var out []byte
	mods := []string{d.SDKGo, d.Schema, d.Host}
	if d.SDKGo != "" {
		// lolatest is its own module inside sdk-go (it requires host; sdk-go does not).
		mods = append(mods, d.SDKGo+"/lolatest")
	}
	for _, m := range mods {
		if m == "" {
			continue
		}
		p := filepath.FromSlash(m)
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		b, err := os.ReadFile(filepath.Join(p, "go.sum"))
		if err != nil {
			continue // a module without dependencies has no go.sum
		}
		for _, line := range strings.SplitAfter(string(b), "\n") {
			if strings.TrimSpace(line) == "" || seen[line] {
				continue
			}
			seen[line] = true
			out = append(out, line...)
			if !strings.HasSuffix(line, "\n") {
				out = append(out, '\n')
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	return os.WriteFile(filepath.Join(dir, "go.sum"), out, 0o644)
}
