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
// Non-guarantees: a lexically valid path may still be refused by the
// executor (a symlink, a reparse point, another device, a name too long for
// the filesystem).
package pathrule
