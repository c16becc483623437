//go:build !unix

package fsroottest

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Stamps renders every entry beneath root, root included: relative path,
// mode, size and modification time. Windows keeps a change time, but
// os.FileInfo does not expose it, so an entry created and removed beneath
// a directory whose modification time was then restored does not show.
func Stamps(tb testing.TB, root string) string {
	tb.Helper()
	var lines []string
	err := filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		lines = append(lines, fmt.Sprintf("%s mode=%v size=%d mtime=%d", rel, info.Mode(), info.Size(), info.ModTime().UnixNano()))
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}
