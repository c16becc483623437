package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/lola-pm/lola/host/exitcode"
	"github.com/lola-pm/lola/host/pathrule"
	"github.com/lola-pm/lola/host/plan"
	"github.com/lola-pm/lola/host/rejection"
)

func init() { planCommands = append(planCommands, newPlanValidateCmd) }

// validateReport is the --json output, the shape DESIGN.md fixes:
// {"valid": false, "violations": [{"rule": ..., "intents": [0, 3], "detail": ...}]}.
type validateReport struct {
	Valid      bool              `json:"valid"`
	Violations []rejection.Entry `json:"violations"`
}

func newPlanValidateCmd() *cobra.Command {
	var fsName string
	var asJSON bool
	c := &cobra.Command{
		Use:   "validate [--fs auto|bytes|darwin|hfsplus|windows] [--json] FILE|-",
		Short: "Validate a plan file as the host would, without a root",
		Long: `Validate a plan file as the host would before staging it, without a root and
without touching any file: strict decoding within the host's default limits,
then every path against the root-relative path vocabulary (path.absolute,
path.traversal, path.invalid: also a component over 255 bytes, a path of
4096 bytes or more, and the host's own .lola.lock and .lola-staging-*),
then every pair of intents against the
conflict rules (conflict.same-path, conflict.nested) under the equality
relation of the target filesystem. Every violation is reported, not only the
first; each names its rule and the intents by index (as emitted) and op.

--fs chooses how two paths are judged the same:
  auto      this platform's default (bytes on Linux, darwin on macOS,
            windows on Windows); 'lola plan apply' refines it by probing
            the real root
  bytes     byte for byte (Linux ext4)
  darwin    APFS case-insensitive: full case folding (ß = SS,
            ﬁ = FI), NFC = NFD
  hfsplus   HFS+ case-insensitive: simple case folding, NFC = NFD,
            ignoring U+200C-U+200F, U+202A-U+202E, U+206A-U+206F
            and U+FEFF
  windows   NTFS: simple one-to-one upper-casing, no normalization
  darwin-case-sensitive   case-sensitive APFS: NFC = NFD, case kept

A valid plan is printed in apply order: deletes first (ancestors before
descendants), then renames, then writes, fetches and clones.

Exit status: 0 the plan is valid; 3 the plan is rejected (every violation is
printed); 2 usage error, or FILE cannot be opened; 1 internal error.`,
		Example: `  # Validate a plan file under this platform's default relation
  lola plan validate plan.json

  # Would it collide on a Mac? (README.md and Readme.md are one file there)
  lola plan validate --fs darwin plan.json

  # Read the plan from stdin and print a machine-readable report
  extension-that-prints-a-plan | lola plan validate --json -

  # The report for a conflicting plan:
  echo '{"protocol":1,"intents":[{"op":"write","path":"a","content":""},
        {"op":"write","path":"a/b","content":""}]}' | lola plan validate -
  # conflict.nested: intent #0 (write), intent #1 (write): write #1 path "a/b" lies beneath write #0 path "a" under bytes`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			eq, err := pathrule.ParseEquality(fsName)
			if err != nil {
				return exitcode.Wrap(exitcode.Usage, err)
			}
			in, closeIn, err := openValidateInput(cmd, args[0])
			if err != nil {
				return exitcode.Wrap(exitcode.Usage, err)
			}
			defer closeIn()
			v, err := validatePlanInput(in, eq)
			out := cmd.OutOrStdout()
			code := exitcode.ForValidate(err)
			if code == exitcode.Internal {
				return exitcode.Wrap(code, err)
			}
			violations := rejection.All(err)
			if asJSON {
				if err := writeValidateJSON(out, err); err != nil {
					return exitcode.Wrap(exitcode.Internal, err)
				}
			} else {
				writeValidateText(out, v, violations)
			}
			if code != exitcode.OK {
				return exitcode.Wrap(code, fmt.Errorf("plan rejected: %s", countText(len(violations), "violation")))
			}
			return nil
		},
	}
	c.Flags().StringVar(&fsName, "fs", pathrule.Auto, "filesystem equality relation: "+strings.Join(pathrule.EqualityNames(), ", "))
	c.Flags().BoolVar(&asJSON, "json", false, `print one JSON object: {"valid": ..., "violations": [{"rule", "intents", "detail"}]}`)
	return c
}

// openValidateInput opens FILE, or stdin for "-".
func openValidateInput(cmd *cobra.Command, name string) (io.Reader, func(), error) {
	if name == "-" {
		return cmd.InOrStdin(), func() {}, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot open plan file: %w", err)
	}
	return f, func() { f.Close() }, nil
}

// validatePlanInput decodes and validates: the same two steps, in the same
// order, the host takes before staging a plan.
func validatePlanInput(r io.Reader, eq pathrule.Equality) (*pathrule.Validated, error) {
	p, err := plan.Decode(r, plan.DefaultLimits())
	if err != nil {
		return nil, err
	}
	return pathrule.Validate(p, eq)
}

func writeValidateJSON(w io.Writer, err error) error {
	rep := validateReport{Valid: true, Violations: []rejection.Entry{}}
	if es := rejection.Entries(err); es != nil {
		rep.Valid, rep.Violations = false, es
	}
	enc := json.NewEncoder(w)
	return enc.Encode(rep)
}

func writeValidateText(w io.Writer, v *pathrule.Validated, violations []*rejection.Violation) {
	for _, x := range violations {
		fmt.Fprintln(w, x.Error())
	}
	if v == nil {
		return
	}
	fmt.Fprintf(w, "valid under %s: %s, in apply order:\n", v.Equality().Name(), countText(v.Len(), "intent"))
	for i, s := range v.Steps() {
		paths := s.Paths()
		desc := paths[0].String()
		if len(paths) == 2 {
			desc += " -> " + paths[1].String()
		}
		fmt.Fprintf(w, "  %d. #%d %s %s\n", i+1, s.Index(), s.Op(), desc)
	}
}
