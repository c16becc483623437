package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lola-pm/lola/host/audit"
	"github.com/lola-pm/lola/host/exitcode"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

func init() { topCommands = append(topCommands, newAuditCmd) }

func newAuditCmd() *cobra.Command {
	var home string
	c := &cobra.Command{
		Use:   "audit",
		Short: "Show and verify the audit log of every plan lola applied or refused",
		Long: `The audit log ($LOLA_HOME/audit.jsonl, default ~/.lola/audit.jsonl) records,
for every plan: before apply, the extension, tier, granted capabilities,
confinement layers and every intent with its root-relative paths and content
hashes (never bodies, never credentials); while applying, events such as the
address dialled at each redirect hop; afterwards a distinct outcome
(committed, rolled-back naming the intent, rollback-failed). Refused plans are
logged with the rules that refused them. Records are hash-chained.`,
	}
	c.PersistentFlags().StringVar(&home, "home", "", "Lola's state directory (default $LOLA_HOME, else ~/.lola)")
	logPath := func() (string, error) {
		if home != "" {
			abs, err := filepath.Abs(home)
			if err != nil {
				return "", exitcode.Wrap(exitcode.Usage, fmt.Errorf("--home: %w", err))
			}
			return filepath.Join(abs, audit.FileName), nil
		}
		p, err := audit.DefaultPath()
		if err != nil {
			return "", exitcode.Wrap(exitcode.Internal, err)
		}
		return p, nil
	}
	c.AddCommand(newAuditShowCmd(logPath), newAuditVerifyCmd(logPath))
	return c
}

