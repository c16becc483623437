package extension

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/lola-pm/lola/host/module"
)

// manifestPick is module.Pick for an extension: from its manifest's bytes,
// every declared artifact and the Sigstore bundle beside each. It is all an
// extension directory holds that lola reads, so it is all `ext add` and
// `ext pack` take.
func manifestPick(top []byte) ([]string, error) {
	m, err := ParseManifest(bytes.NewReader(top))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", ManifestFile, err)
	}
	var out []string
	for _, t := range m.Tiers() {
		p, _ := m.Artifact(t)
		out = append(out, p.String(), p.String()+BundleSuffix)
	}
	return out, nil
}

// ReadManifest reads and validates dir's manifest as Load does (strictly:
// an unknown key such as a misspelt "capabilites" refuses it), without
// requiring any artifact to be built: for `lola ext build`, which builds
// them. The manifest is resolved inside dir (os.Root).
func ReadManifest(dir string) (*Manifest, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, errors.New("no such extension directory")
		}
		return nil, errors.New("not an extension directory (cannot open it as a directory)")
	}
	defer root.Close()
	return manifestIn(root.FS())
}

// PackedFile is one file of a packed archive.
type PackedFile struct {
	Path string
	Size int64
	Mode fs.FileMode // 0755 for the tier-2 artifact, 0644 for the rest
}

// Packed reports a Pack: the extension and what the archive holds, in
// archive order. Missing names each declared artifact that is not built,
// and Unsigned each packed tier-2 artifact without a bundle, which `ext
// add` refuses unless it is opted in (--allow-unsigned).
type Packed struct {
	Name, Version string
	Files         []PackedFile
	Missing       []Tier
	Unsigned      []Tier
}

// packTime is every entry's modification time: fixed, so the bytes depend
// on the content alone.
var packTime = time.Unix(0, 0).UTC()

// Pack writes the extension directory dir to w as a .tar.gz that `lola ext
// add` installs. Guarantees:
//   - it holds exactly what Add takes from dir: the manifest, each declared
//     artifact that is built and the <artifact>.sigstore.json beside it
//     when present, read by host/module's intake (module.Stage with the
//     manifest's pick), so the same path rules and bounds b refuse the
//     same directories (a named file that is a symbolic link or lies under
//     one: path.symlink; a file over the bound: module.file-bytes); the
//     rest of dir (sources, target/, node_modules/) is never read;
//   - the manifest is strict and at least one artifact must be built, as
//     for Load;
//   - it is deterministic: regular-file entries only (no directories, no
//     links), in byte order of their paths, at the archive's top, owned by
//     uid and gid 0 with no names, modified at the Unix epoch, mode 0755
//     for the tier-2 artifact and 0644 for every other file, gzip with no
//     name or time: the same files give the same bytes whatever their
//     times, owners, modes or location on disk.
//
// Nothing is written to w unless the whole archive could be built.
func Pack(dir string, w io.Writer, b module.Bounds) (*Packed, error) {
	src, err := module.ParseSource(dir)
	if err != nil {
		return nil, err
	}
	if src.Kind() != module.SourceFolder {
		return nil, errors.New("lola ext pack takes an extension directory")
	}
	scratch, err := os.MkdirTemp("", "lola-pack-")
	if err != nil {
		return nil, errors.New("cannot create a scratch directory")
	}
	defer os.RemoveAll(scratch)
	root, _, err := module.Stage(context.Background(), src, scratch, b, ManifestFile, module.Remote{}, manifestPick)
	if err != nil {
		return nil, err
	}
	e, err := loadDir(root, SourceDir)
	if err != nil {
		return nil, err
	}
	rep := &Packed{Name: e.Name(), Version: e.Version()}
	exec := ""
	for _, a := range e.artifacts {
		switch {
		case !a.present:
			rep.Missing = append(rep.Missing, a.tier)
			continue
		case a.tier == Tier2:
			exec = a.path.String()
		}
		if _, err := os.Lstat(a.hostPath + BundleSuffix); err != nil && a.tier == Tier2 {
			rep.Unsigned = append(rep.Unsigned, a.tier)
		}
	}
	var paths []string
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			rel, rerr := filepath.Rel(root, p)
			paths = append(paths, filepath.ToSlash(rel))
			return rerr
		}
		return err
	})
	if err != nil {
		return nil, errors.New("cannot read the staged extension")
	}
	slices.Sort(paths)
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	tw := tar.NewWriter(zw)
	for _, p := range paths {
		body, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil {
			return nil, errors.New("cannot read the staged extension")
		}
		mode := fs.FileMode(0o644)
		if p == exec {
			mode = 0o755
		}
		hdr := &tar.Header{Typeflag: tar.TypeReg, Name: p, Size: int64(len(body)), Mode: int64(mode), ModTime: packTime}
		if err := tw.WriteHeader(hdr); err != nil {
			return nil, fmt.Errorf("%s: %w", quote(p), err)
		}
		if _, err := tw.Write(body); err != nil {
			return nil, err
		}
		rep.Files = append(rep.Files, PackedFile{Path: p, Size: int64(len(body)), Mode: mode})
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return nil, err
	}
	return rep, nil
}

// PackFile is Pack into the file out, written whole or not at all
// (writeWhole: a symbolic link at out is replaced, never written through;
// a directory is refused). An
// empty out is NAME-VERSION.tar.gz in the working directory; out must end
// in .tar.gz or .tgz, the names Add recognises as a tar archive. It
// returns the report and the file written.
func PackFile(dir, out string, b module.Bounds) (*Packed, string, error) {
	if out != "" && !PackName(out) {
		return nil, "", fmt.Errorf("%s must end in .tar.gz or .tgz, which lola ext add recognises", quote(out))
	}
	var buf bytes.Buffer
	rep, err := Pack(dir, &buf, b)
	if err != nil {
		return nil, "", err
	}
	if out == "" {
		out = rep.Name + "-" + rep.Version + ".tar.gz"
	}
	if fi, err := os.Lstat(out); err == nil && fi.IsDir() {
		return nil, "", fmt.Errorf("%s is a directory", quote(out))
	}
	if err := writeWhole(out, buf.Bytes(), 0o644); err != nil {
		return nil, "", fmt.Errorf("cannot write %s", quote(out))
	}
	return rep, out, nil
}

// PackName reports whether name ends in .tar.gz or .tgz (any case).
func PackName(name string) bool {
	low := strings.ToLower(name)
	return strings.HasSuffix(low, ".tar.gz") || strings.HasSuffix(low, ".tgz")
}
