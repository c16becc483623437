module github.com/lola-pm/lola/examples/claude-code

go 1.26

require github.com/lola-pm/lola/sdk-go v0.0.0

require (
	github.com/extism/go-pdk v1.1.3 // indirect
	github.com/lola-pm/lola/schema v0.0.0 // indirect
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3 // indirect
	github.com/tetratelabs/wazero v1.12.0 // indirect
	go.yaml.in/yaml/v3 v3.0.6 // indirect
	golang.org/x/sys v0.44.0 // indirect
	golang.org/x/text v0.14.0 // indirect
)

replace (
	github.com/lola-pm/lola/schema => ../../schema
	github.com/lola-pm/lola/sdk-go => ../../sdk-go
)
