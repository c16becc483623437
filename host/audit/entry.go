package audit

import (
	"time"

	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// Entry is one record as it is stored: the envelope every record carries
// and exactly one payload, named by Kind. Entry is the read side (Read,
// Verify, `lola audit show`); nothing writes an Entry built by a caller,
// since the write API (Log) accepts only validated types.
type Entry struct {
	Seq         uint64         `json:"seq"`
	Prev        string         `json:"prev"`
	Time        time.Time      `json:"time"`
	Kind        Kind           `json:"kind"`
	Correlation Correlation    `json:"correlation"`
	Plan        *PlanEntry     `json:"plan,omitempty"`
	Event       *EventEntry    `json:"event,omitempty"`
	Outcome     *OutcomeEntry  `json:"outcome,omitempty"`
	Rejected    *RejectedEntry `json:"rejected,omitempty"`
	Repair      *RepairEntry   `json:"repair,omitempty"`
	Run         *RunEntry      `json:"run,omitempty"`
	Override    *OverrideEntry `json:"override,omitempty"`
}

// RepairEntry records that the bytes after the log's last newline were cut
// off before this append: an earlier append that never completed, so no
// caller acted on it. Only the fragment's length and sha256 are kept.
type RepairEntry struct {
	DiscardedBytes int64  `json:"discarded_bytes"`
	SHA256         string `json:"sha256"`
}

// ExtensionEntry is an extension's logged identity.
type ExtensionEntry struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
	SHA256  string `json:"sha256,omitempty"` // of the artifact, when known
	// Signature is how that artifact was vouched for: "signed by
	// <signer>", "unsigned, opted in" or "unsigned"; a module's hook
	// "native, unsigned (runs unconfined as you)" (absent for a built-in,
	// or an artifact named on the command line).
	Signature string `json:"signature,omitempty"`
}

// PlanEntry is the pre-apply record.
type PlanEntry struct {
	Extension    ExtensionEntry      `json:"extension"`
	Tier         Tier                `json:"tier"`
	Capabilities []schema.Capability `json:"capabilities"`
	Layers       []Layer             `json:"layers"`
	Root         string              `json:"root,omitempty"` // a RootID, never a host path
	Intents      []IntentEntry       `json:"intents"`
}

// IntentEntry is one intent as logged: what it names, never what it
// carries. Paths are root-relative: one for write, delete, fetch and clone,
// two (from, to) for rename.
type IntentEntry struct {
	Index          int       `json:"index"`
	Op             schema.Op `json:"op"`
	Paths          []string  `json:"paths,omitempty"`
	SHA256         string    `json:"sha256,omitempty"` // write: of the decoded content
	Size           *int64    `json:"size,omitempty"`   // write: decoded content bytes
	Executable     bool      `json:"executable,omitempty"`
	Mode           string    `json:"mode,omitempty"` // a write's permission bits when its plan named them ("0664")
	URL            string    `json:"url,omitempty"`  // fetch, clone: no userinfo, no query, no fragment
	Method         string    `json:"method,omitempty"`
	Headers        []string  `json:"headers,omitempty"`         // names carried, sorted; never values
	DroppedHeaders []string  `json:"dropped_headers,omitempty"` // names the host dropped, sorted
	Ref            string    `json:"ref,omitempty"`
	Depth          int       `json:"depth,omitempty"`
	// Unparsed lists the untrusted fields that did not fit their vocabulary
	// (a path that does not parse, a header name that is not a token): they
	// are logged as a digest, never as text.
	Unparsed []Digest `json:"unparsed,omitempty"`
}

// Digest stands in for a field whose text is not logged.
type Digest struct {
	Field  string `json:"field"`
	SHA256 string `json:"sha256"`
	Bytes  int    `json:"bytes"`
}

// EventEntry is one event under a plan's correlation id.
type EventEntry struct {
	Kind    EventKind            `json:"kind"`
	Intent  *rejection.IntentRef `json:"intent,omitempty"`
	Hop     int                  `json:"hop,omitempty"`     // EventHop: 0 is the first request
	Host    string               `json:"host,omitempty"`    // EventHop: the URL's host[:port]
	Dialled string               `json:"dialled,omitempty"` // EventHop: the IP:port actually dialled
	Rules   []schema.Rule        `json:"rules,omitempty"`   // EventStepFailed
	Path    string               `json:"path,omitempty"`    // Step events: root-relative
	// Unparsed holds a Step event's path when it did not parse as a plan path.
	Unparsed []Digest `json:"unparsed,omitempty"`
}

// OutcomeEntry is the distinct record that says how an applied plan ended.
type OutcomeEntry struct {
	Outcome   OutcomeKind          `json:"outcome"`
	Intent    *rejection.IntentRef `json:"intent,omitempty"` // the intent that triggered a rollback
	Rules     []schema.Rule        `json:"rules,omitempty"`  // the rules of the error behind it
	Recovered bool                 `json:"recovered,omitempty"`
	// Steps counts what the executor did, by step kind (staged, placed,
	// mkdir, undone, ...): the per-path progress lives in the apply journal,
	// and only its totals are logged, so that a plan costs the log O(1)
	// records whatever its size. The paths are the pre-apply record's.
	Steps map[EventKind]int `json:"steps,omitempty"`
	// Mkdir lists, root-relative and sorted, the directories the host
	// created for the plan (parents no intent names): the one effect on the
	// tree the pre-apply record does not already spell out. A path that
	// does not parse is in Unparsed as a digest.
	Mkdir    []string `json:"mkdir,omitempty"`
	Unparsed []Digest `json:"unparsed,omitempty"`
}

// RejectedEntry is a plan refused before anything was applied.
type RejectedEntry struct {
	Extension    ExtensionEntry      `json:"extension"`
	Tier         Tier                `json:"tier"`
	Capabilities []schema.Capability `json:"capabilities"`
	Violations   []ViolationEntry    `json:"violations"`
	Intents      []IntentEntry       `json:"intents,omitempty"`
}

// ViolationEntry is one violated rule and the intents it names. A
// violation's free-text detail is not logged.
type ViolationEntry struct {
	Rule    schema.Rule           `json:"rule"`
	Intents []rejection.IntentRef `json:"intents,omitempty"`
}
