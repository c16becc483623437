package child_test

import (
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/lola-pm/lola/host/child"
	"github.com/lola-pm/lola/host/plan"
)

func TestOutcomeVocabularyRoundTrips(t *testing.T) {
	seen := map[string]bool{}
	for _, o := range child.Outcomes() {
		s := o.String()
		if s == "" || strings.HasPrefix(s, "outcome(") || seen[s] {
			t.Fatalf("outcome %d has no unique spelling: %q", uint8(o), s)
		}
		seen[s] = true
		b, err := o.MarshalText()
		if err != nil || string(b) != s {
			t.Fatalf("MarshalText(%s) = %q, %v", s, b, err)
		}
		var back child.Outcome
		if err := back.UnmarshalText(b); err != nil || back != o {
			t.Fatalf("UnmarshalText(%q) = %v, %v", b, back, err)
		}
	}
	if len(seen) != 8 {
		t.Fatalf("%d outcomes; update this test together with the vocabulary", len(seen))
	}
	if _, err := child.OutcomeUnknown.MarshalText(); err == nil {
		t.Fatal("the zero outcome marshals")
	}
	var o child.Outcome
	if err := o.UnmarshalText([]byte("killed")); err == nil {
		t.Fatal("an unknown spelling parses")
	}
	for _, o := range child.Outcomes() {
		want := o == child.OutcomePlanReceived || o == child.OutcomeCompleted
		if o.Success() != want {
			t.Fatalf("%s.Success() = %v", o, o.Success())
		}
	}
}

func TestContainmentVocabularyRoundTrips(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range child.Containments() {
		s := c.String()
		if s == "" || strings.HasPrefix(s, "containment(") || seen[s] {
			t.Fatalf("containment %d has no unique spelling: %q", uint8(c), s)
		}
		seen[s] = true
		b, err := c.MarshalText()
		if err != nil || string(b) != s {
			t.Fatalf("MarshalText(%s) = %q, %v", s, b, err)
		}
		var back child.Containment
		if err := back.UnmarshalText(b); err != nil || back != c {
			t.Fatalf("UnmarshalText(%q) = %v, %v", b, back, err)
		}
	}
	want := []string{"cgroup-v2", "subreaper", "job-object", "process-group", "none"}
	for _, w := range want {
		if !seen[w] {
			t.Fatalf("spelling %q missing: it is shown by lola ext info and recorded in the audit log", w)
		}
	}
	if len(seen) != len(want) {
		t.Fatalf("%d containments; update this test together with the vocabulary", len(seen))
	}
	if _, err := child.ContainmentUnknown.MarshalText(); err == nil {
		t.Fatal("the zero containment marshals")
	}
	var c child.Containment
	if err := c.UnmarshalText([]byte("cgroup")); err == nil {
		t.Fatal("an unknown spelling parses")
	}
}

// TestContainmentPerPlatform: each platform reports the containment the
// specification gives it.
func TestContainmentPerPlatform(t *testing.T) {
	got := child.CurrentContainment()
	var ok bool
	switch runtime.GOOS {
	case "linux":
		ok = got == child.ContainmentCgroup || got == child.ContainmentSubreaper
	case "windows":
		ok = got == child.ContainmentJobObject
	default:
		ok = got == child.ContainmentProcessGroup
	}
	if !ok {
		t.Fatalf("containment on %s is %s", runtime.GOOS, got)
	}
	if again := child.CurrentContainment(); again != got {
		t.Fatalf("containment changed from %s to %s", got, again)
	}
}

func TestStdoutModeRoundTrips(t *testing.T) {
	for _, m := range []child.StdoutMode{child.StdoutPlan, child.StdoutDiagnostics} {
		back, ok := child.ParseStdoutMode(m.String())
		if !ok || back != m || m.String() == "" {
			t.Fatalf("mode %d spelled %q parses to %v, %v", uint8(m), m.String(), back, ok)
		}
	}
	if _, ok := child.ParseStdoutMode(""); ok {
		t.Fatal("the empty spelling parses")
	}
}

func TestNewSpecRefusesInvalid(t *testing.T) {
	valid := func() child.Config {
		return child.Config{Path: selfPath(t), Deadline: time.Second, Grace: time.Second,
			StderrCap: 1, Stdout: child.StdoutPlan, Limits: plan.DefaultLimits()}
	}
	if _, err := child.NewSpec(valid()); err != nil {
		t.Fatalf("valid config refused: %v", err)
	}
	cases := map[string]func(*child.Config){
		"relative path":      func(c *child.Config) { c.Path = "lola-ext" },
		"empty path":         func(c *child.Config) { c.Path = "" },
		"zero deadline":      func(c *child.Config) { c.Deadline = 0 },
		"negative deadline":  func(c *child.Config) { c.Deadline = -time.Second },
		"zero grace":         func(c *child.Config) { c.Grace = 0 },
		"zero stderr cap":    func(c *child.Config) { c.StderrCap = 0 },
		"zero limits":        func(c *child.Config) { c.Limits = plan.Limits{} },
		"unknown mode":       func(c *child.Config) { c.Stdout = 0 },
		"hook without cap":   func(c *child.Config) { c.Stdout = child.StdoutDiagnostics },
		"env without equals": func(c *child.Config) { c.Env = []string{"JUSTKEY"} },
		"env with empty key": func(c *child.Config) { c.Env = []string{"=v"} },
		"NUL in an argument": func(c *child.Config) { c.Args = []string{"a\x00b"} },
		"NUL in environment": func(c *child.Config) { c.Env = []string{"K=a\x00b"} },
	}
	for name, mutate := range cases {
		c := valid()
		mutate(&c)
		if _, err := child.NewSpec(c); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
