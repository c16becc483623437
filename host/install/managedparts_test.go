package install

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/pipeline"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// The rules of managedparts.go, one attack or one allowed change each: a
// rule that is removed makes its attack pass and this test fail.
func TestManagedPartsRules(t *testing.T) {
	const mcp = ".mcp.json"
	user := `{
  "theme": "dark",
  "mcpServers": {
    "mine": {"command": "my-server"}
  }
}
`
	parts := managedParts{
		owned:   map[string]map[string]bool{mcp: {"lola-owned": true}},
		brought: map[string]bool{"fresh": true, "mine": true, "lola-owned": true},
		created: map[string]bool{"created.json": true, "CREATED.md": true},
	}
	rewrites := []struct {
		name          string
		before, after string
		existed       bool
		refused       string // a word of the reason; "" when allowed
	}{
		{name: "module server added beside the user's", existed: true, before: user,
			after: `{"theme":"dark","mcpServers":{"mine":{"command":"my-server"},"fresh":{"command":"x"}}}`},
		{name: "re-indented, nothing else", existed: true, before: user,
			after: `{"theme": "dark", "mcpServers": {"mine": {"command": "my-server"}}}`},
		{name: "module server named like the user's", existed: true, before: user,
			after: `{"theme":"dark","mcpServers":{"mine":{"command":"evil"}}}`, refused: "not even with --force"},
		{name: "user's server deleted", existed: true, before: user,
			after: `{"theme":"dark","mcpServers":{}}`, refused: `"mine" is the user's`},
		{name: "a server the module does not bring", existed: true, before: user,
			after: `{"theme":"dark","mcpServers":{"mine":{"command":"my-server"},"other":{}}}`, refused: `"other" is the user's`},
		{name: "user's setting changed", existed: true, before: user,
			after: `{"theme":"light","mcpServers":{"mine":{"command":"my-server"}}}`, refused: `"theme" is the user's setting`},
		{name: "user's setting dropped", existed: true, before: user,
			after: `{"mcpServers":{"mine":{"command":"my-server"}}}`, refused: `"theme"`},
		{name: "setting added", existed: true, before: user,
			after: `{"theme":"dark","evil":true,"mcpServers":{"mine":{"command":"my-server"}}}`, refused: `"evil"`},
		{name: "$schema added to the user's file", existed: true, before: user,
			after: `{"$schema":"x","theme":"dark","mcpServers":{"mine":{"command":"my-server"}}}`, refused: `"$schema"`},
		{name: "$schema in a file lola creates", after: `{"$schema":"x","mcp":{"fresh":{}}}`},
		{name: "owned server replaced", existed: true, before: `{"mcpServers":{"lola-owned":{"v":1},"mine":{}}}`,
			after: `{"mcpServers":{"lola-owned":{"v":2},"mine":{}}}`},
		{name: "owned server removed", existed: true, before: `{"mcpServers":{"lola-owned":{"v":1},"mine":{}}}`,
			after: `{"mcpServers":{"mine":{}}}`},
		{name: "repeated member smuggles a second value", existed: true, before: user,
			after: `{"theme":"dark","theme":"light","mcpServers":{"mine":{"command":"my-server"}}}`, refused: `"theme"`},
		{name: "user's file is not plain JSON", existed: true, before: "{\n  // mine\n}\n",
			after: `{"mcpServers":{"fresh":{}}}`, refused: "no JSON object"},
		{name: "target writes no object", existed: true, before: user, after: `[1]`, refused: "not one JSON object"},
		{name: "target writes trailing data", existed: true, before: user, after: user + "{}", refused: "not one JSON object"},
	}
	for _, c := range rewrites {
		t.Run("rewrite/"+c.name, func(t *testing.T) {
			why := parts.jsonRewrite(mcp, []byte(c.before), c.existed, []byte(c.after))
			check(t, why, c.refused)
		})
	}
	deletes := []struct {
		name, path, before, refused string
	}{
		{name: "created, lola's part gone", path: "created.json", before: `{"$schema":"x","mcp":{}}`},
		{name: "created, only owned servers", path: "created.json", before: `{"mcpServers":{"o":{}}}`, refused: `"o" is the user's`},
		{name: "created, user added a server", path: "created.json", before: `{"mcpServers":{"mine":{}}}`, refused: `"mine"`},
		{name: "created, user added a setting", path: "created.json", before: `{"theme":"dark"}`, refused: `"theme"`},
		{name: "the user's file, however empty", path: mcp, before: `{}`, refused: "before lola wrote"},
		{name: "created text", path: "CREATED.md", before: "# lola\n"},
		{name: "the user's text", path: "CLAUDE.md", before: "", refused: "before lola wrote"},
	}
	for _, c := range deletes {
		t.Run("delete/"+c.name, func(t *testing.T) {
			var why string
			if isJSON(c.path) {
				why = parts.jsonDelete(c.path, []byte(c.before))
			} else {
				why = parts.textDelete(c.path)
			}
			check(t, why, c.refused)
		})
	}
	owned := managedParts{owned: map[string]map[string]bool{"created.json": {"o": true}}, created: parts.created}
	if why := owned.jsonDelete("created.json", []byte(`{"mcpServers":{"o":{}}}`)); why != "" {
		t.Errorf("a created file holding only lola's server: %s", why)
	}
}

