module github.com/lola-pm/lola/conformance

go 1.26

require github.com/lola-pm/lola/schema v0.0.0

require (
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3 // indirect
	golang.org/x/text v0.14.0 // indirect
)

replace github.com/lola-pm/lola/schema => ../schema
