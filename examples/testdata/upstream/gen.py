"""Runs today's Lola (the Python upstream, its current main) on the fixture
modules and records the files it leaves after each step, per assistant and
scope: the goldens the Go targets are held to.

    git --git-dir=<mirror>/LobsterTrap+lola/repo archive HEAD src | tar x -C /tmp/upstream
    python3 gen.py /tmp/upstream/src > upstream.json

Needs only PyYAML; shims/ stands in for python-frontmatter (same split),
rich, click and InquirerPy (output and prompts only; every install runs
with force=True, so no prompt is reached).

Intentional differences of the Go targets are applied here, each named in
DIFFERENCES below and in the target's README. cursor and gemini-cli (the
Rust and AssemblyScript targets) are recorded too, with only these shared
differences applied: their owners decide theirs (for one, upstream's
gemini-cli leaves an empty "Lola Skills" section in GEMINI.md after the
last uninstall).
"""
import json
import os
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

MODULES = here.parent / "modules"
ASSISTANTS = ["claude-code", "opencode", "copilot-cli", "copilot-vscode", "openclaw", "cursor", "gemini-cli"]
STEPS = [("install", "kit"), ("install", "solo"), ("install", "second"),
         ("uninstall", "kit"), ("uninstall", "solo"), ("uninstall", "second")]

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


def run(assistant: str, scope: str) -> list:
    shutil.rmtree(base / "home", ignore_errors=True)
    shutil.rmtree(base / "project", ignore_errors=True)
    shutil.rmtree(base / "lolahome", ignore_errors=True)
    home, project = base / "home", base / "project"
    home.mkdir()
    project.mkdir()
    root = project if scope == "project" else home
    created = set()
    for rel, content in USER_FILES[scope].items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(content)
    registry = InstallationRegistry(base / "lolahome" / "installed.yml")
    local = base / "lolahome" / "modules"
    target = get_target(assistant)
    steps = [{"step": "before", "files": snapshot(root)}]
    for op, name in STEPS:
        module = Module.from_path(MODULES / name)
        project_path = str(project) if scope == "project" else None
        if op == "install":
            ins = target.get_instructions_path(str(project), scope) if hasattr(target, "INSTRUCTIONS_FILE") else None
            if ins is not None and not ins.exists():
                created.add(ins)
            install_to_assistant(module, assistant, scope, project_path, local, registry, force=True)
            for f in created:
                if DIFFERENCES["no-leading-blank-lines"] and f.exists() and f.read_text().startswith("\n\n<!-- lola:"):
                    f.write_text(f.read_text()[2:])
        else:
            inst = [i for i in registry.find(name) if i.assistant == assistant][0]
            uninstall_from_assistant(inst, registry)
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
