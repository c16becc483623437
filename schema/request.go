package schema

// Request is everything an extension may know: it can read nothing itself.
// It never carries a host absolute path; every path in it is root-relative.
type Request struct {
	Protocol  int       `json:"protocol" jsonschema:"minimum=1,maximum=1"`
	Operation Operation `json:"operation" jsonschema:"enum=install,enum=uninstall,enum=generate"`
	Assistant string    `json:"assistant,omitempty"`
	Scope     Scope     `json:"scope,omitempty" jsonschema:"enum=project,enum=user"`
	Modules   []Module  `json:"modules"`
	// Current holds, for a target that maintains a managed block inside a
	// shared file (CLAUDE.md, GEMINI.md, AGENTS.md), that file's content as
	// it is under the root now: the extension can read nothing itself, so
	// the host hands over exactly the files the extension's manifest names
	// as managed, and nothing else. A named file that does not exist is
	// absent from the list.
	Current []File `json:"current,omitempty"`
}

// Operation is what the host asks the extension to plan for.
type Operation string

// Operations a request can carry.
const (
	OperationInstall   Operation = "install"
	OperationUninstall Operation = "uninstall"
	OperationGenerate  Operation = "generate"
)

// Scope is where an install lands.
type Scope string

// Install scopes.
const (
	ScopeProject Scope = "project"
	ScopeUser    Scope = "user"
)

// Module is one module the request concerns, with its files.
type Module struct {
	Name    string `json:"name" jsonschema:"minLength=1"`
	Version string `json:"version,omitempty"`
	Files   []File `json:"files"`
}

// File is one file of a module, at a path relative to the module's root.
type File struct {
	Path     string   `json:"path" jsonschema:"minLength=1"`
	Content  string   `json:"content"`
	Encoding Encoding `json:"encoding,omitempty" jsonschema:"enum=utf8,enum=base64"`
}
