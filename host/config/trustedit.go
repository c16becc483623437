package config

import (
	"bytes"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/lola-pm/lola/host/fsroot"
)

// KeysDir is the directory under $LOLA_HOME where TrustKey stores the
// public keys it adds to trust.keys.
const KeysDir = "keys"

// ErrUnparseable is returned by TrustKey when config.yaml does not parse
// (or fails validation): the file is left exactly as it is, never
// rewritten from a guess.
var ErrUnparseable = errors.New("config.yaml does not parse, so it was not changed")

// ErrNotEditable is returned by TrustKey when the entry cannot be added by
// a small text edit whose result provably differs only by that entry (a
// flow-style trust: section, say): the file is left as it is.
var ErrNotEditable = errors.New("config.yaml cannot be edited safely here, so it was not changed")

// TrustKeyEdit is what adding one trusted key does to $LOLA_HOME: the
// public key file written under keys/ and config.yaml before and after.
// Already is set (and nothing is to be written) when config.yaml trusts
// that public key already, under Name.
type TrustKeyEdit struct {
	Name    string // the trust.keys entry's name
	File    string // its file, relative to $LOLA_HOME (slash form)
	Already bool
	// Before and After are config.yaml's bytes (Before empty when there
	// is no file); After differs from Before by the one entry, and every
	// other line of Before is kept as it was (comments, order, layout).
	Before, After []byte
	pub           []byte
}

// TrustSnippet is the config.yaml text that trusts the key stored as
// keys/<name>.pub, for a person to add by hand.
func TrustSnippet(name string) string { return trustSnippet(name, KeysDir+"/"+name+".pub") }

func trustSnippet(name, file string) string {
	return "trust:\n  keys:\n    - " + flowEntry(name, file) + "\n"
}

// TrustKey prepares adding the PEM public key pub to config.yaml's
// trust.keys under name, stored as keys/<name>.pub, and writes nothing
// (Apply does). Guarantees:
//   - config.yaml that does not parse or validate is refused
//     (ErrUnparseable), and so is one the edit cannot change by inserting
//     the entry alone (ErrNotEditable): After is checked to decode to
//     exactly Before's document plus the entry;
//   - a key already trusted (a trust.keys file holding the same public
//     key) is reported as Already, under its existing name;
//   - a name already used for another key, or a keys/<name>.pub holding
//     another key, is refused: nothing is overwritten.
func TrustKey(home, name string, pub []byte) (*TrustKeyEdit, error) {
	if !keyName.MatchString(name) {
		return nil, fmt.Errorf("key name %q must match %s", name, keyName)
	}
	want, err := publicKeyDER(pub)
	if err != nil {
		return nil, err
	}
	before, err := readConfigBytes(home)
	if err != nil {
		return nil, err
	}
	cfg, err := Parse(bytes.NewReader(before))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnparseable, err)
	}
	e := &TrustKeyEdit{Name: name, File: KeysDir + "/" + name + ".pub", Before: before, pub: pub}
	for _, k := range cfg.Trust().Keys() {
		same := false
		if b, err := readKeyFile(home, k.File); err == nil {
			if der, err := publicKeyDER(b); err == nil && bytes.Equal(der, want) {
				same = true
			}
		}
		switch {
		case same:
			e.Name, e.File, e.Already, e.After = k.Name, k.File, true, before
			return e, nil
		case k.Name == name:
			return nil, fmt.Errorf("config.yaml already trusts another key named %q (%s); choose another name", name, k.File)
		}
	}
	if b, err := readKeyFile(home, e.File); err == nil {
		if der, err := publicKeyDER(b); err != nil || !bytes.Equal(der, want) {
			return nil, fmt.Errorf("$LOLA_HOME/%s exists and holds another key; choose another name", e.File)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("$LOLA_HOME/%s cannot be read", e.File)
	}
	after, err := insertTrustKey(before, name, e.File)
	if err != nil {
		return nil, fmt.Errorf("%w (%v)", ErrNotEditable, err)
	}
	if err := sameButEntry(before, after, name, e.File); err != nil {
		return nil, fmt.Errorf("%w (%v)", ErrNotEditable, err)
	}
	e.After = after
	return e, nil
}

