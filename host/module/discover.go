package module

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/lola-pm/lola/host/hook"
	"github.com/lola-pm/lola/host/internal/errpath"
	"github.com/lola-pm/lola/host/pathrule"
	"github.com/lola-pm/lola/schema"
)

// ErrNotModule is returned for a directory that holds no skill, command,
// agent, instructions or MCP server.
var ErrNotModule = errors.New("not a module: no skills/<name>/SKILL.md, SKILL.md, commands/*.md, agents/*.md, non-empty AGENTS.md or mcps.json")

// ErrConfig is wrapped by the refusal of a module whose lola.yaml (or
// lola.yml) does not decode strictly: its hooks would otherwise silently
// not run.
var ErrConfig = errors.New("invalid module lola.yaml")

// File names and directories of the module layout (today's Lola's).
const (
	contentSubdir    = "module"
	skillsDir        = "skills"
	commandsDir      = "commands"
	agentsDir        = "agents"
	skillFile        = "SKILL.md"
	instructionsFile = "AGENTS.md"
	mcpsFile         = "mcps.json"
)

// metadataMax bounds a file read for its frontmatter or MCP names.
const metadataMax = 1 << 20

// Layout is what a module holds, as discovered from its files. Paths in it
// are relative to the content directory, "/"-separated.
type Layout struct {
	// ContentDir is the content directory relative to the module's root:
	// "module" when the module keeps its content in module/, else "".
	ContentDir   string    `json:"content_dir"`
	Skills       []Skill   `json:"skills"`
	Commands     []Command `json:"commands"`
	Agents       []Agent   `json:"agents"`
	Instructions bool      `json:"instructions"`
	MCPs         []string  `json:"mcps"`
	Hooks        Hooks     `json:"hooks"`
	// SingleSkill is set when the module is one SKILL.md at the content
	// root (the agentskills.io layout) rather than a skills/ bundle.
	SingleSkill bool `json:"single_skill"`
}

// Skill is one skill: skills/<name>/ holding SKILL.md, or the content root.
type Skill struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Path        string `json:"path"` // the skill's directory; "" for a single-skill module
}

// Command is one slash command, commands/<name>.md.
type Command struct {
	Name         string `json:"name"`
	Description  string `json:"description,omitempty"`
	ArgumentHint string `json:"argument_hint,omitempty"`
	Path         string `json:"path"`
}

// Agent is one subagent, agents/<name>.md.
type Agent struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Model       string `json:"model,omitempty"`
	Path        string `json:"path"`
}

// Hooks are the install hooks lola.yaml declares, as written.
type Hooks struct {
	PreInstall  string `json:"pre_install,omitempty"`
	PostInstall string `json:"post_install,omitempty"`
}

// Discover reads the layout of the module rooted at dir. name is the
// module's name, which a single-skill module's skill takes when its
// frontmatter names none. Symbolic links met on the way are refused
// (path.symlink), never followed. A malformed lola.yaml is an error (its
// hooks would otherwise silently not run); malformed frontmatter or
// mcps.json only loses the description or the server names, as today.
func Discover(dir, name string) (Layout, error) {
	ok, err := hasContentSubdir(dir)
	if err != nil || !ok {
		return discoverContent(dir, name)
	}
	l, err := discoverContent(filepath.Join(dir, contentSubdir), name)
	l.ContentDir = contentSubdir
	return l, err
}

// hasContentSubdir reports whether dir holds a module/ directory (a
// symbolic link there is path.symlink).
func hasContentSubdir(dir string) (bool, error) {
	fi, err := os.Lstat(filepath.Join(dir, contentSubdir))
	if err != nil {
		return false, nil
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return false, entryViolation(schema.RulePathSymlink, contentSubdir, "symbolic link")
	}
	return fi.IsDir(), nil
}

// discoverContent is Discover of the content directory content itself: a
// module/ folder in it is content like any other.
func discoverContent(content, name string) (Layout, error) {
	var l Layout
	var err error
	if l.Skills, err = discoverSkills(content); err != nil {
		return l, err
	}
	if len(l.Skills) == 0 {
		if ok, err := regularAt(content, skillFile); err != nil {
			return l, err
		} else if ok {
			meta := frontmatter(filepath.Join(content, skillFile))
			n := meta["name"]
			if n == "" {
				n = name
			} else if p, err := pathrule.Parse(n); err != nil || p.Len() != 1 || strings.HasPrefix(n, ".") {
				// The name becomes a directory name where the skill is
				// installed (.claude/skills/<name>/), so it must be one.
				return l, entryViolation(schema.RulePathInvalid, skillFile, "frontmatter name "+quoteName(n)+" is not a single valid path component")
			}
			l.Skills = []Skill{{Name: n, Description: meta["description"]}}
			l.SingleSkill = true
		}
	}
	if l.Commands, err = discoverMarkdown(content, commandsDir, func(n, p string, m map[string]string) Command {
		return Command{Name: n, Description: m["description"], ArgumentHint: m["argument-hint"], Path: p}
	}); err != nil {
		return l, err
	}
	if l.Agents, err = discoverMarkdown(content, agentsDir, func(n, p string, m map[string]string) Agent {
		return Agent{Name: n, Description: m["description"], Model: m["model"], Path: p}
	}); err != nil {
		return l, err
	}
	if fi, err := lstatRegular(content, instructionsFile); err != nil {
		return l, err
	} else if fi != nil && fi.Size() > 0 {
		l.Instructions = true
	}
	if ok, err := regularAt(content, mcpsFile); err != nil {
		return l, err
	} else if ok {
		l.MCPs = mcpNames(filepath.Join(content, mcpsFile))
	}
	d, err := hook.LoadDeclared(content)
	if err != nil {
		return l, fmt.Errorf("%w: %v", ErrConfig, errpath.Strip(err))
	}
	l.Hooks = Hooks{PreInstall: d.Script(hook.PreInstall), PostInstall: d.Script(hook.PostInstall)}
	if len(l.Skills) == 0 && len(l.Commands) == 0 && len(l.Agents) == 0 && !l.Instructions && len(l.MCPs) == 0 {
		return l, ErrNotModule
	}
	return l, nil
}

