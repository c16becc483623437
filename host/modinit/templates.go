package modinit

import (
	"fmt"
	"strings"
)

// The scaffold's texts. Every placeholder is marked TODO so that an author
// can find what is left with one search.

func skillBody(n string) string {
	return fmt.Sprintf(`---
name: %s
description: TODO one sentence: what this skill does and when the assistant should use it
---

# %s

TODO: what the skill is for.

## Use it when

TODO: the situations that should trigger this skill.

## Steps

1. TODO: the first thing the assistant does.
2. TODO: and so on.

## Example

TODO: a short worked example (input and expected result).
`, n, Title(n))
}

const commandBody = `---
description: TODO one sentence: what this command does
argument-hint: "TODO e.g. <file> [--flag]"
---

TODO: the prompt the assistant follows when the command is run.

The command's arguments are available as $ARGUMENTS.

## Steps

1. TODO
2. TODO

## Result

TODO: what the command leaves behind or reports.
`

func agentBody(n string) string {
	return fmt.Sprintf(`---
description: TODO one sentence: what this agent does and when to hand work to it
---

# %s

TODO: instructions for this agent.

## Responsibilities

TODO

## Rules

TODO
`, Title(n))
}

const mcpsBody = `{
  "mcpServers": {
    "TODO-server-name": {
      "command": "TODO e.g. npx",
      "args": ["TODO e.g. @scope/server"],
      "env": {
        "TODO_VARIABLE": "${TODO_VARIABLE}"
      }
    }
  }
}
`

func instructionsBody(name string, o Options) string {
	var uses []string
	if o.Skill != "" {
		uses = append(uses, fmt.Sprintf("- the `%s` skill: TODO when", o.Skill))
	}
	if o.Command != "" {
		uses = append(uses, fmt.Sprintf("- `/%s`: TODO what it does", o.Command))
	}
	if o.Agent != "" {
		uses = append(uses, fmt.Sprintf("- `@%s`: TODO when to delegate", o.Agent))
	}
	if len(uses) == 0 {
		uses = append(uses, "- TODO: add skills, commands or agents and say when to use them")
	}
	return fmt.Sprintf(`# %s

TODO: what this module gives the assistant.

## What to use when

%s

## Setup

TODO: anything that must be configured first.
`, Title(name), strings.Join(uses, "\n"))
}

func readmeBody(name string) string {
	return fmt.Sprintf("# %s\n\nTODO: what this module provides.\n\n## Install\n\n"+
		"```sh\nlola mod add ./%s\nlola install %s -a claude-code\n```\n\n"+
		"## Layout\n\nWhat lola installs lives in `module/`:\n\n"+
		"```\nmodule/\n  skills/<name>/SKILL.md   skills\n  commands/<name>.md       slash commands\n"+
		"  agents/<name>.md         subagents\n  mcps.json                MCP servers\n  AGENTS.md                instructions\n```\n\n"+
		"## License\n\nTODO\n", Title(name), name, name)
}
