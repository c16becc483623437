// Package pipeline is one extension run, end to end: launch the extension
// (tier 1 through the confined shim, tier 2 as a native child), then take
// the plan it returned — or a plan file — through every host check and, on
// success, through the atomic executor, with the audit log written at each
// step.
//
// The checks run in a fixed order and all of them report: granted
// capabilities (capability.missing), the path vocabulary and conflict rules
// under the root's path-equality relation (path.*, conflict.*), the
// extension's effective path grant (grant.outside), then descriptor-based
// resolution beneath the root (path.symlink, path.cross-device, ...). A
// plan that fails any is rejected whole and logged with its rules; nothing
// is applied.
//
// Guarantees: nothing under the root changes unless Apply returns
// OutcomeCommitted (or OutcomeRolledBack, after which the tree is pre-plan,
// or OutcomeRollbackFailed, the loudest outcome); a dry run applies nothing,
// creates nothing under the root (not even for an instant: with --fs auto
// the root's filesystem is identified by reading its type, and where that
// is not conclusive the dry run compares names under the relation that
// folds the most and says so in Result.RelationNote) and writes no plan,
// event or outcome record (a rejection is still logged when Options.Log is
// set); every Apply, a dry run included, first recovers what an
// interrupted earlier apply left under the root, and logs that recovery;
// an applied plan has a pre-apply audit record and an outcome record
// under one correlation id, with the address dialled at every fetch and
// clone hop appended between them. Those are all the records an applied
// plan costs the log, whatever its size: per-step progress (staged,
// placed, ...) is the apply journal's, and reaches the log only as totals
// by step kind in the outcome record. The whole apply costs 3 + (remote
// hops) flushes on Linux when $LOLA_HOME lies on the root's filesystem
// (the pre-apply record is made durable by the executor's syncfs before
// the first change), 4 + (remote hops) when it does not.
//
// # Bounds of a run
//
// A tier-1 run without a Launch.Timeout gets the shim's default limits
// (host/shim.DefaultLimits: a 64 MiB request, a 64 MiB plan, 256 MiB of
// linear memory, 15 s to compile) and a clock of 20 s raised by 2 s for
// each MiB of request (shim.Limits.ForRequest; 72 s for the 26 MiB
// request of a 500-file, 20 MiB module); a Timeout is the outer deadline
// instead. A run that produced no plan says why (Launched.Why: the limit
// hit, with its figure, or how the child ended) and keeps the extension's
// stderr (GuestLog; GuestLogExcerpt, its first 5 and last 10 lines, for a
// report without -v).
package pipeline
