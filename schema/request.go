package schema

import "encoding/json"

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
	// Inventory is what the module holds, as the host's module store
	// discovered it with its one parser: a target maps it to its
	// assistant's files instead of parsing the module again. Every path in
	// it names an entry of Files. It is absent from requests of hosts that
	// predate it (the field is additive; protocol stays 1): a target that
	// needs it must refuse a request without it as a bad request rather
	// than install nothing.
	Inventory *Inventory `json:"inventory,omitempty"`
}

// File is one file of a module, at a path relative to the module's content
// root (the module's module/ directory when it has one, else its root).
type File struct {
	Path     string   `json:"path" jsonschema:"minLength=1"`
	Content  string   `json:"content"`
	Encoding Encoding `json:"encoding,omitempty" jsonschema:"enum=utf8,enum=base64"`
	// Executable is set when the stored file has an execute bit, so a
	// target can carry it to the write intent (scripts/*.sh stay 0755).
	Executable bool `json:"executable,omitempty"`
}

// Inventory is a module's content by kind. Lists are sorted by name; every
// list is present (possibly empty) so a reader needs no null checks.
type Inventory struct {
	// SingleSkill is set when the module is one skill whose SKILL.md sits
	// at the content root (the agentskills.io layout); Skills then holds
	// exactly that skill, with Dir "".
	SingleSkill bool      `json:"singleSkill,omitempty"`
	Skills      []Skill   `json:"skills"`
	Commands    []Command `json:"commands"`
	Agents      []Agent   `json:"agents"`
	// Instructions is the path of the module's instructions (AGENTS.md),
	// or empty when it has none or the file is empty.
	Instructions string `json:"instructions,omitempty"`
	// MCPServers are the entries of mcps.json's "mcpServers" object, in
	// the file's order. A mcps.json that does not parse contributes none.
	MCPServers []MCPServer `json:"mcpServers"`
}

// Skill is one skill: a directory holding SKILL.md and its supporting
// files and scripts.
type Skill struct {
	// Name is the directory the skill installs as: its directory name under
	// skills/, or for a single-skill module the frontmatter's name, else
	// the module's name.
	Name        string `json:"name" jsonschema:"minLength=1"`
	Description string `json:"description,omitempty"`
	// Dir is the skill's directory ("skills/<name>"), "" for a single-skill
	// module. Each path of Files less the Dir prefix is where the file goes
	// inside the installed skill directory.
	Dir string `json:"dir"`
	// Files are the skill's files, SKILL.md among them, in path order. A
	// single-skill module's skill is every file of the module, as today's
	// Lola copies its whole content root.
	Files []string `json:"files"`
}

// Command is one slash command, commands/<name>.md.
type Command struct {
	Name         string `json:"name" jsonschema:"minLength=1"`
	Description  string `json:"description,omitempty"`
	ArgumentHint string `json:"argumentHint,omitempty"`
	Path         string `json:"path" jsonschema:"minLength=1"`
	// Sidecar are the files of the co-named directory commands/<name>/,
	// which today's Lola copies next to the installed command.
	Sidecar []string `json:"sidecar,omitempty"`
}

// Agent is one subagent, agents/<name>.md.
type Agent struct {
	Name        string `json:"name" jsonschema:"minLength=1"`
	Description string `json:"description,omitempty"`
	Model       string `json:"model,omitempty"`
	Path        string `json:"path" jsonschema:"minLength=1"`
}

// MCPServer is one MCP server the module declares.
type MCPServer struct {
	Name string `json:"name" jsonschema:"minLength=1"`
	// Config is the server's JSON object exactly as mcps.json spells it
	// (key order and values untouched), so a target writes it as the
	// author did; a target that rewrites it for its assistant parses it.
	Config json.RawMessage `json:"config" jsonschema:"type=object"`
}
