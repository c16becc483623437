package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// An AssemblyScript project keeps building against the SDK tarball its
// package.json names, not a stale copy npm calls "up to date": after the
// tarball changes under the same name and version (lola rebuilt or
// upgraded), ext build reinstalls it before building; an unchanged
// tarball is not reinstalled.
func TestExtBuildRefreshesAStaleAssemblyScriptSDK(t *testing.T) {
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("npm is not installed")
	}
	shipped := extTestShippedSDK(t)
	sdk := filepath.Join(t.TempDir(), "sdk")
	if err := os.CopyFS(sdk, os.DirFS(shipped)); err != nil {
		t.Fatal(err)
	}
	t.Setenv("LOLA_HOME", t.TempDir())
	dir := filepath.Join(t.TempDir(), "stale-as")
	if code, out, errOut := extCLI(t, "ext", "new", "--lang", "assemblyscript", "--sdk", sdk, "stale-as", dir); code != exitOK {
		t.Fatalf("ext new: %d\n%s%s", code, out, errOut)
	}
	tgzs, _ := filepath.Glob(filepath.Join(sdk, "assemblyscript", "*.tgz"))
	if len(tgzs) != 1 {
		t.Fatalf("tarballs %v", tgzs)
	}
	addToTarball(t, tgzs[0], "package/LOLA_TEST_MARKER", "new SDK\n")
	code, out, errOut := extCLI(t, "ext", "build", "--tier", "1", dir)
	if code != exitOK || !strings.Contains(errOut, "reinstalling it") {
		t.Fatalf("ext build after the tarball changed: %d\n%s%s", code, out, errOut)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "node_modules", "@lola-pm", "sdk-assemblyscript", "LOLA_TEST_MARKER")); err != nil || string(b) != "new SDK\n" {
		t.Fatalf("the build used the stale SDK: %v", err)
	}
	code, out, errOut = extCLI(t, "ext", "build", "--tier", "1", dir)
	if code != exitOK || strings.Contains(errOut, "reinstalling") {
		t.Fatalf("an unchanged SDK was reinstalled: %d\n%s%s", code, out, errOut)
	}
	// A tarball npm cannot install: the build fails, and the author's
	// package-lock.json and installed SDK are exactly as they were.
	lock, _ := os.ReadFile(filepath.Join(dir, "package-lock.json"))
	if err := os.WriteFile(tgzs[0], []byte("not a tarball"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = extCLI(t, "ext", "build", "--tier", "1", dir)
	if code == exitOK || !strings.Contains(errOut, "are as they were") {
		t.Fatalf("ext build with a broken SDK tarball: %d\n%s%s", code, out, errOut)
	}
	if after, _ := os.ReadFile(filepath.Join(dir, "package-lock.json")); string(after) != string(lock) {
		t.Fatal("a failed reinstall left package-lock.json changed")
	}
	if b, err := os.ReadFile(filepath.Join(dir, "node_modules", "@lola-pm", "sdk-assemblyscript", "LOLA_TEST_MARKER")); err != nil || string(b) != "new SDK\n" {
		t.Fatalf("a failed reinstall lost the installed SDK: %v", err)
	}
}

// addToTarball rewrites the .tgz at path with one more regular file.
func addToTarball(t *testing.T, path, name, content string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(tw, tr); err != nil {
			t.Fatal(err)
		}
	}
	f.Close()
	if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(content)), Typeflag: tar.TypeReg}); err != nil {
		t.Fatal(err)
	}
	tw.Write([]byte(content))
	tw.Close()
	zw.Close()
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
