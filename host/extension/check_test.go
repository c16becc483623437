package extension

import (
	"errors"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/config"
	"github.com/lola-pm/lola/host/pathrule"
	"github.com/lola-pm/lola/host/plan"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

func TestCheckHoldsAPlanToTheExtensionsAuthority(t *testing.T) {
	dir := mkext(t, t.TempDir(), "name: tgt\nversion: 1\nkind: target\nartifacts: {tier2: x}\npaths: [.claude/, CLAUDE.md]\n", map[string]string{"x": "n"})
	e, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	p, err := plan.Decode(strings.NewReader(`{"protocol":1,"intents":[
 {"op":"write","path":".claude/skills/a/SKILL.md","content":"x"},
 {"op":"fetch","url":"https://example.org/x","dest":".claude/x"},
 {"op":"write","path":"CLAUDE.md","content":"x"},
 {"op":"write","path":".bashrc","content":"x"}]}`), plan.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	err = e.Check(p, nil, pathrule.Bytes)
	if !errors.Is(err, rejection.Rule(schema.RuleCapabilityMissing)) || !errors.Is(err, rejection.Rule(schema.RuleGrantOutside)) {
		t.Fatalf("err = %v", err)
	}
	var got []string
	for _, v := range rejection.All(err) {
		got = append(got, v.Rule.String()+"#"+string(rune('0'+v.Intents[0].Index)))
	}
	if strings.Join(got, " ") != "capability.missing#1 grant.outside#3" {
		t.Fatalf("violations %q", got)
	}
	// The user narrows the grant to skills: CLAUDE.md is now outside too.
	cfg, err := config.Parse(strings.NewReader("extensions:\n  tgt:\n    paths: [.claude/skills/]\n"))
	if err != nil {
		t.Fatal(err)
	}
	got = nil
	for _, v := range rejection.All(e.Check(p, cfg, pathrule.Bytes)) {
		got = append(got, v.Rule.String()+"#"+string(rune('0'+v.Intents[0].Index)))
	}
	if strings.Join(got, " ") != "capability.missing#1 grant.outside#1 grant.outside#2 grant.outside#3" {
		t.Fatalf("narrowed: violations %q", got)
	}
	ok, _ := plan.Decode(strings.NewReader(`{"protocol":1,"intents":[{"op":"write","path":".claude/skills/a/SKILL.md","content":"x"}]}`), plan.DefaultLimits())
	if err := e.Check(ok, cfg, pathrule.Bytes); err != nil {
		t.Fatalf("plan within authority refused: %v", err)
	}
}
