// Package schemagen renders the protocol's Go types as JSON Schema (draft
// 2020-12) with invopop/jsonschema. It is internal so that the schema
// package itself stays free of dependencies.
package schemagen

import (
	"bytes"
	"encoding/json"
	"reflect"

	"github.com/invopop/jsonschema"
	"github.com/lola-pm/lola/schema"
	"github.com/lola-pm/lola/schema/lexical"
)

const baseID = "https://lola.invalid/schema/"

// Plan returns the generated plan.schema.json, formatted as checked in.
func Plan() ([]byte, error) { return render(&schema.Plan{}, "plan.schema.json") }

// Request returns the generated request.schema.json, formatted as checked in.
func Request() ([]byte, error) { return render(&schema.Request{}, "request.schema.json") }

func render(v any, name string) ([]byte, error) {
	r := &jsonschema.Reflector{Mapper: mapIntent, DoNotReference: true}
	s := r.Reflect(v)
	s.ID = jsonschema.ID(baseID + name)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(s); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// mapIntent gives schema.Intent, whose wire form is a tagged union, its
// oneOf schema: each alternative is the op's struct plus a constant "op".
func mapIntent(t reflect.Type) *jsonschema.Schema {
	if t != reflect.TypeOf(schema.Intent{}) {
		return nil
	}
	alts := []struct {
		op schema.Op
		v  any
	}{
		{schema.OpWrite, schema.Write{}},
		{schema.OpDelete, schema.Delete{}},
		{schema.OpRename, schema.Rename{}},
		{schema.OpFetch, schema.Fetch{}},
		{schema.OpClone, schema.Clone{}},
	}
	out := &jsonschema.Schema{}
	for _, a := range alts {
		r := &jsonschema.Reflector{DoNotReference: true, Anonymous: true}
		s := r.Reflect(a.v)
		s.Version = ""
		props := jsonschema.NewProperties()
		props.Set("op", &jsonschema.Schema{Type: "string", Const: string(a.op), Description: "The intent kind: " + string(a.op) + "."})
		for p := s.Properties.Oldest(); p != nil; p = p.Next() {
			props.Set(p.Key, p.Value)
		}
		// invopop has no tag for maxProperties on a map: bound the fetch
		// headers here by lexical.MaxHeaders, the bound host/plan and
		// sdk-go enforce.
		if h, ok := props.Get("headers"); ok {
			n := uint64(lexical.MaxHeaders)
			h.MaxProperties = &n
		}
		s.Properties = props
		s.Required = append([]string{"op"}, s.Required...)
		out.OneOf = append(out.OneOf, s)
	}
	return out
}