func discoverSkills(content string) ([]Skill, error) {
	entries, err := readDirIfDir(content, skillsDir)
	if err != nil || entries == nil {
		return nil, err
	}
	var out []Skill
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		rel := skillsDir + "/" + e.Name()
		if e.Type()&fs.ModeSymlink != 0 {
			return nil, entryViolation(schema.RulePathSymlink, rel, "symbolic link")
		}
		if !e.IsDir() {
			continue
		}
		dir := filepath.Join(content, skillsDir, e.Name())
		ok, err := regularAt(dir, skillFile)
		if err != nil {
			return nil, err
		}
		if ok {
			meta := frontmatter(filepath.Join(dir, skillFile))
			out = append(out, Skill{Name: e.Name(), Description: meta["description"], Path: rel})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// discoverMarkdown lists sub/*.md (regular files; symlinks refused).
func discoverMarkdown[T any](content, sub string, mk func(name, rel string, meta map[string]string) T) ([]T, error) {
	entries, err := readDirIfDir(content, sub)
	if err != nil || entries == nil {
		return nil, err
	}
	var out []T
	for _, e := range entries { // os.ReadDir sorts by name
		if !strings.HasSuffix(e.Name(), ".md") || e.Name() == ".md" {
			continue
		}
		rel := sub + "/" + e.Name()
		if e.Type()&fs.ModeSymlink != 0 {
			return nil, entryViolation(schema.RulePathSymlink, rel, "symbolic link")
		}
		if !e.Type().IsRegular() {
			continue
		}
		out = append(out, mk(strings.TrimSuffix(e.Name(), ".md"), rel, frontmatter(filepath.Join(content, sub, e.Name()))))
	}
	return out, nil
}

// readDirIfDir lists content/sub, or returns nil when it is not a
// directory. A symbolic link there is refused.
func readDirIfDir(content, sub string) ([]os.DirEntry, error) {
	fi, err := os.Lstat(filepath.Join(content, sub))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, errorAt(sub, err)
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return nil, entryViolation(schema.RulePathSymlink, sub, "symbolic link")
	}
	if !fi.IsDir() {
		return nil, nil
	}
	entries, err := os.ReadDir(filepath.Join(content, sub))
	if err != nil {
		return nil, errorAt(sub, err)
	}
	return entries, nil
}

// lstatRegular returns dir/name's info when it is a regular file, nil when
// absent or not a regular file; a symbolic link is refused.
func lstatRegular(dir, name string) (fs.FileInfo, error) {
	fi, err := os.Lstat(filepath.Join(dir, name))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, errorAt(name, err)
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return nil, entryViolation(schema.RulePathSymlink, name, "symbolic link")
	}
	if !fi.Mode().IsRegular() {
		return nil, nil
	}
	return fi, nil
}

func regularAt(dir, name string) (bool, error) {
	fi, err := lstatRegular(dir, name)
	return fi != nil, err
}

// readMetadataFile reads at most metadataMax bytes of a regular file,
// refusing to follow a link in its last component.
func readMetadataFile(p string) []byte {
	fi, err := os.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	f, err := os.Open(p)
	if err != nil {
		return nil
	}
	defer f.Close()
	if opened, err := f.Stat(); err != nil || !os.SameFile(fi, opened) {
		return nil
	}
	b, _ := io.ReadAll(io.LimitReader(f, metadataMax))
	return b
}

// frontmatter returns the string-valued keys of a Markdown file's YAML
// frontmatter (between a first line "---" and the next "---" line). A file
// without frontmatter, or with frontmatter that does not parse, has none.
func frontmatter(p string) map[string]string {
	return parseFrontmatter(readMetadataFile(p))
}

func parseFrontmatter(b []byte) map[string]string {
	out := map[string]string{}
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	first, rest, ok := cutLine(b)
	if !ok || strings.TrimRight(string(first), " \t\r") != "---" {
		return out
	}
	var body []byte
	for {
		line, next, more := cutLine(rest)
		if strings.TrimRight(string(line), " \t\r") == "---" {
			break
		}
		body = append(body, line...)
		body = append(body, '\n')
		if !more {
			return out // no closing line
		}
		rest = next
	}
	var m map[string]any
	if err := yaml.Unmarshal(body, &m); err != nil {
		return out
	}
	for k, v := range m {
		if s, ok := v.(string); ok {
			out[k] = strings.TrimSpace(s)
		}
	}
	return out
}

// cutLine splits b at its first newline; more reports whether one was found.
func cutLine(b []byte) (line, rest []byte, more bool) {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return b[:i], b[i+1:], true
	}
	return b, nil, len(b) > 0
}
