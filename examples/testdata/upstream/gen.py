"""The one generator of upstream goldens: runs today's Lola (the Python
upstream, its current main) on the fixture modules (examples/testdata/
modules, the same modules the host's store hands the targets as
<name>.module.json) and records the files it leaves after each step, per
assistant and scope, in upstream.json. Every target is held to it: the Go
targets by sdk-go/assistant/assistanttest.Replay, the Rust cursor target by
examples/cursor/tests/upstream.rs, the Rust and AssemblyScript targets run
through the real host by conformance's TestTargetsProduceUpstreamTrees.

    git --git-dir=<mirror>/LobsterTrap+lola/repo archive HEAD src | tar x -C /tmp/upstream
    python3 gen.py /tmp/upstream/src > upstream.json

Needs only PyYAML; shims/ stands in for python-frontmatter (same split),
rich, click and InquirerPy (output and prompts only; every install runs
with force=True, so no prompt is reached).

Installs run upstream's install_to_assistant with the local module copy
where `lola install` puts it (<project>/.lola/modules, or <cwd>/.lola/
modules in user scope); uninstalls run the steps of upstream's `lola
uninstall` command (cli/install.py), which for a managed-section target
(gemini-cli) removes the module's skills section, unlike
targets/install.uninstall_from_assistant.

Intentional differences of our targets are applied here, each named in
DIFFERENCES below and in the target's README.
"""
import json
import os
import re
import shutil
import stat
import sys
import tempfile
from pathlib import Path

here = Path(__file__).resolve().parent
sys.path.insert(0, str(here / "shims"))
sys.path.insert(0, sys.argv[1])
base = Path(tempfile.mkdtemp())
os.environ["HOME"] = str(base / "home")
os.environ.pop("XDG_CONFIG_HOME", None)
os.environ["LOLA_HOME"] = str(base / "lolahome")

import lola.targets.base as tbase  # noqa: E402
from lola.models import InstallationRegistry, Module  # noqa: E402
from lola.targets import get_target  # noqa: E402
from lola.targets.install import install_to_assistant, uninstall_from_assistant  # noqa: E402

DIFFERENCES = {
    # claude-code: upstream replaces an agent's explicit model with
    # "inherit"; we keep what the author wrote (inherit only when absent).
    "keep-model": True,
    # Every target: a managed instructions file lola created and then
    # emptied is deleted; upstream leaves a file holding "\n".
    "delete-emptied-instructions": True,
    # Every target: an instructions file lola creates starts with lola's
    # section; upstream starts it with two blank lines ("".rstrip() +
    # "\n\n" + section).
    "no-leading-blank-lines": True,
    # copilot-*: upstream's uninstall leaves a command's sidecar directory
    # (<name>.prompt/) behind; we remove it with the command.
    "copilot-sidecar": True,
    # gemini-cli, user scope: upstream lists a skill at an absolute path in
    # the directory `lola install` ran from (<cwd>/.lola/modules/...); we
    # copy the skill to ~/.gemini/lola/modules/ and list it there.
    "gemini-user-skill-copy": True,
    # gemini-cli: when the last module's skills go, upstream leaves the
    # "## Lola Skills" header and empty markers; we remove them.
    "gemini-drop-empty-skills-section": True,
    # gemini-cli: upstream's local copy is the module's whole repository, so
    # a module whose content sits in module/ is listed as
    # .lola/modules/<m>/module/skills/...; our copy holds the module as the
    # store does, from its content root: .lola/modules/<m>/skills/...
    "gemini-copy-from-content-root": True,
    # Every MCP target: upstream leaves an emptied container
    # ("mcpServers": {}) in a file that has other members; we take away
    # the container lola added, so the user's file comes back as it was.
    "drop-emptied-mcp-container": True,
}

_orig_agent = tbase._generate_agent_with_frontmatter


def _agent_keep_model(source_path, dest_dir, filename, additions):
    import lola.frontmatter as fm

    meta, _ = fm.parse(source_path.read_text())
    additions = dict(additions)
    if "model" in additions and "model" in meta:
        del additions["model"]
    return _orig_agent(source_path, dest_dir, filename, additions)


import lola.targets.claude_code as cc  # noqa: E402

cc._generate_agent_with_frontmatter = _agent_keep_model

from lola.targets.base import ManagedSectionTarget  # noqa: E402

MODULES = here.parent / "modules"
ASSISTANTS = ["claude-code", "opencode", "copilot-cli", "copilot-vscode", "openclaw", "cursor", "gemini-cli"]
STEPS = [("install", "kit"), ("install", "solo"), ("install", "second"), ("install", "edge"),
         ("uninstall", "kit"), ("uninstall", "solo"), ("uninstall", "second"), ("uninstall", "edge")]

# What the user has before lola runs, per scope root: laid out as
# json.dumps(indent=2) writes JSON, so upstream's rewrite of the whole file
# and our edit of one member agree byte for byte.
USER_FILES = {
    "project": {
        "README.md": "# My app\n",
        "CLAUDE.md": "# Notes\n\nMy own notes.\n",
        "AGENTS.md": "# Agents\n\nMy agent notes.\n",
        ".mcp.json": '{\n  "mcpServers": {\n    "mine": {\n      "command": "my-server"\n    }\n  }\n}\n',
        "opencode.json": '{\n  "$schema": "https://opencode.ai/config.json",\n  "theme": "dark"\n}\n',
        ".vscode/mcp.json": '{\n  "servers": {\n    "mine": {\n      "type": "stdio",\n      "command": "my-server"\n    }\n  },\n  "inputs": []\n}\n',
        ".github/copilot-instructions.md": "Use tabs.\n",
        "GEMINI.md": "# My project\n\nKeep this.\n",
        ".gemini/settings.json": '{\n  "theme": "Default",\n  "mcpServers": {\n    "mine": {\n      "command": "my-server"\n    }\n  }\n}\n',
        ".cursor/mcp.json": '{\n  "mcpServers": {\n    "mine": {\n      "command": "my-server",\n      "args": [\n        "--port",\n        "1"\n      ]\n    }\n  }\n}\n',
        ".cursor/rules/own.mdc": "---\nalwaysApply: true\n---\nMine.\n",
    },
    "user": {
        ".claude/CLAUDE.md": "Global notes.\n",
    },
}


