#!/usr/bin/env bash
# The main job, end to end (`make demo` runs `make build` first): a sample
# module with two skills, a command and a pre-install hook is added to a
# throwaway $LOLA_HOME and installed for two assistants into a throwaway
# project, showing the dry-run diff, the resulting tree and the audit log.
# Nothing outside the temporary directory is touched.
set -euo pipefail
cd "$(dirname "$0")/.."
lola=$PWD/bin/lola
if [ ! -x "$lola" ]; then
	echo "demo: bin/lola is missing; run make build (make demo does)" >&2
	exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/lola-demo.XXXXXX")
trap 'rm -rf "$work"' EXIT
export LOLA_HOME=$work/lola-home
module=$work/hello-skills
project=$work/project
mkdir -p "$project"

if [ -t 1 ]; then bold=$'\033[1m' plain=$'\033[0m'; else bold='' plain=''; fi
step() { printf '\n%s== %s%s\n' "$bold" "$*" "$plain"; }
run() { printf '$ %s\n' "$*" | sed "s#$work#\$DEMO#g"; "$@"; }
tree() { (cd "$1" && find . -path ./.lola.lock -prune -o -type f -print | sed 's#^\./##' | sort | sed 's/^/  /'); }

step "1. A module: two skills, a command, a pre-install hook"
mkdir -p "$module/skills/greet" "$module/skills/review" "$module/commands" "$module/scripts"
cat > "$module/skills/greet/SKILL.md" <<'MD'
---
name: greet
description: Greet the user by name at the start of a session
---
# Greet

Say hello to the user by name, then ask what they are working on.
MD
cat > "$module/skills/review/SKILL.md" <<'MD'
---
name: review
description: Review a change for correctness before style
---
# Review

Read the diff twice. Report bugs first, then naming, then style.
MD
cat > "$module/commands/standup.md" <<'MD'
---
description: Summarise yesterday's commits for a stand-up
argument-hint: <author>
---
List the commits by $ARGUMENTS since yesterday and summarise them in three lines.
MD
cat > "$module/lola.yaml" <<'YAML'
hooks:
  pre-install: scripts/check.sh
YAML
cat > "$module/scripts/check.sh" <<'SH'
#!/bin/bash
# A pre-install hook: a failure here would abort the install, nothing applied.
echo "pre-install: $LOLA_MODULE_NAME for $LOLA_ASSISTANT ($LOLA_SCOPE scope)"
command -v git >/dev/null || { echo "git is required" >&2; exit 1; }
SH
tree "$module"

step "2. Add it to the module store"
run "$lola" mod add "$module"
run "$lola" mod info hello-skills

step "3. What would an install for Claude Code change? (--dry-run: nothing runs but the confined target)"
run "$lola" install hello-skills -a claude-code --dry-run "$project"

for assistant in claude-code cursor; do
	step "4. Install for $assistant"
	run "$lola" install hello-skills -a "$assistant" "$project"
done

step "5. The project now"
tree "$project"
echo
echo "  .claude/skills/greet/SKILL.md:"
sed 's/^/    /' "$project/.claude/skills/greet/SKILL.md"

step "6. What lola recorded"
run "$lola" list

step "7. The audit log's tail: the last install is one correlation id (hook run, plan, events, outcome)"
corr=$("$lola" audit show | awk '$3 == "plan" { c = $4 } END { print c }')
run "$lola" audit show --correlation "$corr"

step "8. The audit log's hash chain"
run "$lola" audit verify

echo
echo "demo: done (the temporary directory is removed on exit)"
