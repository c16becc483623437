#!/usr/bin/env python3
"""Derives the cursor and gemini-cli golden trees from upstream Lola's own code.

Run by hand (not by make test) when the reference changes:

    git --git-dir=/work/.mirror/LobsterTrap+lola/repo archive HEAD src/lola | tar x -C /tmp/up
    python3 scripts/upstream-goldens.py /tmp/up/src

It imports upstream's target classes and install orchestration
(lola.targets.install_to_assistant, and the uninstall steps of
lola.cli.install's uninstall command), runs a fixed scenario in temporary
directories, and writes for each assistant, scope and step:

  examples/<target>/testdata/<scope>-<n>-<step>.request.json  the request our host sends
  examples/<target>/testdata/upstream/<scope>-<n>-<step>.tree.json  the files upstream leaves

Only four third-party imports are stubbed: click, rich and InquirerPy
(console output and prompts, never reached in this scenario) and
python-frontmatter, which is not packaged for this machine; the stub below
reproduces python-frontmatter 1.x's loads() (strip, split on ^-{3,}\\s*$
lines, yaml.safe_load, strip the body). PyYAML is the real one.

Deliberate rewrites of upstream's output (each listed in the target's README):
  * gemini-cli, user scope: upstream lists a skill at an absolute path inside
    the directory lola ran from; we copy it under .gemini/lola/modules/ and
    list it as ~/.gemini/lola/modules/...; the tree is rewritten accordingly.
  * gemini-cli: when the last module's skills go, upstream leaves an empty
    "## Lola Skills" section; we remove it, so uninstall restores the file.
"""
import json, os, re, sys, tempfile, types
from pathlib import Path

import yaml

# --- stubs -------------------------------------------------------------
def _stub(name, **attrs):
    m = types.ModuleType(name)
    for k, v in attrs.items():
        setattr(m, k, v)
    sys.modules[name] = m
    return m

class _Console:
    def print(self, *a, **k):
        pass

_stub("rich"); _stub("rich.console", Console=_Console)
_stub("click", confirm=lambda *a, **k: False, echo=lambda *a, **k: None)
_stub("InquirerPy", inquirer=None); _stub("InquirerPy.base"); _stub("InquirerPy.base.control", Choice=object)
_stub("InquirerPy.validator", EmptyInputValidator=object)

_FM = re.compile(r"^-{3,}\s*$", re.MULTILINE)

class _Post:
    def __init__(self, content, metadata):
        self.content, self.metadata = content, metadata

def _loads(text):
    text = text.strip()
    meta = {}
    if not _FM.match(text):
        return _Post(text, meta)
    try:
        _, fm, content = _FM.split(text, 2)
    except ValueError:
        return _Post(text, meta)
    loaded = yaml.load(fm, Loader=yaml.SafeLoader)
    if isinstance(loaded, dict):
        meta.update(loaded)
    return _Post(content.strip(), meta)

_stub("frontmatter", loads=_loads, load=lambda p: _loads(Path(p).read_text()))

# --- scenario ----------------------------------------------------------
ALPHA = {
    "skills/review/SKILL.md": "---\nname: review\ndescription: Reviews a change for bugs, style and missing tests before it is merged into the main branch\n---\n\n# Review\n\nRead the diff, then run `scripts/check.sh`.\n",
    "skills/review/checklist.md": "- tests\n- docs\n",
    "skills/review/scripts/check.sh": "#!/bin/sh\necho checking\n",
    "skills/notes/SKILL.md": "---\r\nname: notes\r\ndescription: 'Takes notes: short ones'\r\n---\r\nWrite notes.\r\n",
    "skills/notes/crlf.txt": "kept\r\nas is\r\n",
    "commands/ship.md": "---\ndescription: Ship \"it\" now\n---\n\nShip the release: $ARGUMENTS\n",
    "commands/fix.md": "---\ndescription: Fix issue\nargument-hint: <issue> <branch>\n---\nFix issue $1 on branch $2.\nUse \"\"\"care\"\"\".\n",
    "commands/plain.md": "Just do it.\r\nNow.\r\n",
    "commands/ship/notes.md": "Release notes template.\n",
    "agents/helper.md": "---\nname: helper\ndescription: Helps with code review\ntools:\n  - Read\n  - Grep\nmodel: sonnet\n---\n\nYou help.\n",
    "agents/scout.md": "---\ndescription: Scouts the repo\ntools: Read, Glob\n---\nScout around.\n",
    "agents/bare.md": "An agent without frontmatter.\n",
    "agents/wordy.md": "---\nname: wordy\ndescription: 'Explains: every decision, with the reasons behind it, the alternatives considered and the trade-offs'\ncolor: blue\n---\nExplain.\n",
    "AGENTS.md": "# Alpha\n\nAlways run the tests.\n",
    "mcps.json": json.dumps({"mcpServers": {
        "alpha-local": {"command": "npx", "args": ["-y", "alpha-mcp"], "env": {"ALPHA_TOKEN": "${ALPHA_TOKEN}"}},
        "alpha-remote": {"type": "http", "url": "https://mcp.example.com/alpha", "headers": {"Authorization": "Bearer x"}},
    }}, indent=2) + "\n",
    "README.md": "Not installed anywhere.\n",
}
EXECUTABLE = {"alpha": {"skills/review/scripts/check.sh", "skills/notes/SKILL.md", "commands/plain.md"}, "solo": {"scripts/go.sh"}}
SOLO = {
    "SKILL.md": "---\nname: solo\ndescription: A single skill at the module root\n---\n# Solo\n\nRun scripts/go.sh.\n",
    "reference.md": "Reference.\n",
    "scripts/go.sh": "#!/bin/sh\necho go\n",
}
MODULES = {"alpha": ALPHA, "solo": SOLO}