func newAuditShowCmd(logPath func() (string, error)) *cobra.Command {
	var corr string
	var asJSON bool
	c := &cobra.Command{
		Use:   "show [--correlation ID] [--json]",
		Short: "Print the audit log, or the records of one plan",
		Long: `Print the audit log's records in order. With --correlation, only the records
of one plan: its pre-apply record, its events and its outcome (or its
rejection). With --json, one object {"records": [...]}, each record as stored.
show does not check the hash chain; 'lola audit verify' does.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			var f audit.Filter
			if corr != "" {
				c, err := audit.ParseCorrelation(corr)
				if err != nil {
					return exitcode.Wrap(exitcode.Usage, fmt.Errorf("--correlation: %w", err))
				}
				f.Correlation = c
			}
			path, err := logPath()
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			var records []audit.Entry
			scanErr := audit.Scan(path, f, func(e audit.Entry) error {
				if asJSON {
					records = append(records, e)
				} else {
					printEntry(out, e)
				}
				return nil
			})
			missing := errors.Is(scanErr, fs.ErrNotExist)
			if missing {
				scanErr = nil
			}
			if asJSON {
				if records == nil {
					records = []audit.Entry{}
				}
				if err := writeJSON(out, map[string]any{"records": records}); err != nil {
					return exitcode.Wrap(exitcode.Internal, err)
				}
			} else if missing {
				fmt.Fprintln(out, "no audit log yet")
			}
			if scanErr != nil {
				return exitcode.Wrap(exitcode.Internal, fmt.Errorf("%w (records before it were shown; run 'lola audit verify')", scanErr))
			}
			return nil
		},
	}
	c.Flags().StringVar(&corr, "correlation", "", "only the records of the plan with this correlation id (32 hex digits)")
	c.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	return c
}

func newAuditVerifyCmd(logPath func() (string, error)) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "verify [--json]",
		Short: "Check the audit log's hash chain",
		Long: `Check that every record of the audit log is intact and in place: sequence
numbers 1, 2, 3, ... and each record carrying the sha256 of the one before.
An edited, dropped, inserted or reordered record, or a truncated last line,
is reported with the sequence number where the chain breaks, and verify then
exits 1.

Then it checks the anchor beside the log: audit.head names the last record
(seq and hash) and carries a MAC under audit.key (0600), both rewritten after
every record. Records removed from the end (the last one, the last plan,
every record) are reported as "truncated"; a log edited and re-chained as
"anchor-mismatch"; a head not written with the key as "anchor-forged".

What this cannot prove: the key sits in $LOLA_HOME beside the log, so anyone
who can read it and write there (your own account) can rewrite the log and
re-anchor it. To detect that, copy the printed head somewhere that account
cannot write.

A torn last line is what a crash mid-append leaves; the next append cuts it
off behind a "repair" record, which verify counts. A missing log with no
anchor is reported and is not an error.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			path, err := logPath()
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			head, err := audit.Verify(path)
			if errors.Is(err, fs.ErrNotExist) {
				if asJSON {
					return jsonOrInternal(out, map[string]any{"intact": true, "exists": false, "records": 0})
				}
				fmt.Fprintln(out, "no audit log yet: nothing to verify")
				return nil
			}
			var ce *audit.ChainError
			if errors.As(err, &ce) {
				if asJSON {
					if jerr := writeJSON(out, map[string]any{"intact": false, "exists": true,
						"seq": ce.Seq, "line": ce.Line, "problem": ce.Problem, "detail": ce.Error()}); jerr != nil {
						return exitcode.Wrap(exitcode.Internal, jerr)
					}
					return exitcode.Wrap(exitcode.ForVerify(err), errors.New(ce.Error()))
				}
				return exitcode.Wrap(exitcode.ForVerify(err), errors.New(ce.Error()))
			}
			if err != nil {
				return exitcode.Wrap(exitcode.Internal, err)
			}
			if asJSON {
				return jsonOrInternal(out, map[string]any{"intact": true, "exists": true, "records": head.Records, "head": head.Hash, "repairs": head.Repairs,
					"anchored": head.Anchored, "anchor_seq": head.AnchorSeq, "unanchored": head.Unanchored})
			}
			fmt.Fprintf(out, "audit log intact: %d records, head %s\n", head.Records, head.Hash)
			printAnchor(out, head)
			if head.Repairs > 0 {
				fmt.Fprintf(out, "%d torn tail(s) of appends that never completed were cut off (see 'lola audit show')\n", head.Repairs)
			}
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	return c
}

// printAnchor says what the anchor proved about an intact log, and what
// nothing here can prove.
func printAnchor(out io.Writer, head audit.Head) {
	if !head.Anchored {
		return // an empty log: nothing to anchor yet
	}
	fmt.Fprintf(out, "anchored at seq %d (%s, MAC under %s): no record was removed from the end or edited and re-chained, unless by a holder of the key\n",
		head.AnchorSeq, audit.HeadFileName, audit.KeyFileName)
	if head.Unanchored > 0 {
		fmt.Fprintf(out, "%d record(s) after the anchor are covered by the chain only (an apply running, or killed, after its pre-apply record, or a crash between a record and its anchor; the next append anchors them)\n", head.Unanchored)
	}
	fmt.Fprintln(out, "not proven: whoever can read the key and write $LOLA_HOME can rewrite the log and its anchor; keep a copy of the head elsewhere to detect that")
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func jsonOrInternal(w io.Writer, v any) error {
	if err := writeJSON(w, v); err != nil {
		return exitcode.Wrap(exitcode.Internal, err)
	}
	return nil
}

// printEntry renders one record for people, by explicit text.
func printEntry(w io.Writer, e audit.Entry) {
	fmt.Fprintf(w, "%-6s %s  %-8s %s", "#"+strconv.FormatUint(e.Seq, 10), e.Time.UTC().Format("2006-01-02T15:04:05.000Z"), e.Kind, e.Correlation)
	switch {
	case e.Plan != nil:
		p := e.Plan
		fmt.Fprintf(w, "  %s (%s)", extName(p.Extension), p.Tier)
		fmt.Fprintf(w, " caps=%s", capsText(p.Capabilities))
		if len(p.Layers) > 0 {
			parts := make([]string, len(p.Layers))
			for i, l := range p.Layers {
				parts[i] = l.String()
			}
			fmt.Fprintf(w, " layers=%s", strings.Join(parts, ","))
		}
		if p.Root != "" {
			fmt.Fprintf(w, " root=%s", shownText(p.Root))
		}
		fmt.Fprintf(w, " intents=%d\n", len(p.Intents))
		printIntents(w, p.Intents)
	case e.Override != nil:
		o := e.Override
		fmt.Fprintf(w, "  %s %s", o.Action, shownText(strings.Join(o.Paths, ", ")))
		if o.LinkTarget != "" {
			fmt.Fprintf(w, " (link -> %s)", shownText(o.LinkTarget))
		}
		fmt.Fprintln(w)
	case e.Run != nil:
		r := e.Run
		fmt.Fprintf(w, "  %s (%s) %s", extName(r.Extension), r.Tier, r.Result)
		if r.ExitStatus != nil {
			fmt.Fprintf(w, " exit=%d", *r.ExitStatus)
		}
		if len(r.Layers) > 0 {
			parts := make([]string, len(r.Layers))
			for i, l := range r.Layers {
				parts[i] = l.String()
			}
			fmt.Fprintf(w, " layers=%s", strings.Join(parts, ","))
		}
		fmt.Fprintf(w, " elapsed=%dms\n", r.ElapsedMS)
	case e.Event != nil:
		ev := e.Event
		fmt.Fprintf(w, "  %s%s", ev.Kind, refText(ev.Intent))
		if ev.Path != "" {
			fmt.Fprintf(w, " %s", shownText(ev.Path))
		}
		for _, d := range ev.Unparsed {
			fmt.Fprintf(w, " %s=<not logged: %d bytes, sha256 %s>", d.Field, d.Bytes, d.SHA256)
		}
		if ev.Kind == audit.EventHop {
			fmt.Fprintf(w, " hop %d %s dialled %s", ev.Hop, shownText(ev.Host), shownText(ev.Dialled))
		}
		if len(ev.Rules) > 0 {
			fmt.Fprintf(w, " rules=%s", rulesText(ev.Rules))
		}
		fmt.Fprintln(w)
	case e.Outcome != nil:
		o := e.Outcome
		name := o.Outcome.String()
		if o.Outcome == audit.OutcomeRollbackFailed {
			name = "ROLLBACK-FAILED (tree in neither state)"
		}
		fmt.Fprintf(w, "  %s%s", name, refText(o.Intent))
		if len(o.Rules) > 0 {
			fmt.Fprintf(w, " rules=%s", rulesText(o.Rules))
		}
		if o.Recovered {
			fmt.Fprint(w, " (by crash recovery)")
		}
		if len(o.Steps) > 0 {
			kinds := make([]string, 0, len(o.Steps))
			for k, n := range o.Steps {
				kinds = append(kinds, k.String()+":"+strconv.Itoa(n))
			}
			sort.Strings(kinds)
			fmt.Fprintf(w, " steps=%s", strings.Join(kinds, ","))
		}
		fmt.Fprintln(w)
		for _, d := range o.Mkdir {
			fmt.Fprintf(w, "    mkdir %s\n", shownText(d))
		}
		for _, d := range o.Unparsed {
			fmt.Fprintf(w, "    mkdir <not logged: %d bytes, sha256 %s>\n", d.Bytes, d.SHA256)
		}
	case e.Rejected != nil:
		r := e.Rejected
		fmt.Fprintf(w, "  %s (%s) caps=%s\n", extName(r.Extension), r.Tier, capsText(r.Capabilities))
		for _, v := range r.Violations {
			fmt.Fprintf(w, "    %s", v.Rule)
			for i, ref := range v.Intents {
				sep := ", "
				if i == 0 {
					sep = ": "
				}
				fmt.Fprintf(w, "%sintent #%d", sep, ref.Index)
				if ref.Op != "" {
					fmt.Fprintf(w, " (%s)", ref.Op)
				}
			}
			fmt.Fprintln(w)
		}
		printIntents(w, r.Intents)
	case e.Repair != nil:
		fmt.Fprintf(w, "  cut a torn tail of %d bytes (sha256 %s): an append that never completed\n", e.Repair.DiscardedBytes, e.Repair.SHA256)
	default:
		fmt.Fprintln(w)
	}
}

func printIntents(w io.Writer, ins []audit.IntentEntry) {
	for _, in := range ins {
		fmt.Fprintf(w, "    intent #%d %-6s %s", in.Index, in.Op, shownText(strings.Join(in.Paths, " -> ")))
		if in.SHA256 != "" {
			fmt.Fprintf(w, " sha256=%s", in.SHA256)
		}
		if in.Size != nil {
			fmt.Fprintf(w, " size=%d", *in.Size)
		}
		if in.Executable {
			fmt.Fprint(w, " executable")
		}
		if in.URL != "" {
			fmt.Fprintf(w, " url=%s", shownText(in.URL))
		}
		if in.Method != "" && in.Method != "GET" {
			fmt.Fprintf(w, " method=%s", shown(in.Method))
		}
		if in.Ref != "" {
			fmt.Fprintf(w, " ref=%s", shown(in.Ref))
		}
		if in.Depth != 0 {
			fmt.Fprintf(w, " depth=%d", in.Depth)
		}
		if len(in.Headers) > 0 {
			fmt.Fprintf(w, " headers=%s", strings.Join(in.Headers, ","))
		}
		if len(in.DroppedHeaders) > 0 {
			fmt.Fprintf(w, " dropped=%s", strings.Join(in.DroppedHeaders, ","))
		}
		for _, d := range in.Unparsed {
			fmt.Fprintf(w, " %s=<not logged: %d bytes, sha256 %s>", d.Field, d.Bytes, d.SHA256)
		}
		fmt.Fprintln(w)
	}
}

func extName(e audit.ExtensionEntry) string {
	if e.Version == "" {
		return shown(e.Name)
	}
	return shown(e.Name + "@" + e.Version)
}

func capsText(cs []schema.Capability) string {
	if len(cs) == 0 {
		return "none"
	}
	return schema.JoinCapabilities(cs)
}

func rulesText(rs []schema.Rule) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = r.String()
	}
	return strings.Join(parts, ",")
}

func refText(r *rejection.IntentRef) string {
	if r == nil {
		return ""
	}
	return fmt.Sprintf(" intent #%d (%s)", r.Index, r.Op)
}
