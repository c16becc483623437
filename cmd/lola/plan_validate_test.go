package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// validateCLI runs lola plan validate in-process.
func validateCLI(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(append([]string{"plan", "validate"}, args...), strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func writePlanFile(t *testing.T, body string) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "plan.json")
	if err := os.WriteFile(f, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return f
}

const readmePlan = `{"protocol": 1, "intents": [
  {"op": "write", "path": "README.md", "content": "new"},
  {"op": "delete", "path": "Readme.md"}]}`

// decodeValidateJSON parses --json output and checks its shape exactly:
// the two members, and per violation exactly rule, intents and detail.
func decodeValidateJSON(t *testing.T, out string) (valid bool, violations []map[string]json.RawMessage) {
	t.Helper()
	var top map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &top); err != nil {
		t.Fatalf("--json output is not one JSON object: %v\n%s", err, out)
	}
	if len(top) != 2 || top["valid"] == nil || top["violations"] == nil {
		t.Fatalf("--json members %v, want exactly valid and violations", keys(top))
	}
	if err := json.Unmarshal(top["valid"], &valid); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(top["violations"], &violations); err != nil || violations == nil {
		t.Fatalf("violations is not an array: %s", top["violations"])
	}
	for _, v := range violations {
		if len(v) != 3 || v["rule"] == nil || v["intents"] == nil || v["detail"] == nil {
			t.Fatalf("violation members %v, want exactly rule, intents, detail", keys(v))
		}
	}
	return valid, violations
}

func keys(m map[string]json.RawMessage) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestPlanValidateReadmeCollidesWhereTheFilesystemFolds(t *testing.T) {
	f := writePlanFile(t, readmePlan)
	for _, fs := range []string{"darwin", "hfsplus", "windows"} {
		code, out, errOut := validateCLI(t, "", "--fs", fs, "--json", f)
		if code != exitRejected {
			t.Fatalf("--fs %s: exit %d, want %d (stderr %q)", fs, code, exitRejected, errOut)
		}
		valid, vs := decodeValidateJSON(t, out)
		if valid || len(vs) != 1 {
			t.Fatalf("--fs %s: %s", fs, out)
		}
		if string(vs[0]["rule"]) != `"conflict.same-path"` || string(vs[0]["intents"]) != "[0,1]" {
			t.Errorf("--fs %s: violation %s %s", fs, vs[0]["rule"], vs[0]["intents"])
		}
		if strings.Contains(out, filepath.Dir(f)) {
			t.Errorf("--fs %s: report carries the host path of the plan file", fs)
		}
	}
	code, out, _ := validateCLI(t, "", "--fs", "bytes", "--json", f)
	if code != exitOK {
		t.Fatalf("--fs bytes: exit %d: %s", code, out)
	}
	if valid, vs := decodeValidateJSON(t, out); !valid || len(vs) != 0 {
		t.Errorf("--fs bytes: %s", out)
	}
}

func TestPlanValidateReportsEveryViolation(t *testing.T) {
	plan := `{"protocol": 1, "intents": [
	  {"op": "write", "path": "a", "content": ""},
	  {"op": "write", "path": "a/b", "content": ""},
	  {"op": "rename", "from": "../up", "to": "x"},
	  {"op": "delete", "path": "q"},
	  {"op": "fetch", "url": "https://example.org/x", "dest": "q"},
	  {"op": "clone", "url": "https://example.org/r.git", "dest": "CON"}]}`
	code, out, errOut := validateCLI(t, plan, "--fs", "bytes", "-")
	if code != exitRejected {
		t.Fatalf("exit %d, want %d", code, exitRejected)
	}
	want := []string{
		"path.traversal: intent #2 (rename): from: '..' component",
		`path.invalid: intent #5 (clone): dest: component "CON" is a Windows device name`,
		`conflict.nested: intent #0 (write), intent #1 (write): write #1 path "a/b" lies beneath write #0 path "a" under bytes`,
		`conflict.same-path: intent #3 (delete), intent #4 (fetch): delete #3 path "q" and fetch #4 dest "q" are the same path under bytes`,
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("human report:\n%s\nwant:\n%s", out, strings.Join(want, "\n"))
	}
	if !strings.Contains(errOut, "plan rejected: 4 violations") {
		t.Errorf("stderr %q", errOut)
	}
	code, out, _ = validateCLI(t, plan, "--json", "--fs", "bytes", "-")
	if _, vs := decodeValidateJSON(t, out); code != exitRejected || len(vs) != 4 {
		t.Errorf("--json: exit %d, %d violations", code, len(vs))
	}
}