# What the user had before lola came, per target (the project root or home).
BEFORE = {
    "cursor": {
        ".cursor/mcp.json": json.dumps({"mcpServers": {"mine": {"command": "my-server", "args": ["--port", "1"]}}}, indent=2) + "\n",
        ".cursor/rules/own.mdc": "---\nalwaysApply: true\n---\nMine.\n",
    },
    "gemini-cli": {
        "GEMINI.md": "# My project\n\nKeep this.\n",
        ".gemini/settings.json": json.dumps({"theme": "Default", "mcpServers": {"mine": {"command": "my-server"}}}, indent=2) + "\n",
    },
}
MANAGED = {"cursor": [".cursor/mcp.json"], "gemini-cli": ["GEMINI.md", ".gemini/settings.json"]}
STEPS = [("install", "alpha"), ("install", "solo"), ("uninstall", "alpha"), ("uninstall", "solo")]


def write_tree(root, files, executable=()):
    for rel, content in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(content.encode())
        if rel in executable:
            p.chmod(0o755)


def read_tree(root, skip=(".lola",)):
    out = {}
    for p in sorted(root.rglob("*")):
        rel = p.relative_to(root).as_posix()
        if p.is_dir() or rel.split("/")[0] in skip:
            continue
        out[rel] = {"content": p.read_bytes().decode(), "executable": bool(p.stat().st_mode & 0o100)}
    return out


def request(assistant, scope, op, name, root):
    files = []
    for rel, content in sorted(MODULES[name].items()):
        f = {"path": rel, "content": content}
        if rel in EXECUTABLE[name]:
            f["executable"] = True
        files.append(f)
    current = []
    for rel in MANAGED[assistant]:
        p = root / rel
        if p.exists():
            current.append({"path": rel, "content": p.read_bytes().decode()})
    req = {"protocol": 1, "operation": op, "assistant": assistant, "scope": scope,
           "modules": [{"name": name, "version": "1.0.0", "files": files, "inventory": inventory(name)}]}
    if current:
        req["current"] = current
    return req


def inventory(name):
    """The module inventory the host sends (schema.Inventory), computed with
    upstream's own discovery (Module.from_path) and frontmatter parser."""
    from lola.models import Module
    import lola.frontmatter as fm
    files = MODULES[name]
    with tempfile.TemporaryDirectory() as d:
        root = Path(d) / name
        write_tree(root, files)
        mod = Module.from_path(root)
    def meta(path):
        return fm.parse(files[path])[0]
    def opt(d, k, v):
        if v:
            d[k] = v
    inv = {"skills": [], "commands": [], "agents": [], "mcpServers": []}
    if mod.is_single_skill:
        inv["singleSkill"] = True
    for sk in mod.skills:
        d = "" if mod.is_single_skill else "skills/" + sk
        e = {"name": sk}
        opt(e, "description", str(meta((d + "/" if d else "") + "SKILL.md").get("description") or ""))
        e["dir"] = d
        e["files"] = sorted(p for p in files if not d or p.startswith(d + "/"))
        inv["skills"].append(e)
    for c in mod.commands:
        m = meta("commands/%s.md" % c)
        e = {"name": c}
        opt(e, "description", str(m.get("description") or ""))
        opt(e, "argumentHint", str(m.get("argument-hint") or ""))
        e["path"] = "commands/%s.md" % c
        opt(e, "sidecar", sorted(p for p in files if p.startswith("commands/%s/" % c)))
        inv["commands"].append(e)
    for a in mod.agents:
        m = meta("agents/%s.md" % a)
        e = {"name": a}
        opt(e, "description", str(m.get("description") or ""))
        opt(e, "model", str(m.get("model") or ""))
        e["path"] = "agents/%s.md" % a
        inv["agents"].append(e)
    if mod.has_instructions:
        inv["instructions"] = "AGENTS.md"
    if "mcps.json" in files:
        for k, v in json.loads(files["mcps.json"]).get("mcpServers", {}).items():
            inv["mcpServers"].append({"name": k, "config": v})
    return inv


