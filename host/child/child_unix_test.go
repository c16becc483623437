//go:build unix

package child_test

import (
	"bufio"
	"bytes"
	"errors"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// assertGone checks that the fixture whose stderr began with "pid=N" was
// reaped: not running and not a zombie, since a zombie still answers kill 0.
func assertGone(t *testing.T, diag []byte) {
	t.Helper()
	line, _ := bufio.NewReader(bytes.NewReader(diag)).ReadString('\n')
	pid, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(line, "pid=")))
	if err != nil || pid <= 0 {
		t.Fatalf("fixture did not report its pid: %q", diag)
	}
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("child %d still exists after Run returned (kill 0: %v)", pid, err)
	}
}
