// Package hook runs a module's install hooks as tier-2 extensions,
// compatible with the hooks today's Lola runs.
//
// A hook is declared in the module's lola.yaml (or lola.yml):
//
//	hooks:
//	  pre-install: scripts/pre.sh
//	  post-install: scripts/post.sh
//
// or on the command line (--pre-install / --post-install), which wins over
// the file. The script path is relative to the module's content directory
// and must resolve inside the module: absolute paths, ".." and symlinks that
// leave the module are refused before anything runs.
//
// A hook runs as `bash <script>` with the project directory as its working
// directory (the user's home for a user-scope install), the user's
// environment plus exactly LOLA_MODULE_NAME, LOLA_MODULE_PATH,
// LOLA_PROJECT_PATH (empty for user scope), LOLA_ASSISTANT, LOLA_SCOPE and
// LOLA_HOOK, through the same child lifecycle as every tier-2 extension:
// an outer deadline (default 300 s, as today), bounded stdout and stderr,
// process-group kill and descendant cleanup. A hook writes no plan: its exit
// status is the result and its stdout is diagnostics. The caller decides
// what a failure means (a failing pre-install hook aborts the install with
// nothing applied; a failing post-install hook only warns) and records the
// run in the audit log as a native extension.
//
// LOLA_MODULE_PATH is the module's directory in lola's store (today's Lola
// passes its copy of the module in the project, PROJECT/.lola/modules/NAME;
// lola keeps no copy there). Its layout is that copy's: the source as
// added (all of it when added with --module-content) and
// .lola/source.yml, whose content_dirname names the content directory
// (host/module.SourceInfoFile), so a hook that finds its files through it
// finds the same ones.
//
// Non-guarantee: a hook is trusted, not confined. It may touch anything the
// user can; the audit log is the record that it ran. The script is checked
// and then executed by path, so a module directory that another process
// rewrites between the check and the exec is outside this package's
// protection — module directories are lola's own state under $LOLA_HOME.
package hook
