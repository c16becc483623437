package fsroot

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"unsafe"

	"golang.org/x/sys/windows"

	"github.com/lola-pm/lola/host/internal/durable"
	"github.com/lola-pm/lola/schema"
)

// Root is an open directory beneath which every plan path is resolved.
type Root struct {
	dir *Dir
	dev uint64
}

// Dir is a directory beneath the root. On Windows it holds an open handle
// (which keeps the directory from being renamed or removed while held) and
// the directory's name; operations re-walk nothing but are issued by name
// under this directory.
type Dir struct {
	h   windows.Handle
	abs string // never printed: diagnostics use rel
	rel []string
	dev uint64
}

type fileInfo struct {
	attrs uint32
	tag   uint32
	dev   uint64
	ino   uint64
	size  int64
}

// openNoFollow opens name (file or directory) without following a reparse point.
func openNoFollow(name string) (windows.Handle, error) {
	p, err := windows.UTF16PtrFromString(name)
	if err != nil {
		return 0, err
	}
	return windows.CreateFile(p, windows.FILE_READ_ATTRIBUTES,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE,
		nil, windows.OPEN_EXISTING,
		windows.FILE_FLAG_OPEN_REPARSE_POINT|windows.FILE_FLAG_BACKUP_SEMANTICS, 0)
}

func infoOf(h windows.Handle) (fileInfo, error) {
	var tag struct {
		FileAttributes uint32
		ReparseTag     uint32
	}
	if err := windows.GetFileInformationByHandleEx(h, windows.FileAttributeTagInfo, (*byte)(unsafe.Pointer(&tag)), uint32(unsafe.Sizeof(tag))); err != nil {
		return fileInfo{}, err
	}
	var bhi windows.ByHandleFileInformation
	if err := windows.GetFileInformationByHandle(h, &bhi); err != nil {
		return fileInfo{}, err
	}
	return fileInfo{
		attrs: tag.FileAttributes,
		tag:   tag.ReparseTag,
		dev:   uint64(bhi.VolumeSerialNumber),
		ino:   uint64(bhi.FileIndexHigh)<<32 | uint64(bhi.FileIndexLow),
		size:  int64(bhi.FileSizeHigh)<<32 | int64(bhi.FileSizeLow),
	}, nil
}

func mapWinErr(err error) error {
	if errors.Is(err, windows.ERROR_FILE_NOT_FOUND) || errors.Is(err, windows.ERROR_PATH_NOT_FOUND) {
		return fmt.Errorf("fsroot: %w", fs.ErrNotExist)
	}
	return err
}

// Open opens dir as a root.
func Open(dir string) (*Root, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	h, err := openNoFollow(abs)
	if err != nil {
		return nil, fmt.Errorf("fsroot: open root: %w", mapWinErr(err))
	}
	fi, err := infoOf(h)
	if err != nil {
		windows.CloseHandle(h)
		return nil, err
	}
	if fi.attrs&windows.FILE_ATTRIBUTE_DIRECTORY == 0 {
		windows.CloseHandle(h)
		return nil, errors.New("fsroot: root is not a directory")
	}
	return &Root{dir: &Dir{h: h, abs: abs, dev: fi.dev}, dev: fi.dev}, nil
}

// Close closes the root handle.
func (r *Root) Close() error { return r.dir.Close() }

// Dir is the root directory itself (owned by the Root).
func (r *Root) Dir() *Dir { return r.dir }

// Device: Windows reports no device number here; the zero Device.
func (r *Root) Device() durable.Device { return durable.Device{} }

// Rel is the directory's root-relative path.
func (d *Dir) Rel() string { return Rel(d.rel) }

// Close releases the handle.
func (d *Dir) Close() error {
	if d.h == 0 {
		return nil
	}
	err := windows.CloseHandle(d.h)
	d.h = 0
	return err
}

// Fd exposes the handle.
func (d *Dir) Fd() uintptr { return uintptr(d.h) }

func (d *Dir) child(name string) []string {
	return append(append([]string(nil), d.rel...), name)
}

func (d *Dir) join(name string) string { return filepath.Join(d.abs, name) }

// relErr puts rel, a root-relative path, where an os call's error named
// the host path it was given: no diagnostic carries the root's absolute
// name. The error keeps its type, so os.IsExist and errors.Is still work.
func relErr(rel string, err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return &os.PathError{Op: pe.Op, Path: rel, Err: pe.Err}
	}
	return err
}