def uninstall(target, inst, module_name):
    """Upstream's `lola uninstall` steps for one installation (cli/install.py)."""
    path_context = inst.project_path or ""
    scope = inst.scope
    if inst.skills:
        dest = target.get_skill_path(path_context, scope)
        if target.uses_managed_section:
            target.remove_skill(dest, module_name)
        else:
            for s in inst.skills:
                target.remove_skill(dest, s)
    if inst.commands:
        d = target.get_command_path(path_context, scope)
        for c in inst.commands:
            target.remove_command(d, c, module_name)
    if inst.agents:
        d = target.get_agent_path(path_context, scope)
        if d:
            for a in inst.agents:
                target.remove_agent(d, a, module_name)
    if inst.has_instructions:
        target.remove_instructions(target.get_instructions_path(path_context, scope), module_name)
    if inst.mcps:
        d = target.get_mcp_path(path_context, scope)
        if d:
            target.remove_mcps(d, module_name, list(inst.mcps))


def ours(assistant, scope, tree, cwd):
    """Applies the documented intentional differences to upstream's tree."""
    if assistant != "gemini-cli":
        return tree
    g = tree.get("GEMINI.md")
    if g is not None:
        c = g["content"]
        if scope == "user":
            c = c.replace(str(cwd) + "/.lola/modules/", "~/.gemini/lola/modules/")
        start, end = "<!-- lola:skills:start -->", "<!-- lola:skills:end -->"
        if start in c and end in c:
            s, e = c.index(start), c.index(end) + len(end)
            if "\n### " not in c[s:e]:
                head = s - len(HEADER) if c[:s].endswith(HEADER) else s
                c = c[:head].rstrip("\n") + c[e:]
        g["content"] = c
    return tree


def main(src, repo):
    sys.path.insert(0, src)
    os.environ["LOLA_HOME"] = tempfile.mkdtemp()
    global HEADER
    from lola.models import Module, InstallationRegistry
    from lola.targets import get_target, install_to_assistant
    from lola.targets.base import ManagedSectionTarget
    HEADER = ManagedSectionTarget.HEADER
    for assistant, exdir in (("cursor", "cursor"), ("gemini-cli", "gemini-cli")):
        out = Path(repo) / "examples" / exdir / "testdata"
        (out / "upstream").mkdir(parents=True, exist_ok=True)
        for scope in ("project", "user"):
            tmp = Path(tempfile.mkdtemp())
            store, home, proj, cwd = tmp / "store", tmp / "home", tmp / "proj", tmp / "cwd"
            for d in (store, home, proj, cwd):
                d.mkdir()
            os.environ["HOME"] = str(home)
            os.chdir(cwd)
            root = proj if scope == "project" else home
            write_tree(root, BEFORE[assistant])
            for name, files in MODULES.items():
                write_tree(store / name, files, EXECUTABLE[name])
            registry = InstallationRegistry(tmp / "installed.yml")
            target = get_target(assistant)
            insts = {}
            (out / "upstream" / f"{scope}-0-before.tree.json").write_text(
                json.dumps(ours(assistant, scope, read_tree(root), cwd), indent=1, sort_keys=True) + "\n")
            for n, (op, name) in enumerate(STEPS, 1):
                req = request(assistant, scope, op, name, root)
                stem = f"{scope}-{n}-{op}-{name}"
                (out / f"{stem}.request.json").write_text(json.dumps(req, indent=1) + "\n")
                # Our requests carry what our own target wrote; upstream's files
                # are read back through ours() for the managed-file content.
                if op == "install":
                    module = Module.from_path(store / name)
                    local = (proj if scope == "project" else cwd) / ".lola" / "modules"
                    install_to_assistant(module, assistant, scope,
                                         str(proj) if scope == "project" else None,
                                         local, registry)
                    insts[name] = [i for i in registry.all() if i.module_name == name][-1]
                else:
                    uninstall(target, insts.pop(name), name)
                tree = ours(assistant, scope, read_tree(root), cwd)
                # Our managed files must be what upstream left, with our rewrites.
                for rel in MANAGED[assistant]:
                    p = root / rel
                    if rel in tree:
                        p.write_text(tree[rel]["content"])
                (out / "upstream" / f"{stem}.tree.json").write_text(json.dumps(tree, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
