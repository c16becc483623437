package module

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// contentDir is AddOptions.Content inside the staged tree: a relative
// slash path with no empty, "." or ".." element (path.invalid otherwise),
// naming a directory that is not a symbolic link (ErrNotModule when it is
// absent: the source holds no module there).
func contentDir(tree, content string) (string, error) {
	p := strings.TrimSuffix(content, "/")
	if strings.HasPrefix(p, "/") || strings.Contains(p, `\`) {
		return "", rejection.New(schema.RulePathInvalid, "content path "+quoteName(content)+" must be relative, with '/' separators")
	}
	for _, el := range strings.Split(p, "/") {
		if el == "" || el == "." || el == ".." {
			return "", rejection.New(schema.RulePathInvalid, "content path "+quoteName(content)+" holds an empty, '.' or '..' element")
		}
	}
	dir := filepath.Join(tree, filepath.FromSlash(p))
	st, err := os.Lstat(dir)
	if err != nil || !st.IsDir() {
		return "", &contentError{content}
	}
	return dir, nil
}

type contentError struct{ p string }

func (e *contentError) Error() string {
	return "content directory " + quoteName(e.p) + " is not in the source"
}
func (e *contentError) Unwrap() error { return ErrNotModule }
