package extension

import (
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/audit"
)

// FuzzParseManifest: whatever the bytes, ParseManifest returns either an
// error or a manifest whose invariants hold.
func FuzzParseManifest(f *testing.F) {
	f.Add(goodManifest)
	f.Add("name: x\nversion: 1\nkind: hook\nartifacts: {tier2: a}\n")
	f.Add("name: x\nversion: 1\nkind: target\nartifacts: {tier1: ../a}\ncapabilities: [net.http]\n")
	f.Add("&a [*a, *a]")
	f.Fuzz(func(t *testing.T, doc string) {
		m, err := ParseManifest(strings.NewReader(doc))
		if err != nil {
			if m != nil {
				t.Fatal("manifest and error")
			}
			return
		}
		if !ValidName(m.Name()) || m.Version() == "" || len(m.Tiers()) == 0 {
			t.Fatalf("accepted an invalid manifest: %+v", m)
		}
		if _, err := audit.NewExtension(m.Name(), m.Version()); err != nil {
			t.Fatalf("accepted a manifest the audit log cannot name: %v", err)
		}
		if _, err := ParseKind(m.Kind().String()); err != nil {
			t.Fatalf("kind %q", m.Kind())
		}
		if _, ok := m.Artifact(Tier1); ok && m.Kind() == KindHook {
			t.Fatal("hook with a tier-1 artifact")
		}
		for _, tier := range m.Tiers() {
			p, _ := m.Artifact(tier)
			if strings.HasPrefix(p.String(), "/") || strings.Contains("/"+p.String()+"/", "/../") {
				t.Fatalf("artifact %q escapes", p)
			}
		}
	})
}
