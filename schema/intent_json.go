package schema

import (
	"encoding/json"
	"errors"
	"fmt"
)

// MarshalJSON writes the intent as one object with "op" first, the form
// every SDK emits and tier parity compares byte for byte.
func (i Intent) MarshalJSON() ([]byte, error) {
	var body any
	switch i.Op() {
	case OpWrite:
		body = i.Write
	case OpDelete:
		body = i.Delete
	case OpRename:
		body = i.Rename
	case OpFetch:
		body = i.Fetch
	case OpClone:
		body = i.Clone
	default:
		return nil, errors.New("schema: intent must hold exactly one op")
	}
	fields, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	out := []byte(`{"op":"` + string(i.Op()) + `"`)
	if len(fields) > 2 {
		out = append(out, ',')
		out = append(out, fields[1:]...)
	} else {
		out = append(out, '}')
	}
	return out, nil
}

// UnmarshalJSON reads an intent leniently (unknown fields ignored). It exists
// for SDKs and tests; the host decodes plans with host/plan instead.
func (i *Intent) UnmarshalJSON(b []byte) error {
	var head struct {
		Op Op `json:"op"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return err
	}
	*i = Intent{}
	switch head.Op {
	case OpWrite:
		i.Write = new(Write)
		return json.Unmarshal(b, i.Write)
	case OpDelete:
		i.Delete = new(Delete)
		return json.Unmarshal(b, i.Delete)
	case OpRename:
		i.Rename = new(Rename)
		return json.Unmarshal(b, i.Rename)
	case OpFetch:
		i.Fetch = new(Fetch)
		return json.Unmarshal(b, i.Fetch)
	case OpClone:
		i.Clone = new(Clone)
		return json.Unmarshal(b, i.Clone)
	}
	return fmt.Errorf("schema: unknown op %q", head.Op)
}
