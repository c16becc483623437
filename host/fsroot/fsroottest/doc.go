// Package fsroottest is for tests that assert a command left no trace
// under a directory: Stamps renders a tree with what no tool can put back
// (inode numbers and, on Unix, change times), so that an entry created and
// removed again, or a modification time restored afterwards, still shows.
package fsroottest
