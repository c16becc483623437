// Package bypath holds the test that keeps filesystem operations by path
// out of the packages that act on a user's tree: host/install,
// host/exttest, host/reinstall, host/sync and cmd/lola. Those packages
// reach a project (or a user's home) through host/fsroot descriptors;
// every by-path call from the os package that is left (os.WriteFile,
// os.Remove, os.RemoveAll, os.Symlink, os.Lstat, os.Rename, os.MkdirAll,
// os.Mkdir, os.Create, os.CreateTemp, os.MkdirTemp, os.OpenFile,
// os.Chmod, os.Chtimes, os.Link, os.Truncate) is on an allow-list that
// names its call site (file and function) and why it is safe: lola's own
// state under LOLA_HOME taken under its lock, a temporary directory lola
// created, or an extension author's own source tree that the author's
// toolchain writes anyway. A new call, or one moved to another function,
// fails the test until it is moved onto fsroot or listed with a reason.
//
// docs/by-path-filesystem.md lists every by-path call left in host/ and
// cmd/ and why each is safe.
package bypath