// openHandle opens name in d with CreateFile and wraps the handle in an
// *os.File named by its root-relative path (an *os.File's errors carry its
// name), never following a reparse point.
func (d *Dir) openHandle(name string, access, disposition uint32) (*os.File, error) {
	rel := Rel(d.child(name))
	p, err := windows.UTF16PtrFromString(d.join(name))
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: rel, Err: err}
	}
	h, err := windows.CreateFile(p, access, windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE, nil,
		disposition, windows.FILE_ATTRIBUTE_NORMAL|windows.FILE_FLAG_OPEN_REPARSE_POINT, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: rel, Err: mapWinErr(err)}
	}
	return os.NewFile(uintptr(h), rel), nil
}

// lookup opens name beneath d without following it and classifies it,
// refusing every reparse point (symlink, junction, mount point, and any
// other tag) and a volume change.
func (d *Dir) lookup(name string) (windows.Handle, fileInfo, error) {
	rel := d.child(name)
	h, err := openNoFollow(d.join(name))
	if err != nil {
		return 0, fileInfo{}, mapWinErr(err)
	}
	fi, err := infoOf(h)
	if err != nil {
		windows.CloseHandle(h)
		return 0, fileInfo{}, err
	}
	if fi.attrs&windows.FILE_ATTRIBUTE_REPARSE_POINT != 0 {
		windows.CloseHandle(h)
		if fi.tag == windows.IO_REPARSE_TAG_SYMLINK {
			return 0, fileInfo{}, reject(schema.RulePathSymlink, Rel(rel))
		}
		return 0, fileInfo{}, reject(schema.RulePathReparsePoint, Rel(rel))
	}
	if fi.dev != d.dev {
		windows.CloseHandle(h)
		return 0, fileInfo{}, reject(schema.RulePathCrossDevice, Rel(rel))
	}
	return h, fi, nil
}

func (d *Dir) openDirPath(comps []string) (*Dir, error) {
	cur := d
	for i, c := range comps {
		h, fi, err := cur.lookup(c)
		if cur != d {
			cur.Close()
		}
		if err != nil {
			return nil, err
		}
		if fi.attrs&windows.FILE_ATTRIBUTE_DIRECTORY == 0 {
			windows.CloseHandle(h)
			return nil, reject(schema.RulePathNotDirectory, Rel(append(append([]string(nil), d.rel...), comps[:i+1]...)))
		}
		cur = &Dir{h: h, abs: cur.join(c), rel: cur.child(c), dev: d.dev}
	}
	if cur == d {
		return nil, errors.New("fsroot: empty directory path")
	}
	return cur, nil
}

func (d *Dir) checkNotRedirect(name string, comps []string, _ uint64) error {
	h, _, err := d.lookup(name)
	if err != nil {
		return err
	}
	return windows.CloseHandle(h)
}

// OpenDir opens the existing directory name beneath d.
func (d *Dir) OpenDir(name string) (*Dir, error) { return d.openDirPath([]string{name}) }

// Lstat observes name in d without following it.
func (d *Dir) Lstat(name string) (Entry, error) {
	h, err := openNoFollow(d.join(name))
	if err != nil {
		return Entry{}, mapWinErr(err)
	}
	defer windows.CloseHandle(h)
	fi, err := infoOf(h)
	if err != nil {
		return Entry{}, err
	}
	return entryOfInfo(fi), nil
}

func entryOfInfo(fi fileInfo) Entry {
	e := Entry{Ino: fi.ino, Dev: fi.dev, Size: fi.size, Mode: 0o644}
	switch {
	case fi.attrs&windows.FILE_ATTRIBUTE_REPARSE_POINT != 0 && fi.tag == windows.IO_REPARSE_TAG_SYMLINK:
		e.Kind = KindSymlink
		e.Mode = fs.ModeSymlink
	case fi.attrs&windows.FILE_ATTRIBUTE_REPARSE_POINT != 0:
		// A junction, mount point or any other reparse point: the final
		// check refuses it as path.reparse-point (lookup), not as a symlink.
		e.Kind = KindOther
		e.Mode = fs.ModeIrregular
	case fi.attrs&windows.FILE_ATTRIBUTE_DIRECTORY != 0:
		e.Kind = KindDir
		e.Mode = fs.ModeDir | 0o755
	default:
		e.Kind = KindFile
	}
	return e
}

// Stat observes the directory itself.
func (d *Dir) Stat() (Entry, error) {
	fi, err := infoOf(d.h)
	if err != nil {
		return Entry{}, err
	}
	return entryOfInfo(fi), nil
}

// Mkdir creates directory name in d.
func (d *Dir) Mkdir(name string, perm fs.FileMode) error {
	return relErr(Rel(d.child(name)), os.Mkdir(d.join(name), perm))
}

