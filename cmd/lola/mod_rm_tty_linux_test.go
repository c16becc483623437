package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// openPTY opens a pseudo-terminal pair with the standard library alone:
// the master end (to type into) and the slave end (the terminal lola sees).
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	t.Cleanup(func() { m.Close() })
	var unlock int32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		t.Fatal(e)
	}
	var n uint32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
		t.Fatal(e)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return m, s
}

// At a terminal mod rm asks as today's Lola does, even for a module
// installed nowhere: a no (or just Enter) prints "Cancelled", exits 0 and
// removes nothing; a yes removes it.
func TestModRmAsksAtATerminal(t *testing.T) {
	home := modTestHome(t)
	src := filepath.Join(t.TempDir(), "m")
	modWriteFiles(t, src, map[string]string{"commands/one.md": "1"})
	if code, _, errs := runModCLI(t, "add", src); code != exitOK {
		t.Fatal(errs)
	}
	rmAt := func(answer string) (int, string, string) {
		master, slave := openPTY(t)
		if _, err := master.WriteString(answer); err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		code := run([]string{"mod", "rm", "m"}, slave, &out, slave)
		slave.Close()
		var tty []byte
		buf := make([]byte, 4096)
		for { // until EIO: every slave end is closed
			n, err := master.Read(buf)
			tty = append(tty, buf[:n]...)
			if err != nil {
				break
			}
		}
		return code, out.String(), string(tty)
	}
	for _, no := range []string{"n\n", "\n", "nope\n"} {
		code, out, tty := rmAt(no)
		if code != exitOK || !strings.Contains(out, "Cancelled") || !strings.Contains(tty, "Continue? [y/N]") {
			t.Fatalf("answer %q: exit %d, out %q, terminal %q", no, code, out, tty)
		}
		if got := modStoreEntries(t, home); len(got) != 1 {
			t.Fatalf("answer %q removed the module: %v", no, got)
		}
	}
	if code, out, tty := rmAt("y\n"); code != exitOK || !strings.Contains(out, "Removed m") {
		t.Fatalf("yes: exit %d, out %q, terminal %q", code, out, tty)
	}
	if got := modStoreEntries(t, home); len(got) != 0 {
		t.Fatalf("yes left the module: %v", got)
	}
}

// /dev/null is a character device but no terminal: a script run with
// </dev/null is refused as one with no stdin at all.
func TestModRmDevNullIsNoTerminal(t *testing.T) {
	home := modTestHome(t)
	src := filepath.Join(t.TempDir(), "m")
	modWriteFiles(t, src, map[string]string{"commands/one.md": "1"})
	if code, _, errs := runModCLI(t, "add", src); code != exitOK {
		t.Fatal(errs)
	}
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	var out bytes.Buffer
	if code := run([]string{"mod", "rm", "m"}, null, &out, null); code != exitUsage {
		t.Fatalf("mod rm with </dev/null 2>/dev/null: exit %d, want %d", code, exitUsage)
	}
	if got := modStoreEntries(t, home); len(got) != 1 {
		t.Fatalf("the refused rm removed the module: %v", got)
	}
}