// Apply writes the key file, then config.yaml, each atomically and by
// descriptor beneath home (a symbolic link at either is refused, never
// written through). config.yaml is replaced only if it still holds
// Before. Nothing is written when Already.
func (e *TrustKeyEdit) Apply(home string) error {
	if e.Already {
		return nil
	}
	if err := os.MkdirAll(home, 0o700); err != nil {
		return errors.New("$LOLA_HOME cannot be created")
	}
	r, err := fsroot.Open(home)
	if err != nil {
		return errors.New("$LOLA_HOME cannot be opened")
	}
	defer r.Close()
	keys, err := r.Dir().OpenDirRel(KeysDir)
	if errors.Is(err, fs.ErrNotExist) {
		keys, err = r.Dir().MkdirOpen(KeysDir, 0o755)
	}
	if err != nil {
		return fmt.Errorf("$LOLA_HOME/%s: %w", KeysDir, err)
	}
	defer keys.Close()
	if err := keys.ReplaceFile(path.Base(e.File), 0o644, e.pub); err != nil {
		return fmt.Errorf("$LOLA_HOME/%s: %w", e.File, err)
	}
	now, err := readConfigBytes(home)
	if err != nil {
		return err
	}
	if !bytes.Equal(now, e.Before) {
		return errors.New("config.yaml changed while it was being edited; run the command again")
	}
	if err := r.Dir().ReplaceFile(ConfigFile, 0o644, e.After); err != nil {
		return fmt.Errorf("%s: %w", ConfigFile, err)
	}
	return nil
}

