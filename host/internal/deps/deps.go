// Package deps pins the host module's planned dependencies while the
// packages that use them are being written in parallel; it is deleted once
// each is imported for real.
package deps

import (
	_ "github.com/go-git/go-git/v5"
	_ "github.com/google/go-cmp/cmp"
	_ "github.com/landlock-lsm/go-landlock/landlock"
	_ "github.com/santhosh-tekuri/jsonschema/v6"
	_ "github.com/tetratelabs/wazero"
	_ "go.yaml.in/yaml/v3"
	_ "golang.org/x/sys/unix"
	_ "golang.org/x/text/unicode/norm"
)