def snapshot(root: Path) -> dict:
    out = {}
    for p in sorted(root.rglob("*")):
        rel = p.relative_to(root).as_posix()
        if p.is_dir() or rel.startswith(".lola/"):
            continue
        mode = p.stat().st_mode
        out[rel] = {"content": p.read_bytes().decode("utf-8"), "executable": bool(mode & stat.S_IXUSR)}
    return out


def uninstall(target, inst, module_name: str) -> None:
    """The removal steps of upstream's `lola uninstall` (cli/install.py)
    for one installation."""
    ctx, scope = inst.project_path or "", inst.scope
    if inst.skills:
        dest = target.get_skill_path(ctx, scope)
        if target.uses_managed_section:
            target.remove_skill(dest, module_name)
        else:
            for s in inst.skills:
                target.remove_skill(dest, s)
    if inst.commands:
        d = target.get_command_path(ctx, scope)
        if d:
            for c in inst.commands:
                target.remove_command(d, c, module_name)
    if inst.agents:
        d = target.get_agent_path(ctx, scope)
        if d:
            for a in inst.agents:
                target.remove_agent(d, a, module_name)
    if inst.has_instructions:
        target.remove_instructions(target.get_instructions_path(ctx, scope), module_name)
    if inst.mcps:
        d = target.get_mcp_path(ctx, scope)
        if d:
            target.remove_mcps(d, module_name, list(inst.mcps))


def gemini_rewrites(path: Path, cwd: Path) -> None:
    """Applies gemini-cli's differences to upstream's GEMINI.md."""
    if not path.exists():
        return
    c = path.read_text()
    if DIFFERENCES["gemini-user-skill-copy"]:
        c = c.replace(str(cwd) + "/.lola/modules/", "~/.gemini/lola/modules/")
    if DIFFERENCES["gemini-copy-from-content-root"]:
        c = re.sub(r"(lola/modules/[^/`]+)/module/", r"\1/", c)
    start, end = ManagedSectionTarget.START_MARKER, ManagedSectionTarget.END_MARKER
    if DIFFERENCES["gemini-drop-empty-skills-section"] and start in c and end in c:
        s, e = c.index(start), c.index(end) + len(end)
        if "\n### " not in c[s:e]:
            header = ManagedSectionTarget.HEADER
            head = s - len(header) if c[:s].endswith(header) else s
            c = c[:head].rstrip("\n") + c[e:]
    path.write_text(c)


def run(assistant: str, scope: str) -> list:
    for d in ("home", "project", "lolahome", "cwd"):
        shutil.rmtree(base / d, ignore_errors=True)
        (base / d).mkdir()
    home, project, cwd = base / "home", base / "project", base / "cwd"
    os.chdir(cwd)
    root = project if scope == "project" else home
    created = set()
    for rel, content in USER_FILES[scope].items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(content)
    registry = InstallationRegistry(base / "lolahome" / "installed.yml")
    # Where `lola install` keeps its local module copy (cli/install.py).
    local = (project if scope == "project" else cwd) / ".lola" / "modules"
    target = get_target(assistant)
    steps = [{"step": "before", "files": snapshot(root)}]
    for op, name in STEPS:
        project_path = str(project) if scope == "project" else None
        ins = target.get_instructions_path(str(project), scope) if hasattr(target, "INSTRUCTIONS_FILE") else None
        if op == "install":
            module = Module.from_path(MODULES / name)
            if ins is not None and not ins.exists():
                created.add(ins)
            install_to_assistant(module, assistant, scope, project_path, local, registry, force=True)
            for f in created:
                if DIFFERENCES["no-leading-blank-lines"] and f.exists() and f.read_text().startswith("\n\n"):
                    f.write_text(f.read_text()[2:])
        else:
            inst = [i for i in registry.find(name) if i.assistant == assistant][0]
            uninstall(target, inst, name)
            registry.remove(name, assistant)
            if DIFFERENCES["copilot-sidecar"] and assistant.startswith("copilot"):
                cdir = target.get_command_path(str(project), scope)
                for cmd in inst.commands:
                    side = cdir / f"{cmd}.prompt" if cdir else None
                    if side is not None and side.is_dir():
                        shutil.rmtree(side)
            mcp = target.get_mcp_path(str(project), scope)
            key = {"opencode": "mcp", "copilot-vscode": "servers"}.get(assistant, "mcpServers")
            if DIFFERENCES["drop-emptied-mcp-container"] and mcp is not None and mcp.exists():
                doc = json.loads(mcp.read_text())
                if doc.get(key) == {}:
                    del doc[key]
                    mcp.write_text(json.dumps(doc, indent=2) + "\n")
        if assistant == "gemini-cli":
            gemini_rewrites(target.get_instructions_path(str(project), scope), cwd)
        if op == "uninstall":
            for f in created:
                if DIFFERENCES["delete-emptied-instructions"] and f.exists() and f.read_text().strip() == "":
                    f.unlink()
        steps.append({"step": f"{op} {name}", "files": snapshot(root)})
    return steps


out = {}
for a in ASSISTANTS:
    for s in ("project", "user"):
        out[f"{a}/{s}"] = run(a, s)
print(json.dumps(out, indent=1, sort_keys=True, ensure_ascii=False))
