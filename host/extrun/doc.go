// Package extrun is one `lola ext run`: an extension named on the command
// line run once, its plan taken through the pipeline, and the outcome
// decided — report, exit code and all — so that the CLI only parses
// flags, calls Run and prints.
//
// Run, in order:
//
//  1. resolves EXT (host/extension.ResolveRun): an extension directory, the
//     name of an extension lola knows, a .wasm module or a native
//     executable; a bare artifact that an enclosing extension directory's
//     manifest declares runs as that extension (its capabilities, path
//     grant and managed files), so the dev loop equals production;
//  2. refuses what the flags cannot mean: --caps for an extension whose
//     manifest declares its capabilities, a native (tier-2) extension under
//     --dry-run without TrustNative;
//  3. builds the request (LoadRequest: a file of at most
//     MaxRequestBytes, 64 MiB, the shim's request bound, so a request
//     'lola ext request' prints for a module the store holds runs here
//     too; it was 16 MiB, under a 20 MiB module's) and, for an extension with a
//     manifest, hands it the managed files as they are under the root;
//  4. holds an extension added or linked under $LOLA_HOME to its pin and
//     the trust policy (host/extension.PinFor); a refusal is audited when
//     it is a rule (extension.changed, extension.unsigned), dry run or
//     not, and nothing runs;
//  5. launches it (host/pipeline.RunExtension) and, when it returned a
//     plan, takes the plan through pipeline.Apply as the Proposer the
//     audit log names (name and version, artifact digest, signature
//     verdict, tier, capabilities, confinement layers, and for an
//     extension with a manifest its effective path grant, judged bytewise).
//
// Guarantees:
//   - Every failure Run returns is an *exitcode.Error carrying the code of
//     lola's closed set decided here: 2 for what the user asked wrongly
//     (EXT, --caps, --dry-run of a native extension, --request, --fs, the
//     launch's limits, a config.yaml the remote client cannot use), 3 for a
//     managed file a rule refuses and a rejected plan, 4 for a pin or trust
//     refusal and an extension that produced no plan (exitcode.ForChild),
//     5 and 6 for a rolled-back apply and a failed rollback, 1 for the rest.
//     A nil error is a committed plan or a dry run.
//   - Result.Report, when set, is the --json object, the same bytes
//     whatever prints it; it never carries a content body (sizes and
//     sha256), a header value (names only), or a URL's userinfo or query
//     values (remote.RedactURL), and names the extension, never its host
//     path. It is nil when nothing ran or the run failed before a
//     report could say anything.
//   - Nothing under the root changes unless the plan passed every check
//     (pipeline's guarantees hold unchanged); a dry run writes no audit
//     record but a refused pin's.
//
// Non-guarantees: the text of the Notices and messages is for people and
// may change; the report's member set is the contract. Run does not watch
// for signals: the caller's ctx ends the run. A tier-2 extension is
// trusted code: its launch is bounded and audited, not confined.
package extrun