func TestPlanValidatePrintsTheApplyOrder(t *testing.T) {
	plan := `{"protocol": 1, "intents": [
	  {"op": "write", "path": "skills/foo/SKILL.md", "content": "regenerated"},
	  {"op": "rename", "from": "tmp/x", "to": "docs/x"},
	  {"op": "delete", "path": "skills/foo"}]}`
	code, out, _ := validateCLI(t, plan, "--fs", "windows", "-")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, out)
	}
	want := "valid under windows: 3 intents, in apply order:\n" +
		"  1. #2 delete skills/foo\n" +
		"  2. #1 rename tmp/x -> docs/x\n" +
		"  3. #0 write skills/foo/SKILL.md\n"
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

func TestPlanValidateDecodeRefusalIsARejection(t *testing.T) {
	code, out, _ := validateCLI(t, `{"protocol": 1, "intents": [], "extra": true}`, "--json", "-")
	if code != exitRejected {
		t.Fatalf("exit %d, want %d", code, exitRejected)
	}
	_, vs := decodeValidateJSON(t, out)
	if len(vs) != 1 || string(vs[0]["rule"]) != `"plan.unknown-field"` || string(vs[0]["intents"]) != "[]" {
		t.Errorf("%s", out)
	}
	code, _, _ = validateCLI(t, "not json", "-")
	if code != exitRejected {
		t.Errorf("malformed plan: exit %d", code)
	}
}

func TestPlanValidateUsageErrors(t *testing.T) {
	f := writePlanFile(t, readmePlan)
	for _, args := range [][]string{
		{},                  // no FILE
		{f, f},              // two
		{"--fs", "ntfs", f}, // unknown relation
		{"--bogus", f},      // unknown flag
		{filepath.Join(filepath.Dir(f), "missing.json")},
	} {
		if code, _, _ := validateCLI(t, "", args...); code != exitUsage {
			t.Errorf("%q: exit %d, want %d", args, code, exitUsage)
		}
	}
}

func TestPlanValidateAutoIsThePlatformDefault(t *testing.T) {
	f := writePlanFile(t, `{"protocol": 1, "intents": [{"op": "delete", "path": "a"}]}`)
	code, out, _ := validateCLI(t, "", f)
	if code != exitOK || !strings.HasPrefix(out, "valid under ") {
		t.Fatalf("exit %d: %s", code, out)
	}
}

func TestPlanValidateHelpTeaches(t *testing.T) {
	var out bytes.Buffer
	if code := run([]string{"plan", "validate", "--help"}, strings.NewReader(""), &out, &out); code != exitOK {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"Examples:", "--fs darwin", "--json -", "conflict.nested", "hfsplus", "Exit status", "apply order"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("--help lacks %q", want)
		}
	}
}

// TestPlanValidateAgreesWithApplyOnLimitsAndReservedNames: what plan apply
// cannot do, plan validate refuses (exit 3, path.invalid): the host's
// reserved names, a component too long for any filesystem, a path too long
// for PATH_MAX.
func TestPlanValidateAgreesWithApplyOnLimitsAndReservedNames(t *testing.T) {
	for _, path := range []string{
		".lola.lock", ".lola-staging-0123456789abcdef/journal", ".LOLA-STAGING-x",
		strings.Repeat("n", 256), "d/" + strings.Repeat("n", 256) + "/f",
		strings.Repeat("d/", 2047) + "ff",
	} {
		f := writePlanFile(t, `{"protocol": 1, "intents": [{"op": "write", "path": "`+path+`", "content": "x"}]}`)
		code, out, errOut := validateCLI(t, "", "--json", f)
		if code != exitRejected {
			t.Fatalf("%.40s...: exit %d, want %d (%s)", path, code, exitRejected, errOut)
		}
		if _, vs := decodeValidateJSON(t, out); len(vs) != 1 || string(vs[0]["rule"]) != `"path.invalid"` {
			t.Errorf("%.40s...: %s", path, out)
		}
	}
}

// TestPlanValidateDarwinFoldsFully: APFS's full case folding joins ß and
// SS, ﬁ and FI; HFS+'s simple folding does not.
func TestPlanValidateDarwinFoldsFully(t *testing.T) {
	for _, pair := range [][2]string{{"stra\u00dfe", "STRASSE"}, {"\ufb01le", "FILE"}, {"\u0149", "\u02bcn"}} {
		f := writePlanFile(t, `{"protocol": 1, "intents": [{"op": "write", "path": "`+pair[0]+`", "content": "x"}, {"op": "write", "path": "`+pair[1]+`", "content": "y"}]}`)
		if code, out, _ := validateCLI(t, "", "--fs", "darwin", f); code != exitRejected || !strings.Contains(out, "conflict.same-path") {
			t.Errorf("%s/%s under darwin: exit %d, want %d and conflict.same-path: %s", pair[0], pair[1], code, exitRejected, out)
		}
		if code, _, _ := validateCLI(t, "", "--fs", "hfsplus", f); code != exitOK {
			t.Errorf("%s/%s under hfsplus: exit %d, want %d", pair[0], pair[1], code, exitOK)
		}
	}
}
