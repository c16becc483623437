package module

import "path/filepath"

// contentRoot is where AddOptions.Content puts the module's content in the
// staged tree: "" is the tree, where Discover still prefers a module/
// folder (explicit false); "/", "." and "./" are the tree itself as the
// content, a module/ folder notwithstanding (rel ""); anything else is
// that directory of the tree, under contentOf's rules (rel its cleaned
// path). With an explicit content directory the whole tree is stored, as
// today's Lola stores it, and the directory is recorded in the module's
// .lola/source.yml.
func contentRoot(tree, content string) (dir, rel string, explicit bool, err error) {
	if content == "" {
		return tree, "", false, nil
	}
	rel, _, err = contentOf(tree, content)
	if err != nil {
		return "", "", true, err
	}
	return filepath.Join(tree, filepath.FromSlash(rel)), rel, true, nil
}

type contentError struct{ p string }

func (e *contentError) Error() string {
	return "content directory " + quoteName(e.p) + " is not in the source"
}
func (e *contentError) Unwrap() error { return ErrNotModule }
