package schema

import "encoding/json"

// Request is everything an extension may know: it can read nothing itself.
// It never carries a host absolute path; every path in it is root-relative.
type Request struct {
	Protocol  int       `json:"protocol" jsonschema:"minimum=1,maximum=1" jsonschema_description:"The protocol version; 1."`
	Operation Operation `json:"operation" jsonschema:"enum=install,enum=uninstall,enum=generate" jsonschema_description:"What to plan for: install, uninstall, or generate (the plan for the current state without a module change)."`
	Assistant string    `json:"assistant,omitempty" jsonschema_description:"The assistant target being installed into; absent when not applicable."`
	Scope     Scope     `json:"scope,omitempty" jsonschema:"enum=project,enum=user" jsonschema_description:"Where an install lands: project or user; absent when not applicable."`
	Modules   []Module  `json:"modules" jsonschema_description:"The modules the request concerns (for uninstall: the modules being removed)."`
	// Current holds, for a target that maintains a managed block inside a
	// shared file (CLAUDE.md, GEMINI.md, AGENTS.md), that file's content as
	// it is under the root now: the extension can read nothing itself, so
	// the host hands over exactly the files the extension's manifest names
	// as managed, and nothing else. A named file that does not exist is
	// absent from the list.
	Current []File `json:"current,omitempty" jsonschema_description:"The current content of exactly the files the manifest names as managed, read beneath the root; a missing file is absent."`
	// Created lists the managed files of Current that lola itself created
	// under this root (no file was there before an install of lola's wrote
	// it). Only such a file may be deleted when lola's part of it is gone:
	// a managed file the user had before, however empty lola leaves it, is
	// the user's and is written back instead. Hosts that predate the field
	// send none, so a target deletes nothing.
	Created []string `json:"created,omitempty" jsonschema_description:"The managed files in current that lola created under this root; only these may be deleted when lola's part of them is gone."`
}

// LolaCreated reports whether lola created the managed file at path under
// this root (see Created).
func (r *Request) LolaCreated(path string) bool {
	for _, c := range r.Created {
		if c == path {
			return true
		}
	}
	return false
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
	Name    string `json:"name" jsonschema:"minLength=1" jsonschema_description:"The module name."`
	Version string `json:"version,omitempty" jsonschema_description:"The module version, when known."`
	Files   []File `json:"files" jsonschema_description:"Every regular file of the module content root."`
	// Inventory is what the module holds, as the host's module store
	// discovered it with its one parser: a target maps it to its
	// assistant's files instead of parsing the module again. Every path in
	// it names an entry of Files. It is absent from requests of hosts that
	// predate it (the field is additive; protocol stays 1): a target that
	// needs it must refuse a request without it as a bad request rather
	// than install nothing.
	Inventory *Inventory `json:"inventory,omitempty" jsonschema_description:"What the host module store found in the module; absent from hosts that predate it."`
}

// File is one file of a module, at a path relative to the module's content
// root (the module's module/ directory when it has one, else its root).
type File struct {
	Path     string   `json:"path" jsonschema:"minLength=1" jsonschema_description:"The file path relative to its root, with / separators."`
	Content  string   `json:"content" jsonschema_description:"The file content: UTF-8 text, or base64 when encoding is base64."`
	Encoding Encoding `json:"encoding,omitempty" jsonschema:"enum=utf8,enum=base64" jsonschema_description:"How content is spelled: utf8 (the default) or base64."`
	// Executable is set when the stored file has an execute bit, so a
	// target can carry it to the write intent (scripts/*.sh stay 0755).
	Executable bool `json:"executable,omitempty" jsonschema_description:"Set when the stored file has an execute bit."`
	// Mode is the stored file's permission bits in octal ("0664") when
	// they are not 0644 (0755 for an executable file), so a target's copy
	// keeps the source's mode (Write.Mode), as today's Lola's copies do.
	Mode string `json:"mode,omitempty" jsonschema:"pattern=^0?[0-7]{3}$" jsonschema_description:"The stored file's permission bits in octal when not 0644 (0755 if executable)."`
}

