package fsroottest

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Stamps renders every entry beneath root, root included, one line each,
// sorted: its relative path and what stamp (per platform) observes of it.
// Where the platform keeps change times (Unix), two equal renderings mean
// nothing under root was created, removed, replaced, written or had its
// attributes changed in between.
func Stamps(tb testing.TB, root string) string {
	tb.Helper()
	var lines []string
	err := filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		s, err := stamp(p, info)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		lines = append(lines, rel+" "+s)
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}
