package apply

import (
	"encoding/binary"
	"errors"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"golang.org/x/sys/unix"
)

// foldFS is a tiny in-memory FUSE filesystem that folds case the way a
// case-insensitive filesystem does (names keep the spelling they were
// created with; lookups ignore ASCII and simple Unicode case). It speaks
// the raw FUSE protocol over /dev/fuse so the test needs no dependency;
// it implements only what resolution, the probe and staging use.
type foldFS struct {
	mu    sync.Mutex
	nodes map[uint64]*fnode
	next  uint64
	fd    int
	done  chan struct{}
}

type fnode struct {
	mode     uint32
	data     []byte
	children map[string]fchild // folded name -> child
}

type fchild struct {
	name string
	ino  uint64
}

func fold(s string) string { return strings.ToLower(s) }

// FUSE opcodes and sizes (include/uapi/linux/fuse.h).
const (
	fuseLookup      = 1
	fuseForget      = 2
	fuseGetattr     = 3
	fuseSetattr     = 4
	fuseMkdir       = 9
	fuseUnlink      = 10
	fuseRmdir       = 11
	fuseOpen        = 14
	fuseRead        = 15
	fuseWrite       = 16
	fuseStatfs      = 17
	fuseRelease     = 18
	fuseFsync       = 20
	fuseFlush       = 25
	fuseInit        = 26
	fuseOpendir     = 27
	fuseReaddir     = 28
	fuseReleasedir  = 29
	fuseFsyncdir    = 30
	fuseAccess      = 34
	fuseCreate      = 35
	fuseInterrupt   = 36
	fuseDestroy     = 38
	fuseBatchForget = 42
	fuseRename      = 12
	fuseRename2     = 45
	inHeaderSize    = 40
)

// mountFoldFS mounts a fresh foldFS at dir; the returned func unmounts it.
func mountFoldFS(t *testing.T, dir string) (func(), string) {
	fd, err := unix.Open("/dev/fuse", unix.O_RDWR|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, "cannot open /dev/fuse: " + err.Error()
	}
	opts := "fd=" + strconv.Itoa(fd) + ",rootmode=40000,user_id=0,group_id=0"
	if err := unix.Mount("lola-foldfs", dir, "fuse.lolafold", unix.MS_NOSUID|unix.MS_NODEV, opts); err != nil {
		unix.Close(fd)
		return nil, "mounting FUSE not permitted: " + err.Error()
	}
	fs := &foldFS{nodes: map[uint64]*fnode{1: {mode: unix.S_IFDIR | 0o755, children: map[string]fchild{}}}, next: 2, fd: fd, done: make(chan struct{})}
	go fs.serve()
	primeNoPoll(t, dir)
	return func() {
		unix.Unmount(dir, unix.MNT_DETACH)
		unix.Close(fd)
		<-fs.done
	}, ""
}

// primeNoPoll makes the kernel learn, before any Go code opens a file on
// the mount, that the server does not implement FUSE_POLL. Go's os.Open
// registers every file with its netpoller, and the runtime makes that
// epoll_ctl call without leaving its P; on a FUSE file it waits for the
// kernel's FUSE_POLL round trip to this very process. Should a garbage
// collection start meanwhile, it waits for that P, the server goroutine
// is never scheduled, and the test hangs for good. Here the first poll is
// a plain ppoll system call (which leaves its P), answered ENOSYS by the
// server; the kernel then polls this connection no more.
func primeNoPoll(t *testing.T, dir string) {
	probe := dir + "/.lola-poll-probe"
	fd, err := unix.Open(probe, unix.O_CREAT|unix.O_RDWR|unix.O_CLOEXEC, 0o600)
	if err != nil {
		t.Errorf("priming FUSE_POLL: %v", err)
		return
	}
	if _, err := unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}, 0); err != nil {
		t.Errorf("priming FUSE_POLL: %v", err)
	}
	unix.Close(fd)
	if err := unix.Unlink(probe); err != nil {
		t.Errorf("priming FUSE_POLL: %v", err)
	}
}

func (f *foldFS) serve() {
	defer close(f.done)
	buf := make([]byte, 1<<20+4096)
	for {
		n, err := unix.Read(f.fd, buf)
		if errors.Is(err, unix.EINTR) || errors.Is(err, unix.ENOENT) || errors.Is(err, unix.EAGAIN) {
			continue
		}
		if err != nil || n < inHeaderSize {
			return
		}
		req := buf[:n]
		op := binary.LittleEndian.Uint32(req[4:])
		unique := binary.LittleEndian.Uint64(req[8:])
		nodeid := binary.LittleEndian.Uint64(req[16:])
		body := req[inHeaderSize:]
		switch op {
		case fuseForget, fuseBatchForget, fuseInterrupt:
			continue
		case fuseDestroy:
			f.reply(unique, 0, nil)
			return
		}
		f.mu.Lock()
		errno, out := f.handle(op, nodeid, body)
		f.mu.Unlock()
		f.reply(unique, errno, out)
	}
}

