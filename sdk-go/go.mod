module github.com/lola-pm/lola/sdk-go

go 1.26.0

require (
	github.com/extism/go-pdk v1.1.3
	github.com/lola-pm/lola/schema v0.0.0
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	github.com/tetratelabs/wazero v1.12.0
	go.yaml.in/yaml/v3 v3.0.6
)

require (
	golang.org/x/sys v0.44.0 // indirect
	golang.org/x/text v0.14.0 // indirect
)

replace github.com/lola-pm/lola/schema => ../schema
