package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestScaffoldedManifestPointsAtShippedHelp: every template's manifest
// header names its reference as lola commands (the shipped binary holds
// them; a scaffold outside the checkout has no templates/README.md), and
// each prints its topic.
func TestScaffoldedManifestPointsAtShippedHelp(t *testing.T) {
	cmdRE := regexp.MustCompile("`(lola [a-z -]+)`")
	for _, lang := range []string{"go", "rust", "assemblyscript"} {
		body, err := templatesFS.ReadFile("templates/" + lang + "/lola-extension.yaml.tmpl")
		if err != nil {
			t.Fatal(err)
		}
		var header strings.Builder
		for _, line := range strings.Split(string(body), "\n") {
			if !strings.HasPrefix(line, "#") {
				break
			}
			header.WriteString(line + "\n")
		}
		refs := cmdRE.FindAllStringSubmatch(header.String(), -1)
		if len(refs) == 0 || strings.Contains(header.String(), "templates/README.md") {
			t.Errorf("%s: the manifest header names no shipped reference:\n%s", lang, header.String())
		}
		for _, r := range refs {
			code, out, errOut := extCLI(t, strings.Fields(r[1])[1:]...)
			if code != exitOK || len(out) < 500 {
				t.Errorf("%s: %s: exit %d, %d bytes\n%s", lang, r[1], code, len(out), errOut)
			}
		}
	}
}

// TestTargetContractNamesEachSDKsBadRequest: the target contract shows
// how each SDK refuses a bad request, and each SDK in the checkout has
// that API.
func TestTargetContractNamesEachSDKsBadRequest(t *testing.T) {
	for _, c := range []struct{ doc, file, def string }{
		{"lola.BadRequest(", "sdk-go/errors.go", "func BadRequest("},
		{"lola_sdk::Error::bad_request(", "sdk-rust/src/lib.rs", "pub fn bad_request("},
		{"plan.badRequest(", "sdk-assemblyscript/assembly/lola.ts", "  badRequest(detail: string): bool {"},
	} {
		if !strings.Contains(extTargetContractTopic, c.doc) {
			t.Errorf("the target contract does not show %s", c.doc)
		}
		src, err := os.ReadFile(filepath.Join("..", "..", c.file))
		if err != nil || !bytes.Contains(src, []byte(c.def)) {
			t.Errorf("%s does not define %s (%v)", c.file, c.def, err)
		}
	}
	root := newRoot(strings.NewReader(""), io.Discard, io.Discard)
	n := 0
	for _, line := range strings.Split(extTargetContractTopic, "\n") {
		line = strings.TrimSpace(line)
		if i := strings.Index(line, "  "); i >= 0 {
			line = line[:i]
		}
		if !strings.HasPrefix(line, "lola ") || strings.ContainsAny(line, "|;&<>$`[") {
			continue
		}
		args, _ := splitExampleWords(line)
		checkExample(t, root, "ext target-contract", line, args[1:])
		n++
	}
	if n < 3 {
		t.Fatalf("only %d lola lines checked in the target contract", n)
	}
}