func readConfigBytes(home string) ([]byte, error) {
	f, err := os.Open(filepath.Join(home, ConfigFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: cannot open", ConfigFile)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxConfigBytes+1))
	if err != nil || len(b) > MaxConfigBytes {
		return nil, fmt.Errorf("%s: cannot read (at most %d bytes)", ConfigFile, MaxConfigBytes)
	}
	return b, nil
}

func readKeyFile(home, file string) ([]byte, error) {
	p := filepath.FromSlash(file)
	if !filepath.IsAbs(p) {
		p = filepath.Join(home, p)
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, 64<<10))
}

// publicKeyDER is the DER of the first PUBLIC KEY block in b.
func publicKeyDER(b []byte) ([]byte, error) {
	blk, _ := pem.Decode(b)
	if blk == nil || blk.Type != "PUBLIC KEY" {
		return nil, errors.New("not a PEM public key")
	}
	if _, err := x509.ParsePKIXPublicKey(blk.Bytes); err != nil {
		return nil, errors.New("not a PEM public key")
	}
	return blk.Bytes, nil
}

// flowEntry is one trust.keys entry in flow style, each value a
// double-quoted scalar (a JSON string is one), so no name or path reads
// as a number, a boolean or null.
func flowEntry(name, file string) string {
	n, _ := json.Marshal(name)
	f, _ := json.Marshal(file)
	return "{name: " + string(n) + ", file: " + string(f) + "}"
}

// insertTrustKey adds the entry to src by inserting text only: a new
// trust: section at the end, a keys: list under an existing trust:, an
// item after a block list's last, or an item before a one-line flow
// list's closing bracket. Any other shape is an error.
func insertTrustKey(src []byte, name, file string) ([]byte, error) {
	entry := flowEntry(name, file)
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return nil, err
	}
	lines := strings.SplitAfter(string(src), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	appendEnd := func(text string) []byte {
		out := string(src)
		if out != "" && !strings.HasSuffix(out, "\n") {
			out += "\n"
		}
		return []byte(out + text)
	}
	if len(doc.Content) == 0 {
		return appendEnd(trustSnippet(name, file)), nil
	}
	top := doc.Content[0]
	if top.Kind != yaml.MappingNode || top.Style&yaml.FlowStyle != 0 {
		return nil, errors.New("the document is not a block mapping")
	}
	trustKey, trust := member(top, "trust")
	if trustKey == nil {
		return appendEnd(trustSnippet(name, file)), nil
	}
	insertAfter := func(line int, text string) []byte {
		out := append([]string(nil), lines[:line]...)
		if line > 0 && !strings.HasSuffix(out[line-1], "\n") {
			out[line-1] += "\n"
		}
		out = append(out, text)
		out = append(out, lines[line:]...)
		return []byte(strings.Join(out, ""))
	}
	pad := func(col int) string { return strings.Repeat(" ", col-1) }
	switch {
	case trust.Kind == yaml.ScalarNode && trust.Tag == "!!null" && trust.Line == trustKey.Line:
		return insertAfter(trustKey.Line, pad(trustKey.Column+2)+"keys:\n"+pad(trustKey.Column+4)+"- "+entry+"\n"), nil
	case trust.Kind != yaml.MappingNode || trust.Style&yaml.FlowStyle != 0:
		return nil, errors.New("trust: is not a block mapping")
	}
	keysKey, keys := member(trust, "keys")
	switch {
	case keysKey == nil:
		return insertAfter(trustKey.Line, pad(trust.Column)+"keys:\n"+pad(trust.Column+2)+"- "+entry+"\n"), nil
	case keys.Kind == yaml.ScalarNode && keys.Tag == "!!null" && keys.Line == keysKey.Line:
		return insertAfter(keysKey.Line, pad(keysKey.Column+2)+"- "+entry+"\n"), nil
	case keys.Kind != yaml.SequenceNode:
		return nil, errors.New("trust.keys is not a list")
	case keys.Style&yaml.FlowStyle == 0:
		return insertAfter(lastLine(keys), pad(keys.Column)+"- "+entry+"\n"), nil
	case lastLine(keys) != keys.Line:
		return nil, errors.New("trust.keys is a flow list over several lines")
	}
	line := lines[keys.Line-1]
	at := closingBracket(line, keys.Column-1)
	if at < 0 {
		return nil, errors.New("trust.keys: no closing bracket")
	}
	sep := ""
	if len(keys.Content) > 0 {
		sep = ", "
	}
	out := append([]string(nil), lines...)
	out[keys.Line-1] = line[:at] + sep + entry + line[at:]
	return []byte(strings.Join(out, "")), nil
}

// member returns the key and value nodes of key in the mapping m.
func member(m *yaml.Node, key string) (*yaml.Node, *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i], m.Content[i+1]
		}
	}
	return nil, nil
}

// lastLine is the last line any node beneath n starts on.
func lastLine(n *yaml.Node) int {
	l := n.Line
	for _, c := range n.Content {
		if cl := lastLine(c); cl > l {
			l = cl
		}
	}
	return l
}

// closingBracket is the index in line of the ']' closing the flow list
// that opens at index open, skipping quoted scalars; -1 if none.
func closingBracket(line string, open int) int {
	depth := 0
	var quote byte
	for i := open; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0:
			if c == '\\' && quote == '"' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '[' || c == '{':
			depth++
		case c == ']' || c == '}':
			depth--
			if depth == 0 {
				if c == ']' {
					return i
				}
				return -1
			}
		}
	}
	return -1
}

// sameButEntry checks that after decodes to before's document with the
// one entry appended to trust.keys (created as needed), and validates.
func sameButEntry(before, after []byte, name, file string) error {
	if _, err := Parse(bytes.NewReader(after)); err != nil {
		return err
	}
	var b, a map[string]any
	if err := yaml.Unmarshal(before, &b); err != nil {
		return err
	}
	if err := yaml.Unmarshal(after, &a); err != nil {
		return err
	}
	if b == nil {
		b = map[string]any{}
	}
	trust, _ := b["trust"].(map[string]any)
	if trust == nil {
		trust = map[string]any{}
	}
	keys, _ := trust["keys"].([]any)
	trust["keys"] = append(keys, map[string]any{"name": name, "file": file})
	b["trust"] = trust
	if !reflect.DeepEqual(a, b) {
		return errors.New("the edited file says more than the added entry")
	}
	return nil
}
