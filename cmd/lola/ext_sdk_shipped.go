package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// extShippedSDK is one shipped SDK set (scripts/ship-sdks.sh lays it out),
// every path absolute, so a project scaffolded against it builds in any
// directory without a lola checkout and without a network.
type extShippedSDK struct {
	goSDK, schema string // the sdk-go and schema Go modules
	rust          string // the lola-sdk crate
	asTarball     string // the npm pack tarball of @lola-pm/sdk-assemblyscript
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
		rust:   filepath.Join(abs, "rust"),
	}
	if !extIsSDKGo(s.goSDK) {
		return nil, fmt.Errorf("%s holds no go/sdk-go (module %s)", dir, extSDKGoModule)
	}
	if _, err := os.Stat(filepath.Join(s.schema, "go.mod")); err != nil {
		return nil, fmt.Errorf("%s holds no go/schema module", dir)
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