func (f *foldFS) reply(unique uint64, errno unix.Errno, out []byte) {
	hdr := make([]byte, 16, 16+len(out))
	binary.LittleEndian.PutUint32(hdr[0:], uint32(16+len(out)))
	binary.LittleEndian.PutUint32(hdr[4:], uint32(-int32(errno)))
	binary.LittleEndian.PutUint64(hdr[8:], unique)
	unix.Write(f.fd, append(hdr, out...))
}

func cstr(b []byte) string {
	if i := strings.IndexByte(string(b), 0); i >= 0 {
		return string(b[:i])
	}
	return string(b)
}

type le []byte

func (b *le) u64(v uint64) { *b = binary.LittleEndian.AppendUint64(*b, v) }
func (b *le) u32(v uint32) { *b = binary.LittleEndian.AppendUint32(*b, v) }

func (f *foldFS) attr(b *le, ino uint64) {
	n := f.nodes[ino]
	nlink := uint32(1)
	if n.children != nil {
		nlink = 2
	}
	b.u64(ino)
	b.u64(uint64(len(n.data)))
	b.u64((uint64(len(n.data)) + 511) / 512)
	b.u64(0)
	b.u64(0)
	b.u64(0) // atime mtime ctime
	b.u32(0)
	b.u32(0)
	b.u32(0) // nsecs
	b.u32(n.mode)
	b.u32(nlink)
	b.u32(0)
	b.u32(0)    // uid gid
	b.u32(0)    // rdev
	b.u32(4096) // blksize
	b.u32(0)    // flags
}

func (f *foldFS) entry(ino uint64) []byte {
	var b le
	b.u64(ino)
	b.u64(0) // generation
	b.u64(0)
	b.u64(0) // entry and attr valid: 0, so the kernel asks again every time
	b.u32(0)
	b.u32(0)
	f.attr(&b, ino)
	return b
}

func (f *foldFS) attrOut(ino uint64) []byte {
	var b le
	b.u64(0)
	b.u32(0)
	b.u32(0)
	f.attr(&b, ino)
	return b
}

func openOut(fh uint64) []byte {
	var b le
	b.u64(fh)
	b.u32(0)
	b.u32(0)
	return b
}

func (f *foldFS) add(parent uint64, name string, mode uint32) (uint64, unix.Errno) {
	p := f.nodes[parent]
	if p == nil || p.children == nil {
		return 0, unix.ENOTDIR
	}
	if _, ok := p.children[fold(name)]; ok {
		return 0, unix.EEXIST
	}
	ino := f.next
	f.next++
	n := &fnode{mode: mode}
	if mode&unix.S_IFMT == unix.S_IFDIR {
		n.children = map[string]fchild{}
	}
	f.nodes[ino] = n
	p.children[fold(name)] = fchild{name: name, ino: ino}
	return ino, 0
}

