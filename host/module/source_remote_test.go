package module

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/lola-pm/lola/host/remote"
	"github.com/lola-pm/lola/schema"
)

// fakeFetcher answers every fetch with the bytes of one file, as
// host/remote would write a body to dst, and records the request.
type fakeFetcher struct {
	got  remote.FetchRequest
	body string // a file whose bytes are the body
	err  error
}

func (f *fakeFetcher) Fetch(_ context.Context, req remote.FetchRequest, dst *os.File, _ remote.HopObserver) (remote.FetchReport, error) {
	f.got = req
	if f.err != nil {
		return remote.FetchReport{}, f.err
	}
	b, err := os.ReadFile(f.body)
	if err != nil {
		return remote.FetchReport{}, err
	}
	n, err := dst.Write(b)
	return remote.FetchReport{Bytes: int64(n)}, err
}

func archiveOf(t *testing.T, name string, entries []entry) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if filepath.Ext(name) == ".zip" {
		writeZip(t, p, entries)
	} else {
		writeTar(t, p, true, entries)
	}
	return p
}

func TestArchiveURLThroughFetcher(t *testing.T) {
	for _, name := range []string{"team-skills.tar.gz", "team-skills.zip"} {
		t.Run(name, func(t *testing.T) {
			s, _ := newStore(t)
			f := &fakeFetcher{body: archiveOf(t, name, []entry{file("team-skills-1.0/skills/alpha/SKILL.md", "---\ndescription: A\n---\n")})}
			added, err := s.Add(context.Background(), mustSource(t, "https://example.org/r/"+name+"?sig=x"), AddOptions{Fetcher: f})
			if err != nil {
				t.Fatal(err)
			}
			if f.got.Fetch.URL != "https://example.org/r/"+name+"?sig=x" || f.got.Intent.Op != schema.OpFetch || f.got.Extension != "lola mod add" {
				t.Fatalf("fetch request %+v", f.got)
			}
			if f.got.MaxBytes != archiveMax(DefaultBounds()) {
				t.Fatalf("MaxBytes %d; want the archive bound %d", f.got.MaxBytes, archiveMax(DefaultBounds()))
			}
			if added.Module.Name().String() != "team-skills" || added.Fetch == nil || len(added.Module.Layout().Skills) != 1 {
				t.Fatalf("added %+v", added)
			}
		})
	}
}

// TestHostileArchiveURLRefusedAndStoreUntouched: a fetched archive passes
// the same entry rules as a local one.
func TestHostileArchiveURLRefusedAndStoreUntouched(t *testing.T) {
	for _, h := range hostiles {
		t.Run(h.name, func(t *testing.T) {
			s, _ := newStore(t)
			f := &fakeFetcher{body: archiveOf(t, "m.tar.gz", append(append([]entry{}, goodEntries...), h.entries...))}
			_, err := s.Add(context.Background(), mustSource(t, "https://example.org/m.tar.gz"), AddOptions{Fetcher: f})
			assertRule(t, err, h.rule)
			assertStoreEmpty(t, s)
		})
	}
}

func TestArchiveURLRefusals(t *testing.T) {
	s, _ := newStore(t)
	src := mustSource(t, "https://example.org/m.zip")
	if _, err := s.Add(context.Background(), src, AddOptions{}); err == nil {
		t.Fatal("an archive URL without a fetcher was added")
	}
	if _, err := s.Add(context.Background(), src, AddOptions{Fetcher: &fakeFetcher{}, Ref: "v1"}); err == nil {
		t.Fatal("a ref was accepted for an archive URL")
	}
	refused := errors.New("remote.destination: refused")
	if _, err := s.Add(context.Background(), src, AddOptions{Fetcher: &fakeFetcher{err: refused}}); !errors.Is(err, refused) {
		t.Fatalf("got %v", err)
	}
	assertStoreEmpty(t, s)
}
