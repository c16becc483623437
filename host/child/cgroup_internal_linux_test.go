//go:build linux

package child

import "testing"

func TestUnifiedCgroupPath(t *testing.T) {
	cases := []struct {
		in   string
		want string
		ok   bool
	}{
		{"9:name=systemd:/\n4:memory:/x\n0::/\n", "/", true},
		{"0::/user.slice/user-1000.slice/session-2.scope\n", "/user.slice/user-1000.slice/session-2.scope", true},
		{"4:memory:/x\n1:cpu:/\n", "", false}, // v1 only
		{"0::relative\n", "", false},
		{"", "", false},
	}
	for _, c := range cases {
		got, ok := unifiedCgroupPath([]byte(c.in))
		if got != c.want || ok != c.ok {
			t.Errorf("unifiedCgroupPath(%q) = %q, %v; want %q, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestCgroup2Dir(t *testing.T) {
	hybrid := "25 24 0:22 / /sys/fs/cgroup rw - tmpfs tmpfs rw\n" +
		"30 25 0:26 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n" +
		"33 25 0:29 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n"
	unified := "30 24 0:26 / /sys/fs/cgroup rw shared:9 - cgroup2 cgroup2 rw,nsdelegate\n" +
		"31 24 0:26 / /mnt/other\\040cg rw - cgroup2 cgroup2 rw\n"
	// A container's mount shows a subtree of the hierarchy at its mount point.
	container := "40 30 0:26 /kubepods/pod1 /sys/fs/cgroup ro - cgroup2 cgroup2 rw\n"
	escaped := "31 24 0:26 / /mnt/other\\040cg rw - cgroup2 cgroup2 rw\n"
	cases := []struct {
		name, info, own, want string
		ok                    bool
	}{
		{"hybrid", hybrid, "/", "/sys/fs/cgroup/unified", true},
		{"hybrid-nested", hybrid, "/a/b", "/sys/fs/cgroup/unified/a/b", true},
		{"unified-prefers-sys-fs-cgroup", unified, "/u.slice", "/sys/fs/cgroup/u.slice", true},
		{"container-root", container, "/kubepods/pod1", "/sys/fs/cgroup", true},
		{"container-nested", container, "/kubepods/pod1/c", "/sys/fs/cgroup/c", true},
		{"container-outside", container, "/kubepods/pod10", "", false},
		{"escaped-mount-point", escaped, "/x", "/mnt/other cg/x", true},
		{"v1-only", "30 25 0:26 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n", "/", "", false},
		{"garbage", "not mountinfo\n\n - \n", "/", "", false},
	}
	for _, c := range cases {
		got, ok := cgroup2Dir([]byte(c.info), c.own)
		if got != c.want || ok != c.ok {
			t.Errorf("%s: cgroup2Dir = %q, %v; want %q, %v", c.name, got, ok, c.want, c.ok)
		}
	}
}

func TestParseStat(t *testing.T) {
	// The command name may contain spaces and parentheses.
	st, ok := parseStat([]byte("4242 (evil) (x) 1 2) S 17 4242 4242 0 -1 4194560 0 0 0 0\n"))
	if !ok || st.state != 'S' || st.ppid != 17 || st.pgrp != 4242 {
		t.Fatalf("parseStat = %+v, %v", st, ok)
	}
	for _, bad := range []string{"", "12 (x", "12 (x) SS 1 2", "12 (x) S one 2", "12 (x) S 1"} {
		if _, ok := parseStat([]byte(bad)); ok {
			t.Errorf("parseStat(%q) accepted", bad)
		}
	}
}
