package pipeline

import (
	"context"
	"crypto/sha256"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/capability"
	"github.com/lola-pm/lola/host/child"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// An artifact swapped after it was pinned never runs: the launch refuses
// it with extension.changed, and the swapped program's side effect (a
// marker file) never happens. The pinned bytes run, from a private copy.
func TestPinnedLaunchRefusesASwappedArtifact(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "ran")
	good := "cat >/dev/null\nprintf '{\"protocol\":1,\"intents\":[]}'\n"
	ext := script(t, good)
	b, _ := os.ReadFile(ext)
	pin := sha256.Sum256(b)
	caps, _ := capability.Grant(nil)
	req := schema.Request{Protocol: 1, Operation: schema.OperationGenerate, Modules: []schema.Module{}}
	l := Launch{Name: "t", Tier: audit.TierNative, Artifact: ext, Caps: caps, Timeout: 10 * time.Second, Pin: &pin}
	got, err := RunExtension(context.Background(), l, req)
	if err != nil || got.Child.Outcome != child.OutcomePlanReceived {
		t.Fatalf("pinned bytes: %v %v %s", err, got.Child.Outcome, got.Child.Diagnostics)
	}

	if err := os.WriteFile(ext, []byte("#!/bin/sh\ntouch "+marker+"\n"+good), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err = RunExtension(context.Background(), l, req)
	if !errors.Is(err, ErrChanged) {
		t.Fatalf("swapped artifact: %v", err)
	}
	vs := rejection.All(err)
	if len(vs) != 1 || vs[0].Rule != schema.RuleExtensionChanged {
		t.Fatalf("rules %v", vs)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the swapped artifact ran")
	}
}

// The copy that runs is private: a launch runs a path under a fresh 0700
// directory, not the artifact (so a swap between hash and exec cannot win).
func TestPinnedCopyIsPrivate(t *testing.T) {
	ext := script(t, "exit 0\n")
	b, _ := os.ReadFile(ext)
	p, dir, err := pinnedCopy("t", ext, sha256.Sum256(b), true)
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	fi, err := os.Stat(dir)
	if err != nil || fi.Mode().Perm() != 0o700 || p == ext {
		t.Fatalf("dir %v %v, path %s", fi.Mode(), err, p)
	}
	c, _ := os.ReadFile(p)
	if string(c) != string(b) {
		t.Fatal("the copy differs")
	}
}