func check(t *testing.T, why, refused string) {
	t.Helper()
	switch {
	case refused == "" && why != "":
		t.Errorf("refused: %s", why)
	case refused != "" && why == "":
		t.Errorf("allowed; want a refusal naming %s", refused)
	case !strings.Contains(why, refused):
		t.Errorf("reason %q does not name %s", why, refused)
	}
}

// A target that rewrites or deletes the user's part of a managed file is
// refused with conflict.unowned naming that part, with and without
// --force: the tree stays byte-identical, the refusal is audited, and
// nothing is recorded.
func TestHostileTargetCannotTouchTheUsersPartOfManagedFiles(t *testing.T) {
	userMCP := "{\n  \"theme\": \"dark\",\n  \"mcpServers\": {\n    \"mine\": {\"command\": \"my-server\"}\n  }\n}\n"
	cases := []struct {
		name, plan, names string
	}{
		{name: "overwrites the user's server of the module's name",
			plan: `{"op":"write","path":".mcp.json","content":"{\"theme\":\"dark\",\"mcpServers\":{\"mine\":{\"command\":\"evil\"}}}"}`, names: `"mine"`},
		{name: "drops the user's server",
			plan: `{"op":"write","path":".mcp.json","content":"{\"theme\":\"dark\",\"mcpServers\":{}}"}`, names: `"mine"`},
		{name: "changes the user's setting",
			plan: `{"op":"write","path":".mcp.json","content":"{\"theme\":\"light\",\"mcpServers\":{\"mine\":{\"command\":\"my-server\"}}}"}`, names: `"theme"`},
		{name: "deletes the user's config", plan: `{"op":"delete","path":".mcp.json"}`, names: "before lola wrote"},
		{name: "deletes the user's instructions", plan: `{"op":"delete","path":"CLAUDE.md"}`, names: "CLAUDE.md was there before"},
	}
	for _, c := range cases {
		for _, force := range []bool{false, true} {
			name := c.name
			if force {
				name += " with --force"
			}
			t.Run(name, func(t *testing.T) {
				e := newEnv(t)
				e.addModule(t, "sample", map[string]string{
					"skills/alpha/SKILL.md": "---\nname: alpha\ndescription: A\n---\nA\n",
					"mcps.json":             `{"mcpServers":{"mine":{"command":"module-server"}}}`,
				})
				script := filepath.Join(t.TempDir(), "target")
				body := "#!/bin/sh\ncat >/dev/null\ncat <<'PLAN'\n{\"protocol\":1,\"intents\":[" + c.plan + "]}\nPLAN\n"
				if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
					t.Fatal(err)
				}
				e.addTarget(t, "claude-code", map[string]string{"tier2": script}, "paths: [.claude/, CLAUDE.md, .mcp.json]\nmanaged: [CLAUDE.md, .mcp.json]\n")
				writeTree(t, e.project, map[string]string{".mcp.json": userMCP, "CLAUDE.md": "# Mine\n"})
				before := snapshot(t, e.project)
				o := e.options("sample", "claude-code")
				o.Force = force
				rep, err := Install(context.Background(), o)
				if err != nil || rep.Result == nil || rep.Result.Outcome != pipeline.OutcomeRejected {
					t.Fatalf("err = %v, result %+v", err, rep.Result)
				}
				vs := rejection.All(rep.Result.Err)
				if len(vs) != 1 || vs[0].Rule != schema.RuleConflictUnowned || !strings.Contains(vs[0].Detail, c.names) {
					t.Fatalf("rejections %v, want one conflict.unowned naming %s", vs, c.names)
				}
				sameTree(t, "project", snapshot(t, e.project), before)
				if _, err := os.Stat(filepath.Join(e.home, InstalledFile)); err == nil {
					t.Error("installed.yml written")
				}
				if rej := auditOf(t, e.home, rep.Correlation, audit.KindRejected); len(rej) != 1 || rej[0].Rejected.Violations[0].Rule != schema.RuleConflictUnowned {
					t.Errorf("audit rejections %+v", rej)
				}
			})
		}
	}
}
