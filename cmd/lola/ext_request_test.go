package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"text/template"
)

// TestExtRequestFeedsExtRunAsInstallDoes runs the real bin/lola: for a
// built-in target in each SDK's language (claude-code in Go, cursor in
// Rust, gemini-cli in AssemblyScript), `lola ext request` prints the request install sends
// (inventory and the project's managed files included), `lola ext run
// --request` of it into a copy of the project leaves exactly the tree
// `lola install` leaves in the project, and the same for --uninstall. A
// hand-written request without the inventory, which is what an author had
// before, is refused by the target as a bad request.
func TestExtRequestFeedsExtRunAsInstallDoes(t *testing.T) {
	t.Parallel() // self-contained: its own $LOLA_HOME, project and child environment
	exe, _ := builtLola(t)
	for _, assistant := range []string{"claude-code", "cursor", "gemini-cli"} {
		t.Run(assistant, func(t *testing.T) {
			w := newE2EWorld(t, "project")
			src := filepath.Join(w.base, "sample")
			modWriteFiles(t, src, e2eSampleFor("user")) // no hook: ext run runs none
			lola := func(args ...string) string {
				t.Helper()
				r := runBuiltIn(t, exe, w.env(), w.cwd, args...)
				if r.code != 0 {
					t.Fatalf("lola %s: exit %d\n%s%s", strings.Join(args, " "), r.code, r.out, r.err)
				}
				return r.out
			}
			lola("mod", "add", src)
			runRoot := filepath.Join(w.base, "run-root")
			modWriteFiles(t, runRoot, e2eUser)

			for _, op := range []string{"install", "uninstall"} {
				args := atProject([]string{"ext", "request", "sample", "-a", assistant}, w.project)
				if op == "uninstall" {
					args = append(args, "--uninstall")
				}
				req := filepath.Join(w.base, op+".request.json")
				if err := os.WriteFile(req, []byte(lola(args...)), 0o644); err != nil {
					t.Fatal(err)
				}
				body, _ := os.ReadFile(req)
				if !strings.Contains(string(body), `"inventory":{`) || !strings.Contains(string(body), `"operation":"`+op+`"`) {
					t.Fatalf("%s request:\n%s", op, body)
				}
				lola("ext", "run", "--timeout", "2m", "--root", runRoot, "--request", req, assistant)
				lola(atProject([]string{op, "sample", "-a", assistant}, w.project)...)
				got, want := e2eTree(t, runRoot), e2eTree(t, w.project)
				if op == "uninstall" {
					// The plan deletes files; lola uninstall then removes
					// the directories its install created (installed.yml),
					// which ext run knows nothing of.
					got, want = filesOnly(got), filesOnly(want)
				}
				if d := e2eTreeDiff(want, got); d != "" {
					t.Fatalf("after %s, ext run of the printed request and lola %s differ:\n  %s", op, op, d)
				}
			}

			if assistant == "claude-code" {
				hand := filepath.Join(w.base, "hand.request.json")
				os.WriteFile(hand, []byte(`{"protocol":1,"operation":"install","modules":[{"name":"sample","files":[{"path":"skills/alpha/SKILL.md","content":"# Alpha\n"}]}]}`), 0o644)
				r := runBuiltIn(t, exe, w.env(), w.cwd, "ext", "run", "--root", t.TempDir(), "--request", hand, assistant)
				if r.code != exitExtension || !strings.Contains(r.err, "inventory") {
					t.Fatalf("a hand-written request without inventory: exit %d\n%s", r.code, r.err)
				}
			}
		})
	}
}

// filesOnly drops e2eTree's directory entries (their keys end in "/").
func filesOnly(tree map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range tree {
		if !strings.HasSuffix(k, "/") {
			out[k] = v
		}
	}
	return out
}

// TestTemplateRequestsAreWhatLolaSends: each template's golden requests
// (testdata/install.request.json, uninstall.request.json) are byte for
// byte what `lola ext request demo -a NAME [--uninstall]` prints for the
// module they describe, with the scaffolded manifest linked as NAME: the
// inventory, assistant and scope included, as a hand-written request had
// none of them.
func TestTemplateRequestsAreWhatLolaSends(t *testing.T) {
	const name = "my-target"
	base := t.TempDir()
	home, project := filepath.Join(base, "home"), filepath.Join(base, "project")
	os.MkdirAll(project, 0o755)
	demo := filepath.Join(base, "demo")
	modWriteFiles(t, demo, map[string]string{"skills/demo/SKILL.md": "Hello."})
	if code, _, errOut := extLsLola(t, home, "mod", "add", demo); code != exitOK {
		t.Fatalf("mod add: %d %s", code, errOut)
	}
	data := extTemplateData{Name: name, Module: name, CrateIdent: "my_target"}
	render := func(lang, file string) string {
		t.Helper()
		body, err := templatesFS.ReadFile("templates/" + lang + "/" + file)
		if err != nil {
			t.Fatal(err)
		}
		var out strings.Builder
		if err := template.Must(template.New(file).Option("missingkey=error").Parse(string(body))).Execute(&out, data); err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	for _, lang := range []string{"go", "rust", "assemblyscript"} {
		t.Run(lang, func(t *testing.T) {
			dir := filepath.Join(base, "ext-"+lang)
			modWriteFiles(t, dir, map[string]string{
				"lola-extension.yaml":    render(lang, "lola-extension.yaml.tmpl"),
				"dist/" + name + ".wasm": "\x00asm", // linked, never run
			})
			if code, _, errOut := extLsLola(t, home, "ext", "link", dir); code != exitOK {
				t.Fatalf("ext link: %d %s", code, errOut)
			}
			defer extLsLola(t, home, "ext", "rm", name)
			for file, extra := range map[string][]string{"install.request.json.tmpl": nil, "uninstall.request.json.tmpl": {"--uninstall"}} {
				args := append([]string{"ext", "request", "demo", "-a", name, project}, extra...)
				code, out, errOut := extLsLola(t, home, args...)
				if code != exitOK {
					t.Fatalf("ext request: %d %s", code, errOut)
				}
				if want := render(lang, "testdata/"+file); out != want {
					t.Errorf("templates/%s/testdata/%s is not what lola sends:\nthe file %s\nlola     %s", lang, file, want, out)
				}
			}
		})
	}
}
