package apply

import (
	"os"

	"github.com/lola-pm/lola/host/fsroot"
	"github.com/lola-pm/lola/host/pathrule"
	"github.com/lola-pm/lola/schema"
)

// ResolvedIntent is one intent as the observer sees it before the apply:
// its index in the plan as emitted, its op, its root-relative paths (both
// ends of a rename) as resolved beneath the root, and for a write the
// SHA-256 of its content (never the content).
type ResolvedIntent struct {
	Index  int
	Op     schema.Op
	Paths  []string
	SHA256 string
}

// EventKind names a per-step event. The string is the event's spelling.
type EventKind string

// Events reported while an apply runs.
const (
	EventStaged   EventKind = "staged"   // content of an intent staged
	EventDeleted  EventKind = "deleted"  // target moved aside into staging
	EventNoop     EventKind = "noop"     // a delete found nothing (or its ancestor's delete covered it)
	EventMkdir    EventKind = "mkdir"    // a directory created by the host
	EventRenamed  EventKind = "renamed"  // a rename performed
	EventPlaced   EventKind = "placed"   // content renamed into place
	EventReplaced EventKind = "replaced" // an existing file moved aside for a write
	EventUndone   EventKind = "undone"   // a change undone during rollback
)

// Event is one thing that happened, under the intent that caused it.
type Event struct {
	Intent int
	Kind   EventKind
	Path   string // root-relative
}

// Observer receives the audit trail of one apply. Begin is called once
// before anything changes; an error from it aborts the apply with nothing
// done (a plan that cannot be logged is not applied). Event is called as
// things happen, Outcome once at the end.
type Observer interface {
	Begin(intents []ResolvedIntent) error
	Event(Event)
	Outcome(Result)
}

// Tagger is an Observer that names the apply for its log (the audit
// correlation id). The tag, read after Begin, is kept in the journal so
// that a recovery after a crash can report its outcome under it
// (RecoveryReport.Tag). It must not carry host paths or secrets.
type Tagger interface {
	Tag() string
}

// Remote produces the content of fetch and clone steps. The apply calls it
// while staging, before the tree is touched: Fetch writes the body into
// dst, a fresh file in staging; Clone checks out into dir, a fresh empty
// directory in staging (dirPath names dir for path-based libraries —
// /proc/self/fd/N on Linux, "" where none exists; it must not be shown to
// the extension or logged). An error fails the apply,
// which rolls back naming the step's intent.
type Remote interface {
	Fetch(step pathrule.Step, dst *os.File) error
	Clone(step pathrule.Step, dir *fsroot.Dir, dirPath string) error
}

// ErrNoRemote is the failure of a fetch or clone step when no Remote is
// configured.
var ErrNoRemote error = errorString("no remote executor configured: fetch and clone cannot be performed")

type errorString string

func (e errorString) Error() string { return string(e) }

// Result is how an apply ended.
type Result struct {
	Outcome Outcome
	// Trigger is the index (in the plan as emitted) of the intent whose
	// failure caused a rollback, or -1.
	Trigger int
	// TriggerOp is that intent's op.
	TriggerOp schema.Op
	// Cause is the failure that triggered the rollback (nil when committed).
	Cause error
	// RollbackErr is why rollback failed (OutcomeRollbackFailed only).
	RollbackErr error
}

type nopObserver struct{}

func (nopObserver) Begin([]ResolvedIntent) error { return nil }
func (nopObserver) Event(Event)                  {}
func (nopObserver) Outcome(Result)               {}
