//go:build linux

package shim

import (
	"encoding/json"
	"errors"
	"net"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

const probeAddrEnv = "LOLA_SHIM_PROBE_ADDR"

func errnoOrNil(en syscall.Errno) error {
	if en == 0 {
		return nil
	}
	return en
}

func errnoName(err error) string {
	if err == nil {
		return "ok"
	}
	var en syscall.Errno
	if errors.As(err, &en) {
		return unix.ErrnoName(en)
	}
	return err.Error()
}

// childProbe confines this process as the shim does, then attempts what a
// wazero escape would try, natively, and reports each errno as JSON. It
// proves the OS layer on its own, whatever wazero does.
func childProbe() int {
	k := testKnobs{landlockOnly: os.Getenv(knobsEnv) == "landlock-only"}
	res := map[string]string{}
	c, err := confine(k)
	res["confine"] = errnoName(err)
	res["landlock_abi"] = strconv.Itoa(c.LandlockABI)
	res["seccomp"] = strconv.FormatBool(c.Seccomp)

	_, err = os.ReadFile("/etc/passwd")
	res["open"] = errnoName(err)
	_, err = os.ReadDir("/")
	res["readdir"] = errnoName(err)
	err = os.WriteFile(os.TempDir()+"/lola-probe", []byte("x"), 0o600)
	res["create"] = errnoName(err)

	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM, 0)
	res["socket"] = errnoName(err)
	if err == nil {
		// Only reachable in landlock-only mode: Landlock's TCP rules.
		addr, _ := net.ResolveTCPAddr("tcp4", os.Getenv(probeAddrEnv))
		sa := &unix.SockaddrInet4{Port: addr.Port}
		copy(sa.Addr[:], addr.IP.To4())
		res["connect"] = errnoName(unix.Connect(fd, sa))
		unix.Close(fd)
		fd2, _ := unix.Socket(unix.AF_INET, unix.SOCK_STREAM, 0)
		res["bind"] = errnoName(unix.Bind(fd2, &unix.SockaddrInet4{Port: 0, Addr: [4]byte{127, 0, 0, 1}}))
		unix.Close(fd2)
	}
	_, err = unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM, 0)
	res["socketpair"] = errnoName(err)
	res["exec"] = errnoName(syscall.Exec("/bin/true", []string{"true"}, nil))
	_, err = syscall.ForkExec("/bin/true", []string{"true"}, nil)
	res["fork"] = errnoName(err)
	res["unshare"] = errnoName(unix.Unshare(unix.CLONE_NEWUSER))
	res["ptrace"] = errnoName(unix.PtraceAttach(os.Getppid()))
	var params [120]byte // struct io_uring_params
	_, _, en := unix.Syscall(unix.SYS_IO_URING_SETUP, 1, uintptr(unsafe.Pointer(&params)), 0)
	res["io_uring"] = errnoName(errnoOrNil(en))

	// The Go runtime keeps working under the filter: threads, GC, timers.
	var wg sync.WaitGroup
	var mu sync.Mutex
	sum := 0
	for i := 0; i < 64; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			runtime.LockOSThread() // forces new OS threads (clone with CLONE_THREAD)
			b := make([]byte, 1<<16)
			time.Sleep(time.Millisecond)
			mu.Lock()
			sum += len(b) + i
			mu.Unlock()
		}(i)
	}
	wg.Wait()
	runtime.GC()
	res["runtime"] = strconv.Itoa(sum)
	json.NewEncoder(os.Stdout).Encode(res)
	return 0
}

func runProbe(t *testing.T, knobs string) map[string]string {
	t.Helper()
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan struct{}, 1)
	go func() {
		if c, err := ln.Accept(); err == nil {
			c.Close()
			accepted <- struct{}{}
		}
	}()
	exe, _ := os.Executable()
	cmd := exec.Command(exe)
	cmd.Env = []string{childEnv + "=probe", knobsEnv + "=" + knobs, probeAddrEnv + "=" + ln.Addr().String()}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("probe: %v", err)
	}
	res := map[string]string{}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("probe output %q: %v", out, err)
	}
	select {
	case <-accepted:
		t.Error("the confined probe reached the listener")
	default:
	}
	return res
}

func TestConfinementDeniesEscapesAndKeepsRuntime(t *testing.T) {
	abi, _ := landlockABI()
	if abi < 1 {
		t.Skip("this kernel has no Landlock")
	}
	res := runProbe(t, "")
	want := map[string]string{
		"confine": "ok", "seccomp": "true",
		"open": "EACCES", "readdir": "EACCES", "create": "EACCES",
		"socket": "EPERM", "socketpair": "EPERM", "exec": "EPERM", "fork": "EPERM", "unshare": "EPERM", "ptrace": "EPERM", "io_uring": "EPERM",
		"runtime": strconv.Itoa(64*(1<<16) + 63*64/2),
	}
	for k, v := range want {
		if res[k] != v {
			t.Errorf("%s: got %q, want %q", k, res[k], v)
		}
	}
	if res["landlock_abi"] != strconv.Itoa(abi) {
		t.Errorf("reported Landlock ABI %s, kernel has %d", res["landlock_abi"], abi)
	}
}

// Landlock's TCP layer proven alone: without seccomp a socket can be
// created, but connect and bind are refused by Landlock (ABI 4+).
func TestLandlockAloneDeniesTCP(t *testing.T) {
	abi, _ := landlockABI()
	if abi < 4 {
		t.Skip("this kernel's Landlock has no TCP rules")
	}
	res := runProbe(t, "landlock-only")
	want := map[string]string{"confine": "ok", "seccomp": "false", "open": "EACCES", "socket": "ok", "connect": "EACCES", "bind": "EACCES"}
	for k, v := range want {
		if res[k] != v {
			t.Errorf("%s: got %q, want %q", k, res[k], v)
		}
	}
}

// The control: an unconfined probe can do what the confined one cannot, so
// the assertions above can fail.
func TestProbeControlUnconfined(t *testing.T) {
	if _, err := os.ReadFile("/etc/passwd"); err != nil {
		t.Skip("this machine has no readable /etc/passwd")
	}
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM, 0)
	if err != nil {
		t.Fatalf("an unconfined process cannot create a socket: %v", err)
	}
	unix.Close(fd)
}
