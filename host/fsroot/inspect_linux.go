package fsroot

import (
	"encoding/binary"
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

// How a known filesystem's name comparison is decided.
type fsRule int

const (
	// fsFixed: the filesystem compares names one way, given by findings.
	fsFixed fsRule = iota
	// fsCasefoldable: byte for byte, except in a directory carrying the
	// casefold attribute (FS_CASEFOLD_FL, chattr +F), where the kernel
	// compares names by its UTF-8 folding (NFD and full case folding,
	// and on some kernel versions ignoring default-ignorable code points),
	// which no one relation matches: a casefolded root is inconclusive,
	// and so is a flag that cannot be read.
	fsCasefoldable
	// fsXFS: byte for byte, unless the filesystem was made ASCII
	// case-insensitive (mkfs.xfs -n version=ci), which no directory flag
	// shows but the filesystem's geometry does (XFS_IOC_FSGEOMETRY).
	fsXFS
	// fsUnknowable: the comparison is made elsewhere (a server, a
	// user-space process) or by a per-dataset setting statfs does not
	// report: never conclusive.
	fsUnknowable
)

// fsType is one entry of the closed table of filesystems Inspect knows,
// by statfs's f_type (include/uapi/linux/magic.h).
type fsType struct {
	magic    uint32
	name     string
	rule     fsRule
	findings Findings // fsFixed: how names compare
	why      string   // fsUnknowable: what decides the comparison
}

// fsTypes is the table. A folding entry may fold more than the filesystem
// does (the relation then refuses a plan the filesystem could hold, never
// the reverse); no entry may fold less.
var fsTypes = []fsType{
	// Byte-for-byte filesystems, some with per-directory casefolding.
	{magic: 0xEF53, name: "ext2/ext3/ext4", rule: fsCasefoldable},
	{magic: 0xF2F52010, name: "f2fs", rule: fsCasefoldable},
	// tmpfs casefolds per directory since Linux 6.13 (mount -o casefold).
	{magic: 0x01021994, name: "tmpfs", rule: fsCasefoldable},
	// overlayfs looks names up in its layers byte for byte; a casefolded
	// layer directory shows its flag through the overlay.
	{magic: 0x794C7630, name: "overlayfs", rule: fsCasefoldable},
	{magic: 0x58465342, name: "xfs", rule: fsXFS},
	{magic: 0x9123683E, name: "btrfs", rule: fsFixed},
	{magic: 0x858458F6, name: "ramfs", rule: fsFixed},
	{magic: 0x3434, name: "nilfs2", rule: fsFixed},
	// FAT (vfat and msdos share the magic): case-insensitive through the
	// mount's code page (ASCII at least), no Unicode normalization. msdos
	// also truncates to 8.3 names, which no relation models.
	{magic: 0x4D44, name: "vfat/msdos", rule: fsFixed, findings: Findings{CaseInsensitive: true}},
	// exFAT: case-insensitive through the volume's up-case table, no
	// normalization — NTFS's model.
	{magic: 0x2011BAB0, name: "exfat", rule: fsFixed, findings: Findings{CaseInsensitive: true}},
	// NTFS (ntfs3, and the older ntfs driver): the index collates through
	// the volume's $UpCase table; ntfs3 is case-sensitive in the dentry
	// cache unless mounted nocase, so folding may refuse more than it must.
	{magic: 0x5346544E, name: "ntfs", rule: fsFixed, findings: Findings{CaseInsensitive: true}},
	// HFS+: case-insensitive (an HFSX volume is case-sensitive, and folding
	// then refuses more than it must), names decomposed (NFD) on lookup,
	// HFS+'s ignorable code points skipped.
	{magic: 0x482B, name: "hfsplus", rule: fsFixed, findings: Findings{CaseInsensitive: true, NormalizationInsensitive: true, IgnoresIgnorable: true}},
	{magic: 0x2FC12FC1, name: "zfs", rule: fsUnknowable, why: "zfs compares names by the dataset's casesensitivity and normalization properties, which statfs does not report"},
	{magic: 0x6969, name: "nfs", rule: fsUnknowable, why: "the NFS server's filesystem compares names"},
	{magic: 0xFF534D42, name: "cifs", rule: fsUnknowable, why: "the SMB server's filesystem compares names"},
	{magic: 0xFE534D42, name: "smb2", rule: fsUnknowable, why: "the SMB server's filesystem compares names"},
	{magic: 0x65735546, name: "fuse", rule: fsUnknowable, why: "a FUSE filesystem compares names as its server chooses"},
	{magic: 0x01021997, name: "9p", rule: fsUnknowable, why: "the 9P server's filesystem compares names"},
	{magic: 0x00C36400, name: "ceph", rule: fsUnknowable, why: "CephFS compares names by a per-directory setting statfs does not report"},
}

func lookupFSType(magic uint32) (fsType, bool) {
	for _, t := range fsTypes {
		if t.magic == magic {
			return t, true
		}
	}
	return fsType{}, false
}

// Inspect reads, without writing, which filesystem d lies on (fstatfs's
// f_type), d's casefold attribute and, on XFS, the filesystem's geometry
// flags, and concludes from the table of known filesystems how d compares
// names. Everything is read through d's descriptor. An f_type not in the
// table, a filesystem whose comparison is decided elsewhere, and a
// casefolded directory are inconclusive (Why says which).
func Inspect(d *Dir) Inspection {
	var st unix.Statfs_t
	if err := unix.Fstatfs(d.fd, &st); err != nil {
		return Inspection{FS: "unknown", Why: "statfs failed: " + err.Error()}
	}
	return classify(uint32(st.Type), func() (uint32, error) {
		return unix.IoctlGetUint32(d.fd, unix.FS_IOC_GETFLAGS)
	}, func() (uint32, error) { return xfsGeometryFlags(d.fd) })
}

// classify is Inspect's decision, apart from the system calls that feed it.
func classify(magic uint32, inodeFlags, xfsFlags func() (uint32, error)) Inspection {
	t, ok := lookupFSType(magic)
	if !ok {
		name := fmt.Sprintf("unknown (f_type %#x)", magic)
		return Inspection{FS: name, Why: "the filesystem (" + name + ") is not one whose name comparison lola knows"}
	}
	in := Inspection{FS: t.name}
	switch t.rule {
	case fsFixed:
		in.Conclusive, in.Findings = true, t.findings
	case fsCasefoldable:
		flags, err := inodeFlags()
		switch {
		case err == nil && flags&fsCasefoldFL != 0:
			in.Findings.CasefoldFlag = true
			in.Why = "the root directory is casefolded (" + t.name + ", chattr +F), and how the kernel folds names there depends on its version"
		case err == nil, t.name == "tmpfs":
			// tmpfs answers FS_IOC_GETFLAGS since Linux 6.0, and casefolds
			// only since 6.13: a kernel that cannot say cannot casefold.
			in.Conclusive = true
		default:
			in.Why = "the casefold attribute of the root directory (" + t.name + ") cannot be read: " + err.Error()
		}
	case fsXFS:
		flags, err := xfsFlags()
		switch {
		case err != nil:
			in.Why = "the geometry of the xfs filesystem cannot be read: " + err.Error()
		case flags&xfsGeomFlagsDirV2CI != 0:
			// ASCII case-insensitive: folding all of case refuses more.
			in.Conclusive, in.Findings = true, Findings{CaseInsensitive: true}
		default:
			in.Conclusive = true
		}
	default:
		in.Why = t.why
	}
	return in
}

// XFS_IOC_FSGEOMETRY_V1 (_IOR('X', 100, struct xfs_fsop_geom_v1), 112
// bytes) and the flag of an ASCII case-insensitive filesystem
// (XFS_FSOP_GEOM_FLAGS_DIRV2CI, in the u32 flags at byte 92).
const (
	xfsIocFSGeometryV1  = 0x80705864
	xfsGeomV1Size       = 112
	xfsGeomFlagsOffset  = 92
	xfsGeomFlagsDirV2CI = 0x1000
)

func xfsGeometryFlags(fd int) (uint32, error) {
	var geom [xfsGeomV1Size / 8]uint64 // 8-byte aligned, as the kernel's struct
	if _, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), xfsIocFSGeometryV1, uintptr(unsafe.Pointer(&geom[0]))); errno != 0 {
		return 0, errno
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(&geom[0])), xfsGeomV1Size)
	return binary.NativeEndian.Uint32(b[xfsGeomFlagsOffset:]), nil
}
