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
// the old copy in node_modules "up to date" (it compares versions, not the
// tarball), so without this a project would build against an SDK older
// than the lola that runs it, while Go and Rust projects (path
// dependencies) see the new one at once. When the tarball's sha512 differs
// from the integrity package-lock.json recorded, or the SDK is not
// installed, the lock's entry and the installed copy are dropped and npm
// install runs first. A dependency that is not a file: tarball, or a
// tarball that is gone, is left to npm.
func extASRefreshSDK(dir string, diag io.Writer) ([]extBuildStep, error) {
	tgz, ok := extASSDKTarball(dir)
	if !ok {
		return nil, nil
	}
	b, err := os.ReadFile(tgz)
	if err != nil {
		return nil, nil
	}
	sum := sha512.Sum512(b)
	want := "sha512-" + base64.StdEncoding.EncodeToString(sum[:])
	installed := filepath.Join(dir, "node_modules", filepath.FromSlash(extASSDKPackage))
	lockPath := filepath.Join(dir, "package-lock.json")
	lock, got := extNpmLockIntegrity(lockPath, "node_modules/"+extASSDKPackage)
	if _, err := os.Stat(filepath.Join(installed, "package.json")); err == nil && got == want {
		return nil, nil
	}
	fmt.Fprintf(diag, "lola: %s in node_modules is not the tarball package.json names (%s); reinstalling it\n", extASSDKPackage, filepath.Base(tgz))
	if lock != nil {
		if pk, ok := lock["packages"].(map[string]any); ok {
			delete(pk, "node_modules/"+extASSDKPackage)
		}
		out, err := json.MarshalIndent(lock, "", "  ")
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(lockPath, append(out, '\n'), 0o644); err != nil {
			return nil, fmt.Errorf("rewriting package-lock.json: %w", errors.Unwrap(err))
		}
	}
	if err := os.RemoveAll(installed); err != nil {
		return nil, fmt.Errorf("removing the stale %s: %w", extASSDKPackage, errors.Unwrap(err))
	}
	return []extBuildStep{{args: extNpmInstall}}, nil
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

// extNpmLockIntegrity reads package-lock.json (nil when absent or not
// JSON) and the integrity it records for key under "packages".
func extNpmLockIntegrity(path, key string) (map[string]any, string) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, ""
	}
	var lock map[string]any
	if json.Unmarshal(b, &lock) != nil {
		return nil, ""
	}
	pk, _ := lock["packages"].(map[string]any)
	ent, _ := pk[key].(map[string]any)
	integrity, _ := ent["integrity"].(string)
	return lock, integrity
}