// MkdirOpen creates directory name in d and opens it, refusing a reparse
// point swapped in meanwhile (Windows has no mode bits to set by name).
func (d *Dir) MkdirOpen(name string, perm fs.FileMode) (*Dir, error) {
	if err := d.Mkdir(name, perm); err != nil {
		return nil, err
	}
	return d.OpenDir(name)
}

// CreateFile creates the regular file name in d exclusively (perm is not
// applied: Windows has no mode bits beyond read-only, and every mode the
// host uses is writable).
func (d *Dir) CreateFile(name string, perm fs.FileMode) (*os.File, error) {
	return d.openHandle(name, windows.GENERIC_WRITE, windows.CREATE_NEW)
}

// OpenFile opens the existing regular file name in d for reading,
// refusing a reparse point.
func (d *Dir) OpenFile(name string) (*os.File, error) {
	h, _, err := d.lookup(name)
	if err != nil {
		return nil, err
	}
	windows.CloseHandle(h)
	return d.openHandle(name, windows.GENERIC_READ, windows.OPEN_EXISTING)
}

// Unlink removes the file name from d.
func (d *Dir) Unlink(name string) error {
	return relErr(Rel(d.child(name)), os.Remove(d.join(name)))
}

// Rmdir removes the empty directory name from d.
func (d *Dir) Rmdir(name string) error {
	return relErr(Rel(d.child(name)), os.Remove(d.join(name)))
}

// ReadNames lists the names in d.
func (d *Dir) ReadNames() ([]string, error) {
	f, err := os.Open(d.abs)
	if err != nil {
		return nil, relErr(d.Rel(), err)
	}
	defer f.Close()
	names, err := f.Readdirnames(-1)
	return names, relErr(d.Rel(), err)
}

// RemoveAll removes name and everything beneath it, without following a
// reparse point (os.RemoveAll removes links, not their targets).
func (d *Dir) RemoveAll(name string) error {
	return relErr(Rel(d.child(name)), os.RemoveAll(d.join(name)))
}

// Sync is a no-op for directories on Windows.
func (d *Dir) Sync() error { return nil }

// Rename moves fromName to toName. NoReplace is honoured by MoveFileEx
// without MOVEFILE_REPLACE_EXISTING; Exchange is unsupported.
func Rename(from *Dir, fromName string, to *Dir, toName string, flags RenameFlags) error {
	if flags&Exchange != 0 {
		return ErrUnsupported
	}
	src, err := windows.UTF16PtrFromString(from.join(fromName))
	if err != nil {
		return err
	}
	dst, err := windows.UTF16PtrFromString(to.join(toName))
	if err != nil {
		return err
	}
	var mf uint32
	if flags&NoReplace == 0 {
		mf |= windows.MOVEFILE_REPLACE_EXISTING
	}
	if err := windows.MoveFileEx(src, dst, mf); err != nil {
		if errors.Is(err, windows.ERROR_ALREADY_EXISTS) || errors.Is(err, windows.ERROR_FILE_EXISTS) {
			return fmt.Errorf("fsroot: %w", fs.ErrExist)
		}
		return mapWinErr(err)
	}
	return nil
}

// LockSelf takes an exclusive lock for the directory d without creating
// anything beneath it: Windows cannot byte-range lock a directory handle,
// so the lock is a file in the user's temporary directory named by d's
// volume serial and file index (its identity, which survives a rename of
// the directory).
func (d *Dir) LockSelf() (func() error, error) {
	e, err := d.Stat()
	if err != nil {
		return nil, err
	}
	name := filepath.Join(os.TempDir(), fmt.Sprintf("lola-root-%x-%x.lock", e.Dev, e.Ino))
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	var ol windows.Overlapped
	if err := windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK, 0, 1, 0, &ol); err != nil {
		f.Close()
		return nil, err
	}
	return func() error {
		windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, &ol)
		return f.Close()
	}, nil
}

// SyncFS is unavailable on Windows; callers fsync each file.
func (r *Root) SyncFS() error { return ErrUnsupported }

// HasSyncFS reports whether SyncFS is available: not on Windows.
func (r *Root) HasSyncFS() bool { return false }

// ProcPath is the directory's name under the root (Windows has no
// descriptor-derived path). Host-internal: never shown or logged.
func (d *Dir) ProcPath() (string, bool) { return d.abs, true }

// KeepTimes is a no-op on Windows (non-guarantee: a dry run's scratch
// directory changes the root's modification time there).
func (d *Dir) KeepTimes() (restore func()) { return func() {} }
