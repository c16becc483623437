package main

import "embed"

// templatesFS holds the extension templates `lola ext new` scaffolds from.
//
// embed cannot reach ../../templates (outside this module), so templates/
// here is a generated copy of the repository's templates/ directory: edit
// the original and run `go generate ./lola` in cmd/. TestTemplatesMatchSource
// fails when the copy drifts. The all: prefix keeps dot-files and files
// starting with an underscore.
//
//go:generate sh -c "rm -rf templates && cp -R ../../templates templates"
//go:embed all:templates
var templatesFS embed.FS
