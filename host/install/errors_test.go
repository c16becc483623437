package install

import (
	"errors"
	"fmt"
	"testing"

	"github.com/lola-pm/lola/host/extension"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// A refusal of the target before it ran matches ErrTargetRefused and
// still its cause (a sentinel, a rule), with the cause's message as is.
func TestRefusedKeepsCauseAndMessage(t *testing.T) {
	if refused(nil) != nil {
		t.Fatal("no refusal became one")
	}
	for _, cause := range []error{
		fmt.Errorf("extension x: %w", extension.ErrNotPinnedNative),
		rejection.New(schema.RuleExtensionChanged, "its artifact differs"),
	} {
		err := refused(cause)
		if !errors.Is(err, ErrTargetRefused) || !errors.Is(err, cause) || err.Error() != cause.Error() {
			t.Errorf("refused(%q) = %q", cause, err)
		}
	}
	if vs := rejection.All(refused(rejection.New(schema.RuleExtensionChanged, "x"))); len(vs) != 1 {
		t.Error("the rule is hidden behind the refusal")
	}
}
