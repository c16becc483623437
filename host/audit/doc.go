// Package audit is the host's tamper-evident audit log: JSON Lines, one
// record per line, appended under an exclusive lock and fsynced per record.
//
// # What is logged
//
// Before a plan is applied, a "plan" record (Log.Begin): a random 128-bit
// correlation id, the extension's identity and version, its tier, the
// capabilities it was granted, the confinement layers achieved, and every
// intent with its index, op and root-relative paths; a write's content as
// its sha256 and size; a fetch or clone URL with userinfo removed and any
// query replaced by a marker; header names, never values, and the names of
// the headers the host dropped. While it applies, one "event" record under
// the same correlation id per remote hop: the address actually dialled
// (Log.Hops returns a recorder with host/remote's HopObserver shape).
// Afterwards a distinct "outcome" record (Log.Outcome): committed,
// rolled-back naming the intent that triggered it and the rule, or
// rollback-failed, with the executor's step totals by kind (staged, placed,
// mkdir, undone, ...; Outcome.WithSteps) and the directories the host
// created (Outcome.WithCreatedDirs). A plan refused before apply is a
// "rejected" record (Log.Rejected) carrying the rules and intents.
//
// # Cost: O(1) fsyncs per plan
//
// An applied plan costs the log 2 + (remote hops) records, each appended
// under the file lock: the pre-apply record before the tree is touched,
// each hop before its bytes are used, the outcome after the commit
// (creating the log costs one directory fsync, once). Each is fsynced,
// except a pre-apply record written with BeginFlushedBy on the filesystem
// the caller flushes whole before the first change (host/apply's syncfs
// of the root, when $LOLA_HOME lies on the root's filesystem): that flush
// makes it durable before the tree changes, with the staged content, so
// an applied plan then costs the log 1 + (remote hops) fsyncs, and the
// whole apply 3 + (remote hops) flushes (4 + hops with the log elsewhere). Per-path
// progress is not logged record by record (host/apply's journal is what
// recovery needs; its per-path events would be two or three fsynced records
// per intent); the pipeline counts them into the outcome. What that drops:
// which intent's target existed before (replaced vs added) and the order
// of the executor's steps; the tree diff the CLI prints carries the former.
// Log.Event still accepts Step events for callers that want them. Each
// record takes the lock once rather than one lock being held across the
// apply, on purpose: a plan's records are minutes apart when it clones, and
// every other lola process on the home would wait that long to log.
// Log.Syncs counts the fsyncs a Log issued, for tests and benchmarks.
//
// # Guarantees
//
//   - Redaction is a property of the types, not of callers: every value the
//     write API accepts is a validated type (Extension, IntentRecord, Event,
//     Outcome, closed vocabularies, schema.Rule, schema.Capability), and none
//     has a field that can carry a content body, a header value, URL userinfo
//     or a URL query. Untrusted text that fails its field's vocabulary (a path
//     that does not parse, a header name that is not a token) is logged as a
//     digest and a length, never as text. Error messages are never logged:
//     only the rules they carry.
//   - Nothing here logs a host absolute path: paths are root-relative, and a
//     root is logged only as an opaque RootID.
//   - Each record carries a sequence number (1, 2, ...) and "prev", the
//     sha256 of the previous record's exact line bytes (without its newline);
//     the first record chains from GenesisHash. Verify finds an edited,
//     dropped, inserted or reordered record, or a torn last line, and names
//     the sequence number where the chain breaks.
//   - An append is one write of one whole line under an exclusive lock on the
//     file (flock on Unix, LockFileEx on Windows), after reading the tail
//     under that lock, so appenders in separate processes keep one valid
//     chain. Each record is fsynced before the call returns (a record
//     written with BeginFlushedBy is made durable by the caller's flush
//     instead, before the caller acts on it); a record that could not be
//     made durable is reported as an error, and callers must treat that as
//     a refusal to proceed (log before apply).
//   - The file is created 0600 in a directory created 0700; an existing file
//     with wider permissions is tightened to 0600 on Open (Unix).
//   - A torn last line (bytes after the last newline) can only be an append
//     that never returned, or one whose flush never completed: a process
//     killed mid-write, or a power loss before the fsync (or the caller's
//     flush, for BeginFlushedBy). Nobody acted on it, so the next append cuts it off and first
//     writes a "repair" record carrying its length and sha256: the cut is on
//     the chain, and a crash never stops the log (crash recovery must be able
//     to log). Until then Verify reports the torn line. A last line that is
//     complete but not a record is not a crash artifact, and appends refuse
//     it (fail closed).
//   - A plan record with no outcome record means the apply never logged its
//     end (killed before it); crash recovery logs the outcome it restores
//     under the same correlation id.
//
// # The anchor, and what each layer proves
//
// Beside the log, the host keeps audit.key (32 random bytes, 0600, drawn
// on the first Open of a home) and audit.head: the last record's seq and
// line hash, with an HMAC-SHA256 over both under the key. The head is
// rewritten by write-then-rename after every record, under the log's lock.
// Verify checks three layers, and reports which one failed:
//
//   - The chain (prev hashes, seq numbers) proves every record up to the
//     last one is the record its successor committed to: an edit, drop,
//     insertion or reorder inside the log is named by seq. It cannot see the
//     log's own tail: removing the last records, or editing the last one,
//     leaves a valid chain.
//   - The head proves where the log ended: records removed from the end
//     (the last record, the last plan, every record, the file itself) are
//     ProblemTruncated, and a log edited and then re-chained (every later
//     prev recomputed) ends in a hash the head does not name:
//     ProblemAnchorMismatch. A missing head over a non-empty log is
//     ProblemAnchorMissing.
//   - The MAC proves the head was written by a holder of the key: a head
//     rewritten to fit an edited log without the key is
//     ProblemAnchorForged; a missing key is ProblemAnchorKey.
//
// The head is not fsynced (its record is, before it): after a power loss it
// may lag the log, never lead it. A record written without its own fsync
// (BeginFlushedBy) is not anchored at all until the next fsynced record,
// since it may not be durable when the head would be renamed; a fresh
// log's head then names the empty log. Verify reports the records after
// the head as unanchored (Head.Unanchored), covered by the chain only,
// and the next append anchors them: a crash between a record and its
// anchor, or an apply that is running, or was killed, after its
// pre-apply record, leaves one. Appends cost one fsync per record; the
// head adds a small write and a rename, no fsync.
//
// # Non-guarantees
//
// The key lives in $LOLA_HOME next to the log, with the same owner. Whoever
// can read the key and write $LOLA_HOME (the user, root, any process
// running as the user) can rewrite the log, re-chain it, and re-MAC the
// head: the anchor detects accidental truncation, tools that edit only the
// log, and writers that cannot read the key, not the user's own account.
// Removing both the head and the key and then letting lola append anchors
// whatever the log holds at that moment; Verify run before that append
// reports ProblemAnchorMissing. For evidence against the account itself,
// copy Verify's Head (seq and hash) somewhere that account cannot write.
// The log is evidence, not a defence: it records what an extension declared
// and what the host did; it prevents nothing.
package audit
