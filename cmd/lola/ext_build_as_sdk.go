package main

import (
	"bytes"
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// extNpmInstall is how ext new and ext build install a scaffold's npm
// dependencies.
var extNpmInstall = []string{"npm", "install", "--no-audit", "--no-fund", "--loglevel=error"}

// extASSDKPackage is the AssemblyScript SDK's npm name.
const extASSDKPackage = "@lola-pm/sdk-assemblyscript"

// extASRefreshSDK keeps an AssemblyScript project's installed SDK equal
// to the tarball its package.json names. The shipped tarball keeps its
// name and version when lola is rebuilt or upgraded, and npm then calls
// the old copy in node_modules "up to date" (it compares versions, and its
// cache serves the old bytes by the lock's integrity), so without this a
// project would build against an SDK older than the lola that runs it,
// while Go and Rust projects (path dependencies) see the new one at once.
// When the tarball's sha512 differs from the integrity package-lock.json
// recorded, or the SDK is not installed, the lock's entry is dropped, the
// installed copy moved aside, and npm install run. The author's files are
// never lost: if npm fails, package-lock.json is put back byte for byte
// and the old SDK moved back. A dependency that is not a file: tarball, or
// a tarball that is gone, is left to npm.
func extASRefreshSDK(dir string, diag io.Writer) error {
	tgz, ok := extASSDKTarball(dir)
	if !ok {
		return nil
	}
	b, err := os.ReadFile(tgz)
	if err != nil {
		return nil
	}
	sum := sha512.Sum512(b)
	want := "sha512-" + base64.StdEncoding.EncodeToString(sum[:])
	installed := filepath.Join(dir, "node_modules", filepath.FromSlash(extASSDKPackage))
	lockPath := filepath.Join(dir, "package-lock.json")
	lockBytes, lock, got := extNpmLockIntegrity(lockPath, "node_modules/"+extASSDKPackage)
	if _, err := os.Stat(filepath.Join(installed, "package.json")); err == nil && got == want {
		return nil
	}
	fmt.Fprintf(diag, "lola: %s in node_modules is not the tarball package.json names (%s); reinstalling it\n", extASSDKPackage, filepath.Base(tgz))
	if lock != nil {
		delete(lock["packages"].(map[string]any), "node_modules/"+extASSDKPackage)
		out, err := json.MarshalIndent(lock, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(lockPath, append(out, '\n'), 0o644); err != nil {
			return fmt.Errorf("rewriting package-lock.json: %w", errors.Unwrap(err))
		}
	}
	aside := filepath.Join(filepath.Dir(installed), ".sdk-assemblyscript.lola-old")
	os.RemoveAll(aside)
	movedAside := os.Rename(installed, aside) == nil
	if err := extRunStep(dir, extBuildStep{args: extNpmInstall}, diag); err != nil {
		if lockBytes != nil {
			os.WriteFile(lockPath, lockBytes, 0o644)
		}
		if movedAside {
			os.RemoveAll(installed)
			os.Rename(aside, installed)
		}
		return fmt.Errorf("reinstalling %s failed (package-lock.json and node_modules are as they were): %w", extASSDKPackage, err)
	}
	os.RemoveAll(aside)
	return nil
}

// extASSDKTarball is the file: tarball dir's package.json names for the
// SDK, made absolute.
func extASSDKTarball(dir string) (string, bool) {
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return "", false
	}
	var pj struct {
		Dependencies    map[string]string `json:"dependencies"`
		DevDependencies map[string]string `json:"devDependencies"`
	}
	if json.NewDecoder(bytes.NewReader(b)).Decode(&pj) != nil {
		return "", false
	}
	spec := pj.DevDependencies[extASSDKPackage]
	if spec == "" {
		spec = pj.Dependencies[extASSDKPackage]
	}
	p, ok := strings.CutPrefix(spec, "file:")
	if !ok || !(strings.HasSuffix(p, ".tgz") || strings.HasSuffix(p, ".tar.gz")) {
		return "", false
	}
	p = filepath.FromSlash(p)
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	return p, true
}

// extNpmLockIntegrity reads package-lock.json: its bytes and decoded
// form (nil when absent or not a JSON object with "packages") and the
// integrity it records for key there.
func extNpmLockIntegrity(path, key string) ([]byte, map[string]any, string) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, ""
	}
	var lock map[string]any
	if json.Unmarshal(b, &lock) != nil {
		return nil, nil, ""
	}
	pk, ok := lock["packages"].(map[string]any)
	if !ok {
		return nil, nil, ""
	}
	ent, _ := pk[key].(map[string]any)
	integrity, _ := ent["integrity"].(string)
	return b, lock, integrity
}
