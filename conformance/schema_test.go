package conformance

import (
	"bytes"
	"path/filepath"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

var (
	planSchemaOnce sync.Once
	planSchema     *jsonschema.Schema
	planSchemaErr  error
)

// validatePlanSchema checks plan against the checked-in schema/plan.schema.json.
func validatePlanSchema(t *testing.T, plan []byte) {
	t.Helper()
	planSchemaOnce.Do(func() {
		c := jsonschema.NewCompiler()
		planSchema, planSchemaErr = c.Compile(filepath.Join(repoRoot(t), "schema/plan.schema.json"))
	})
	if planSchemaErr != nil {
		t.Fatalf("compiling plan.schema.json: %v", planSchemaErr)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(plan))
	if err != nil {
		t.Fatalf("plan is not JSON: %v", err)
	}
	if err := planSchema.Validate(v); err != nil {
		t.Fatalf("plan does not validate against plan.schema.json: %v\n%s", err, plan)
	}
}
