// Package pathrule is the lexical half of plan validation: the root-relative
// path vocabulary (Parse, Path), the target filesystem's path-equality
// relation (Equality), and the whole-plan rules over them — the conflict
// rules and the apply order (Validate, Validated, Step).
//
// Guarantees:
//   - Pure: nothing here touches the filesystem, the network or the clock.
//     The descriptor-based half of path validation (symlinks, reparse points,
//     devices) belongs to the executor, which consumes a *Validated.
//   - Portable verdicts: Parse gives the same verdict on every platform, so a
//     plan valid on one machine is lexically valid on all of them. Only the
//     equality relation differs, and it is chosen explicitly.
//   - Whole-plan: Validate either returns a *Validated covering every intent
//     or a *rejection.Set with every violation it found (conflicts are listed
//     up to MaxReportedConflicts; the verdict itself is always exact).
//   - Deterministic: every permutation of a plan's intents yields the same
//     ordered steps (the intents in the same order; only their original
//     indices differ), and the same violations.
//   - Not quadratic: conflicts are found by one sweep over the touched paths
//     sorted by their per-component keys, so the work is O(n log n) in the
//     number of paths plus the total number of components.
//
// Which relation each filesystem uses, and the evidence:
//   - APFS, case-insensitive (macOS's default; Darwin): canonical
//     equivalence plus full case folding. The linux-apfs driver, which
//     reads and writes Apple's volumes, builds its folding table from
//     CaseFolding.txt keeping statuses C and F and dropping S and T (its
//     table generator says "We are doing full case folding"), applied to
//     the NFD of each name (Unicode 9.0 data); Apple's APFS reference
//     describes case-insensitive names as normalization- and
//     case-insensitive with hashes over the folded NFD form. So "ß", "SS"
//     and "ss" are one name, as are "ﬁ" and "FI". Our data is Go's newer
//     Unicode: code points assigned after 9.0 may fold here and not on an
//     older Mac, which errs towards refusing.
//   - HFS+ (HFSPlus): Apple's TN1150 compares case-insensitively with a
//     table that maps each UTF-16 unit to at most one unit, after
//     canonical decomposition and dropping a short list of ignorable code
//     points; that is simple folding, so "ß" and "ss" are two names there.
//     Our simple folding also joins pairs TN1150's older table may not
//     (ß and ẞ), which again errs towards refusing.
//   - NTFS (Windows): the volume's $UpCase table, one code point to one,
//     no normalization.
//
// Default relation ("auto", Platform): PlatformFor(GOOS) is Darwin on
// macOS and iOS, Windows on Windows and Bytes elsewhere; the executor's
// probe of the real root refines it (ForFindings).
//
// Non-guarantees: a lexically valid path may still be refused by the
// executor (a symlink, a reparse point, another device). Overlong names
// are lexical (lexical.MaxComponentBytes, lexical.MaxPathBytes).
package pathrule
