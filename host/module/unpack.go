package module

import (
	"errors"
	"fmt"
	"path/filepath"
)

// Unpack stages a local source (a folder, a .zip or a .tar/.tar.gz/.tgz)
// into dir, which must not exist, under exactly the rules Store.Add uses:
// every entry is checked against the path vocabulary, the namespace rules
// (duplicates, case-fold collisions) and the bounds b before it is written;
// symbolic and hard links, devices and FIFOs are refused; only regular
// files (keeping the executable bit) and directories are created. It
// returns the root of what was staged: dir, or, for an archive whose
// entries all lie under one top-level directory and which holds no file
// named topFile at its top, that directory (as GitHub's archive downloads
// need). It exists so that other intakes (host/extension's `ext add`)
// reuse this unpacker instead of writing a second one.
//
// On error dir may hold a partial tree: the caller removes it. A remote
// source is refused here: Stage fetches it through host/remote first.
func Unpack(src Source, dir string, b Bounds, topFile string) (root string, err error) {
	if src.kind == sourceUnknown {
		return "", errors.New("module: a Source must be built with ParseSource")
	}
	if !b.valid() {
		b = DefaultBounds()
	}
	st, err := newStager(dir, b)
	if err != nil {
		return "", err
	}
	if err := stageLocal(src, st); err != nil {
		return "", fmt.Errorf("%s source: %w", src.kind, err)
	}
	if src.archived() {
		if ok, _ := regularAt(dir, topFile); !ok {
			if sub := singleDir(dir); sub != "" {
				return sub, nil
			}
		}
	}
	return filepath.Clean(dir), nil
}

// stageLocal stages a folder, .zip or tar source through st: the one
// dispatch Unpack and Store.Add share.
func stageLocal(src Source, st *stager) error {
	switch src.kind {
	case SourceFolder:
		return st.folder(src.loc, folderScope(src.raw))
	case SourceZip:
		return unpackZip(src.loc, st)
	case SourceTar:
		return unpackTar(src.loc, st)
	}
	return errors.New("only a folder or an archive can be unpacked here")
}