// Inventory is a module's content by kind. Lists are sorted by name; every
// list is present (possibly empty) so a reader needs no null checks.
type Inventory struct {
	// SingleSkill is set when the module is one skill whose SKILL.md sits
	// at the content root (the agentskills.io layout); Skills then holds
	// exactly that skill, with Dir "".
	SingleSkill bool      `json:"singleSkill,omitempty" jsonschema_description:"Set when the module is one skill whose SKILL.md is at the content root."`
	Skills      []Skill   `json:"skills" jsonschema_description:"The module skills, sorted by name."`
	Commands    []Command `json:"commands" jsonschema_description:"The module slash commands, sorted by name."`
	Agents      []Agent   `json:"agents" jsonschema_description:"The module subagents, sorted by name."`
	// Instructions is the path of the module's instructions (AGENTS.md),
	// or empty when it has none or the file is empty.
	Instructions string `json:"instructions,omitempty" jsonschema_description:"The path of the module instructions (AGENTS.md), or absent."`
	// MCPServers are the entries of mcps.json's "mcpServers" object, in
	// the file's order. A mcps.json that does not parse contributes none.
	MCPServers []MCPServer `json:"mcpServers" jsonschema_description:"The MCP servers of mcps.json, in file order."`
}

// Skill is one skill: a directory holding SKILL.md and its supporting
// files and scripts.
type Skill struct {
	// Name is the directory the skill installs as: its directory name under
	// skills/, or for a single-skill module the frontmatter's name, else
	// the module's name.
	Name        string `json:"name" jsonschema:"minLength=1" jsonschema_description:"The directory name the skill installs as."`
	Description string `json:"description,omitempty" jsonschema_description:"The skill description from its frontmatter."`
	// Dir is the skill's directory ("skills/<name>"), "" for a single-skill
	// module. Each path of Files less the Dir prefix is where the file goes
	// inside the installed skill directory.
	Dir string `json:"dir" jsonschema_description:"The skill directory within the module (skills/NAME), empty for a single-skill module."`
	// Files are the skill's files, SKILL.md among them, in path order. A
	// single-skill module's skill is every file of the module, as today's
	// Lola copies its whole content root.
	Files []string `json:"files" jsonschema_description:"The skill files (SKILL.md among them), in path order."`
}

// Command is one slash command, commands/<name>.md.
type Command struct {
	Name         string `json:"name" jsonschema:"minLength=1" jsonschema_description:"The command name (commands/NAME.md)."`
	Description  string `json:"description,omitempty" jsonschema_description:"The command description from its frontmatter."`
	ArgumentHint string `json:"argumentHint,omitempty" jsonschema_description:"The command argument hint from its frontmatter."`
	Path         string `json:"path" jsonschema:"minLength=1" jsonschema_description:"The command file path."`
	// Sidecar are the files of the co-named directory commands/<name>/,
	// which today's Lola copies next to the installed command.
	Sidecar []string `json:"sidecar,omitempty" jsonschema_description:"The files of the co-named directory commands/NAME/."`
}

// Agent is one subagent, agents/<name>.md.
type Agent struct {
	Name        string `json:"name" jsonschema:"minLength=1" jsonschema_description:"The agent name (agents/NAME.md)."`
	Description string `json:"description,omitempty" jsonschema_description:"The agent description from its frontmatter."`
	Model       string `json:"model,omitempty" jsonschema_description:"The agent model from its frontmatter."`
	Path        string `json:"path" jsonschema:"minLength=1" jsonschema_description:"The agent file path."`
}

// MCPServer is one MCP server the module declares.
type MCPServer struct {
	Name string `json:"name" jsonschema:"minLength=1" jsonschema_description:"The server name (its key in mcpServers)."`
	// Config is the server's JSON object exactly as mcps.json spells it
	// (key order and values untouched), so a target writes it as the
	// author did; a target that rewrites it for its assistant parses it.
	Config json.RawMessage `json:"config" jsonschema:"type=object" jsonschema_description:"The server JSON object exactly as mcps.json spells it."`
}
