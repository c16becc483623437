package extrun

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"

	"github.com/lola-pm/lola/host/apply"
	"github.com/lola-pm/lola/host/child"
	"github.com/lola-pm/lola/host/extension"
	"github.com/lola-pm/lola/host/pipeline"
	"github.com/lola-pm/lola/host/plan"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/host/remote"
	"github.com/lola-pm/lola/host/shim"
	"github.com/lola-pm/lola/schema"
)

// Report is the result of one run as `lola ext run --json` prints it.
// Outcome is the spelling of a pipeline.Outcome: the pipeline's, or
// extension-failed for a run that produced no plan.
type Report struct {
	Extension   string               `json:"extension"`
	Tier        string               `json:"tier"`
	Outcome     string               `json:"outcome"`
	Child       Child                `json:"child"`
	Shim        *Shim                `json:"shim,omitempty"`
	Intents     []Intent             `json:"intents"`
	Violations  []rejection.Entry    `json:"violations,omitempty"`
	Trigger     *rejection.IntentRef `json:"trigger,omitempty"`
	Changes     []apply.Change       `json:"changes,omitempty"`
	Correlation string               `json:"correlation,omitempty"`
	Recovered   *Recovery            `json:"recovered,omitempty"`
	Error       string               `json:"error,omitempty"`
	// RelationNote: for a dry run on a filesystem lola cannot identify
	// without writing, which relation stood in and why
	// (pipeline.Result.RelationNote).
	RelationNote string `json:"relation_note,omitempty"`
}

// Shim is what the tier-1 shim reported: which limit it hit, and the
// confinement it achieved.
type Shim struct {
	Kind        shim.Kind         `json:"kind"`
	Code        string            `json:"code"`
	Detail      string            `json:"detail,omitempty"`
	Confinement *shim.Confinement `json:"confinement,omitempty"`
}

// Child is how the extension's process ended.
type Child struct {
	Outcome              child.Outcome `json:"outcome"`
	ExitStatus           *int          `json:"exit_status"` // null when killed by a signal or not reaped
	Reaped               bool          `json:"reaped"`
	ElapsedMS            int64         `json:"elapsed_ms"`
	Diagnostics          string        `json:"diagnostics"`
	DiagnosticsTruncated bool          `json:"diagnostics_truncated"`
}

// Intent describes one intent of the plan without its content: sizes and
// digests for bodies, names for headers, redacted URLs.
type Intent struct {
	Index      int      `json:"index"`
	Op         string   `json:"op"`
	Path       string   `json:"path,omitempty"`
	From       string   `json:"from,omitempty"`
	To         string   `json:"to,omitempty"`
	URL        string   `json:"url,omitempty"` // userinfo and query values redacted
	Dest       string   `json:"dest,omitempty"`
	Size       *int     `json:"size,omitempty"`   // decoded content bytes
	SHA256     string   `json:"sha256,omitempty"` // of the decoded content
	Encoding   string   `json:"encoding,omitempty"`
	Executable bool     `json:"executable,omitempty"`
	Mode       string   `json:"mode,omitempty"`
	Headers    []string `json:"headers,omitempty"` // names only, never values
	Ref        string   `json:"ref,omitempty"`
	Depth      int      `json:"depth,omitempty"`
}

// Recovery is what an interrupted earlier apply under the root left,
// recovered before this one.
type Recovery struct {
	Kind    apply.Recovery `json:"kind"`
	Staging string         `json:"staging,omitempty"`
}

// newReport is the report of a launch: its plan described intent by
// intent, or, without a plan, extension-failed with the refusal's
// violations and error.
func newReport(e extension.RunTarget, l pipeline.Launched) Report {
	res := l.Child
	rep := Report{
		Extension: e.Name,
		Tier:      e.Tier.String(),
		Outcome:   pipeline.OutcomeExtensionFailed.String(),
		Child: Child{
			Outcome:              res.Outcome,
			Reaped:               res.Reaped,
			ElapsedMS:            res.Elapsed.Milliseconds(),
			Diagnostics:          string(res.Diagnostics),
			DiagnosticsTruncated: res.DiagnosticsTruncated,
		},
		Intents: []Intent{},
	}
	if res.Reaped && res.ExitStatus >= 0 {
		s := res.ExitStatus
		rep.Child.ExitStatus = &s
	}
	if l.Shim != nil {
		rep.Shim = &Shim{Kind: l.Shim.Outcome.Kind, Code: l.Shim.Outcome.Code(), Confinement: l.Shim.Confinement}
		if l.Shim.Outcome.Kind != shim.KindOK {
			rep.Shim.Detail = l.Shim.Outcome.Error()
		}
	}
	if res.Outcome == child.OutcomePlanReceived {
		rep.Outcome = ""
		for i := 0; i < res.Plan.Len(); i++ {
			rep.Intents = append(rep.Intents, describe(res.Plan, i))
		}
		return rep
	}
	rep.Violations = rejection.Entries(res.Err)
	if res.Err != nil {
		rep.Error = res.Err.Error()
	}
	return rep
}

// withPipeline records what the host did with the plan.
func (rep *Report) withPipeline(pr pipeline.Result) {
	rep.Outcome = pr.Outcome.String()
	if pr.Outcome == pipeline.OutcomeRejected {
		rep.Violations = append(rep.Violations, rejection.Entries(pr.Err)...)
	}
	rep.Trigger, rep.Changes, rep.RelationNote = pr.Trigger, pr.Changes, pr.RelationNote
	if !pr.Correlation.IsZero() {
		rep.Correlation = pr.Correlation.String()
	}
	if pr.Recovered.Kind != apply.RecoveryNone {
		rep.Recovered = &Recovery{Kind: pr.Recovered.Kind, Staging: pr.Recovered.Staging}
	}
	if pr.Outcome != pipeline.OutcomeRejected && pr.Err != nil {
		rep.Error = pr.Err.Error()
	}
}

// describe is intent i of p for the report: never a content body (its
// decoded size and sha256), never a header value (the names, sorted), a
// URL with its userinfo and query values redacted (remote.RedactURL).
func describe(p *plan.Plan, i int) Intent {
	in := p.Intent(i)
	r := Intent{Index: i, Op: string(in.Op())}
	switch {
	case in.Write != nil:
		r.Path, r.Executable, r.Mode = in.Write.Path, in.Write.Executable, in.Write.Mode
		r.Encoding = string(in.Write.Encoding)
		if r.Encoding == "" {
			r.Encoding = string(schema.EncodingUTF8)
		}
		if body, err := p.Body(i); err == nil {
			n := len(body)
			sum := sha256.Sum256(body)
			r.Size, r.SHA256 = &n, hex.EncodeToString(sum[:])
		}
	case in.Delete != nil:
		r.Path = in.Delete.Path
	case in.Rename != nil:
		r.From, r.To = in.Rename.From, in.Rename.To
	case in.Fetch != nil:
		r.URL, r.Dest = remote.RedactURL(in.Fetch.URL), in.Fetch.Dest
		for k := range in.Fetch.Headers {
			r.Headers = append(r.Headers, k)
		}
		sort.Strings(r.Headers)
	case in.Clone != nil:
		r.URL, r.Dest, r.Ref, r.Depth = remote.RedactURL(in.Clone.URL), in.Clone.Dest, in.Clone.Ref, in.Clone.Depth
	}
	return r
}
