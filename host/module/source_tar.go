package module

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"strconv"

	"github.com/lola-pm/lola/host/internal/errpath"
	"github.com/lola-pm/lola/schema"
)

// unpackTar stages every entry of the tar archive at path, gzip-compressed
// or not (recognised by its magic bytes, whatever the extension says),
// except .git directories and what lies beneath them (inGitDir).
// Regular files and directories are staged; a symbolic link is staged as
// what it resolves to inside the archive when s follows links
// (expandLinks), else refused (path.symlink); hard links are refused
// (path.symlink), and so are character and block devices, FIFOs, sparse
// files and any type this reader does not know (path.invalid).
// The decompressed stream as a whole is bounded too, so headers and
// padding cannot inflate without limit.
func unpackTar(path string, s *stager) error {
	if err := checkArchiveSize(path, s.b); err != nil {
		return err
	}
	f, err := os.Open(path)
	if err != nil {
		return errpath.Strip(err)
	}
	defer f.Close()
	br := bufio.NewReader(f)
	var stream io.Reader = br
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		gz, err := gzip.NewReader(br)
		if err != nil {
			return errors.New("gzip: " + err.Error())
		}
		defer gz.Close()
		stream = gz
	}
	cr := &boundedStream{r: stream, left: archiveMax(s.b)}
	tr := tar.NewReader(cr)
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return s.expandLinks()
		}
		if cr.over {
			return &LimitError{Limit: LimitTotalBytes, Max: s.b.totalBytes}
		}
		if err != nil && !errors.Is(err, tar.ErrInsecurePath) {
			return errors.New("tar: " + err.Error())
		}
		if err := unpackTarEntry(hdr, tr, s); err != nil {
			if cr.over {
				return &LimitError{Limit: LimitTotalBytes, Max: s.b.totalBytes}
			}
			return err
		}
	}
}

func unpackTarEntry(hdr *tar.Header, tr *tar.Reader, s *stager) error {
	name, isDir := archiveName(hdr.Name)
	if hdr.Typeflag != tar.TypeXGlobalHeader && inGitDir(name, isDir || hdr.Typeflag == tar.TypeDir) {
		return s.count(name) // version-control state, skipped as a folder's is; still counted
	}
	switch hdr.Typeflag {
	case tar.TypeXGlobalHeader:
		// PAX global defaults: metadata, not an entry. Counted so that a
		// stream of them is bounded like any other entry.
		return s.count(name)
	case tar.TypeDir:
		if name == "" {
			return nil
		}
		return s.mkdir(name)
	case tar.TypeReg: // tar.Reader hands a legacy TypeRegA over as TypeReg (or TypeDir)
		if isDir {
			return entryViolation(schema.RulePathInvalid, name, "a regular file whose name ends in '/'")
		}
		return s.file(name, hdr.Size, tarPerm(hdr.Mode), tr)
	case tar.TypeSymlink:
		return s.symlink(name, hdr.Linkname)
	case tar.TypeLink:
		return entryViolation(schema.RulePathSymlink, name, "hard link")
	case tar.TypeChar, tar.TypeBlock:
		return entryViolation(schema.RulePathInvalid, name, "device file")
	case tar.TypeFifo:
		return entryViolation(schema.RulePathInvalid, name, "FIFO")
	default:
		return entryViolation(schema.RulePathInvalid, name, "unsupported tar entry type "+strconv.QuoteRune(rune(hdr.Typeflag)))
	}
}

// boundedStream reads at most left bytes and records whether the source
// held more.
type boundedStream struct {
	r    io.Reader
	left int64
	over bool
}

func (b *boundedStream) Read(p []byte) (int, error) {
	if b.left <= 0 {
		b.over = true
		return 0, errStreamBound
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.r.Read(p)
	b.left -= int64(n)
	return n, err
}

var errStreamBound = errors.New("archive stream exceeds its bound")
