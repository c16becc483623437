package fsroot

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// Every member of the table of known filesystems renders a name of its
// own, has one f_type, and classifies as its rule says; an f_type not in
// the table falls back to "inconclusive", naming the number.
func TestFSTypeTableRendersEveryMember(t *testing.T) {
	names, magics := map[string]bool{}, map[uint32]bool{}
	clear := func() (uint32, error) { return 0, nil }
	for _, ft := range fsTypes {
		if ft.name == "" || names[ft.name] || magics[ft.magic] {
			t.Fatalf("entry %#x %q: empty or repeated", ft.magic, ft.name)
		}
		names[ft.name], magics[ft.magic] = true, true
		if (ft.rule == fsUnknowable) != (ft.why != "") {
			t.Fatalf("%s: a reason is given exactly for an unknowable entry", ft.name)
		}
		if ft.rule != fsFixed && ft.findings != (Findings{}) {
			t.Fatalf("%s: findings on an entry whose rule decides them", ft.name)
		}
		in := classify(ft.magic, clear, clear)
		if in.FS != ft.name {
			t.Fatalf("%#x renders as %q, want %q", ft.magic, in.FS, ft.name)
		}
		if in.Conclusive != (ft.rule != fsUnknowable) || in.Conclusive && in.Findings != ft.findings || !in.Conclusive && in.Why != ft.why {
			t.Fatalf("%s: %+v", ft.name, in)
		}
	}
	in := classify(0x1234, clear, clear)
	if in.Conclusive || in.Findings != (Findings{}) || in.FS != "unknown (f_type 0x1234)" || !strings.Contains(in.Why, in.FS) {
		t.Fatalf("an unknown f_type: %+v", in)
	}
}

// A casefolded directory, an unreadable flag and an ASCII-CI XFS are what
// keep a known filesystem from being byte-exact.
func TestFSTypeTableFlags(t *testing.T) {
	flags := func(v uint32, err error) func() (uint32, error) { return func() (uint32, error) { return v, err } }
	fail := flags(0, unix.ENOTTY)
	for _, ft := range fsTypes {
		switch ft.rule {
		case fsCasefoldable:
			if in := classify(ft.magic, flags(0x80000|fsCasefoldFL, nil), fail); in.Conclusive || !in.Findings.CasefoldFlag || !strings.Contains(in.Why, "casefolded") {
				t.Fatalf("%s, casefolded: %+v", ft.name, in)
			}
			in := classify(ft.magic, fail, fail)
			if ft.name == "tmpfs" {
				if !in.Conclusive || in.Findings != (Findings{}) {
					t.Fatalf("tmpfs on a kernel without FS_IOC_GETFLAGS: %+v", in)
				}
			} else if in.Conclusive {
				t.Fatalf("%s, flag unreadable: %+v", ft.name, in)
			}
		case fsXFS:
			if in := classify(ft.magic, fail, flags(0x7fcecb|xfsGeomFlagsDirV2CI, nil)); !in.Conclusive || !in.Findings.CaseInsensitive {
				t.Fatalf("ASCII-CI xfs: %+v", in)
			}
			if in := classify(ft.magic, fail, flags(0x7fcecb, nil)); !in.Conclusive || in.Findings != (Findings{}) {
				t.Fatalf("xfs: %+v", in)
			}
			if in := classify(ft.magic, fail, fail); in.Conclusive {
				t.Fatalf("xfs, geometry unreadable: %+v", in)
			}
		}
	}
}

// Inspect of a directory here (ext4 or tmpfs without casefold, the test
// machines' filesystems) is conclusive and byte-exact, and it writes
// nothing: not an entry, not a modification or change time.
func TestInspectWritesNothing(t *testing.T) {
	dirs := []string{t.TempDir()}
	if d, err := os.MkdirTemp("/dev/shm", "lola-inspect-"); err == nil {
		defer os.RemoveAll(d)
		dirs = append(dirs, d)
	}
	for _, dir := range dirs {
		r, err := Open(dir)
		must(t, err)
		before := dirTimes(t, dir)
		in := Inspect(r.Dir())
		r.Close()
		if !in.Conclusive {
			t.Skipf("%s is on a filesystem Inspect does not know: %s", dir, in.Why)
		}
		if in.Findings != (Findings{}) {
			t.Fatalf("%s (%s): %+v", dir, in.FS, in)
		}
		if after := dirTimes(t, dir); after != before {
			t.Fatalf("Inspect changed %s: %s -> %s", dir, before, after)
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 0 {
			t.Fatalf("Inspect left %v", ents)
		}
	}
}

func dirTimes(t *testing.T, p string) string {
	t.Helper()
	var st unix.Stat_t
	if err := unix.Lstat(p, &st); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("mtime %d.%09d ctime %d.%09d", st.Mtim.Sec, st.Mtim.Nsec, st.Ctim.Sec, st.Ctim.Nsec)
}
