package module

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/lola-pm/lola/host/internal/errpath"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// contentRoot is where AddOptions.Content puts the module's content in the
// staged tree: "" is the tree, where Discover still prefers a module/
// folder (explicit false); "/", "." and "./" are the tree itself as the
// content, a module/ folder notwithstanding; anything else is contentDir.
func contentRoot(tree, content string) (dir string, explicit bool, err error) {
	switch content {
	case "":
		return tree, false, nil
	case "/", ".", "./":
		return tree, true, nil
	}
	dir, err = contentDir(tree, content)
	return dir, true, err
}

// keepContent makes the explicit content directory root, staged under
// staging, read back as it is by Discover once stored: when it holds a
// module/ folder, which Discover would take for the content, root is moved
// one level down, to module/ of a new directory, and l says so. The
// directory to store is returned.
func keepContent(staging, root string, l *Layout) (string, error) {
	if ok, err := hasContentSubdir(root); err != nil || !ok {
		return root, err
	}
	wrap, err := os.MkdirTemp(staging, "content-")
	if err != nil {
		return "", errpath.Strip(err)
	}
	if err := os.Rename(root, filepath.Join(wrap, contentSubdir)); err != nil {
		return "", errpath.Strip(err)
	}
	l.ContentDir = contentSubdir
	return wrap, nil
}

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