func (f *foldFS) handle(op uint32, nodeid uint64, body []byte) (unix.Errno, []byte) {
	u32 := func(off int) uint32 { return binary.LittleEndian.Uint32(body[off:]) }
	u64 := func(off int) uint64 { return binary.LittleEndian.Uint64(body[off:]) }
	switch op {
	case fuseInit:
		var b le
		b.u32(7)
		b.u32(31) // protocol 7.31
		b.u32(u32(8))
		b.u32(0) // no optional features: flock and posix locks stay local
		b = binary.LittleEndian.AppendUint16(b, 16)
		b = binary.LittleEndian.AppendUint16(b, 12)
		b.u32(1 << 20) // max_write
		b.u32(1)       // time_gran
		b = binary.LittleEndian.AppendUint16(b, 256)
		b = binary.LittleEndian.AppendUint16(b, 0)
		b.u32(0)
		for i := 0; i < 7; i++ {
			b.u32(0)
		}
		return 0, b
	case fuseLookup:
		p := f.nodes[nodeid]
		if p == nil || p.children == nil {
			return unix.ENOTDIR, nil
		}
		c, ok := p.children[fold(cstr(body))]
		if !ok {
			return unix.ENOENT, nil
		}
		return 0, f.entry(c.ino)
	case fuseGetattr:
		if f.nodes[nodeid] == nil {
			return unix.ENOENT, nil
		}
		return 0, f.attrOut(nodeid)
	case fuseSetattr:
		n := f.nodes[nodeid]
		valid := u32(0)
		if valid&(1<<3) != 0 { // FATTR_SIZE
			size := u64(16)
			if size < uint64(len(n.data)) {
				n.data = n.data[:size]
			} else {
				n.data = append(n.data, make([]byte, size-uint64(len(n.data)))...)
			}
		}
		if valid&1 != 0 { // FATTR_MODE
			n.mode = n.mode&unix.S_IFMT | u32(68)&0o7777
		}
		return 0, f.attrOut(nodeid)
	case fuseMkdir:
		ino, e := f.add(nodeid, cstr(body[8:]), unix.S_IFDIR|u32(0)&^u32(4)&0o7777)
		if e != 0 {
			return e, nil
		}
		return 0, f.entry(ino)
	case fuseCreate:
		ino, e := f.add(nodeid, cstr(body[16:]), unix.S_IFREG|u32(4)&^u32(8)&0o7777)
		if e != 0 {
			return e, nil
		}
		return 0, append(f.entry(ino), openOut(ino)...)
	case fuseUnlink, fuseRmdir:
		p := f.nodes[nodeid]
		key := fold(cstr(body))
		c, ok := p.children[key]
		if !ok {
			return unix.ENOENT, nil
		}
		n := f.nodes[c.ino]
		if op == fuseRmdir {
			if n.children == nil {
				return unix.ENOTDIR, nil
			}
			if len(n.children) > 0 {
				return unix.ENOTEMPTY, nil
			}
		} else if n.children != nil {
			return unix.EISDIR, nil
		}
		delete(p.children, key)
		return 0, nil
	case fuseRename, fuseRename2:
		newdir, flags, names := u64(0), uint32(0), body[8:]
		if op == fuseRename2 {
			flags, names = u32(8), body[16:]
		}
		oldName := cstr(names)
		newName := cstr(names[len(oldName)+1:])
		src, dst := f.nodes[nodeid], f.nodes[newdir]
		if src == nil || dst == nil || src.children == nil || dst.children == nil {
			return unix.ENOTDIR, nil
		}
		c, ok := src.children[fold(oldName)]
		if !ok {
			return unix.ENOENT, nil
		}
		existing, exists := dst.children[fold(newName)]
		switch {
		case flags&unix.RENAME_EXCHANGE != 0:
			if !exists {
				return unix.ENOENT, nil
			}
			src.children[fold(oldName)] = fchild{name: c.name, ino: existing.ino}
			dst.children[fold(newName)] = fchild{name: existing.name, ino: c.ino}
			return 0, nil
		case exists && existing.ino != c.ino && flags&unix.RENAME_NOREPLACE != 0:
			return unix.EEXIST, nil
		}
		delete(src.children, fold(oldName))
		dst.children[fold(newName)] = fchild{name: newName, ino: c.ino}
		return 0, nil
	case fuseOpen, fuseOpendir:
		return 0, openOut(nodeid)
	case fuseWrite:
		n := f.nodes[nodeid]
		off, size := u64(8), u32(16)
		data := body[40 : 40+size]
		if end := off + uint64(size); end > uint64(len(n.data)) {
			n.data = append(n.data, make([]byte, end-uint64(len(n.data)))...)
		}
		copy(n.data[off:], data)
		var b le
		b.u32(size)
		b.u32(0)
		return 0, b
	case fuseRead:
		n := f.nodes[nodeid]
		off, size := u64(8), uint64(u32(16))
		if off >= uint64(len(n.data)) {
			return 0, nil
		}
		end := min(off+size, uint64(len(n.data)))
		return 0, append([]byte(nil), n.data[off:end]...)
	case fuseReaddir:
		n := f.nodes[nodeid]
		off, size := u64(8), int(u32(16))
		names := make([]fchild, 0, len(n.children))
		for _, c := range n.children {
			names = append(names, c)
		}
		sort.Slice(names, func(i, j int) bool { return names[i].name < names[j].name })
		var b le
		for i := int(off); i < len(names); i++ {
			c := names[i]
			rec := 24 + len(c.name)
			padded := (rec + 7) &^ 7
			if len(b)+padded > size {
				break
			}
			b.u64(c.ino)
			b.u64(uint64(i + 1))
			b.u32(uint32(len(c.name)))
			b.u32((f.nodes[c.ino].mode & unix.S_IFMT) >> 12)
			b = append(b, c.name...)
			b = append(b, make([]byte, padded-rec)...)
		}
		return 0, b
	case fuseStatfs:
		var b le
		for i := 0; i < 5; i++ {
			b.u64(1 << 20)
		}
		b.u32(4096)
		b.u32(255)
		b.u32(4096)
		b.u32(0)
		for i := 0; i < 6; i++ {
			b.u32(0)
		}
		return 0, b
	case fuseRelease, fuseReleasedir, fuseFlush, fuseFsync, fuseFsyncdir, fuseAccess:
		return 0, nil
	}
	return unix.ENOSYS, nil
}
