// Package largemodule writes a large module shaped like real skill
// collections (anthropics/skills: 17 skills, about 400 files, 10 MiB), for
// tests that hold every target and the host's bounds to modules of that
// size and larger. Nothing of any third party is copied: every byte is
// generated here.
//
// The shape, per skill under skills/<name>/: SKILL.md with YAML
// frontmatter (name, description, license) and a body; LICENSE.txt;
// reference markdown; Python scripts (some executable, one shell script
// executable); deeply nested XML schemas (the bulk of the bytes: many
// lines, many quotes, so a JSON encoder escapes a lot); and binary files
// (font-like and gzip-like: bytes that are not UTF-8, so the host sends
// them as base64). Text carries non-ASCII characters too.
//
// Guarantees: Write is deterministic (the same Spec writes the same bytes),
// writes exactly Spec.Files files, and their sizes add up to Spec.Bytes
// exactly, no file above MaxFileBytes. Non-guarantee: the content means
// nothing; it only has the shape (line lengths, escapes, encodings) of the
// real thing.
package largemodule

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Spec says how large a module Write makes.
type Spec struct {
	Files int   // number of files, at least 4 per skill
	Bytes int64 // total bytes of all files
}

// Default is the size every built-in target must install: 500 files,
// 20 MiB.
var Default = Spec{Files: 500, Bytes: 20 << 20}

// MaxFileBytes is the largest file Write makes (the store's per-file bound
// is 8 MiB; real schema files are about 250 KB).
const MaxFileBytes = 1 << 20

// Skills is the number of skills Write makes, as many as anthropics/skills.
const Skills = 17

// File is one file Write wrote.
type File struct {
	Path       string // module-relative, slash-separated
	Size       int64
	Binary     bool // not UTF-8 (the host sends it as base64)
	Executable bool
}

// kind is the shape of one generated file.
type kind int

const (
	kindSkillMD kind = iota
	kindLicense
	kindReference
	kindScript
	kindShell
	kindSchema
	kindFont
	kindGzip
)

type plannedFile struct {
	File
	kind  kind
	skill string
}

// SkillNames are the names of the skills Write makes, in order.
func SkillNames() []string {
	names := make([]string, Skills)
	for i := range names {
		names[i] = fmt.Sprintf("skill-%02d", i)
	}
	return names
}

// Write writes the module into dir (created if missing) and returns its
// files sorted by path.
func Write(dir string, s Spec) ([]File, error) {
	plan, err := layout(s)
	if err != nil {
		return nil, err
	}
	r := rng(uint64(s.Files)*1_000_003 + uint64(s.Bytes))
	out := make([]File, 0, len(plan))
	for _, p := range plan {
		body := generate(&r, p)
		full := filepath.Join(dir, filepath.FromSlash(p.Path))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return nil, err
		}
		mode := os.FileMode(0o644)
		if p.Executable {
			mode = 0o755
		}
		if err := os.WriteFile(full, body, mode); err != nil {
			return nil, err
		}
		if err := os.Chmod(full, mode); err != nil { // past the umask
			return nil, err
		}
		out = append(out, p.File)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// layout decides every file's path, kind and size.
func layout(s Spec) ([]plannedFile, error) {
	if s.Files < Skills*4 {
		return nil, fmt.Errorf("largemodule: %d files: at least %d", s.Files, Skills*4)
	}
	if s.Bytes > int64(s.Files)*MaxFileBytes/2 || s.Bytes < int64(s.Files)*2048 {
		return nil, fmt.Errorf("largemodule: %d bytes in %d files is not a real shape", s.Bytes, s.Files)
	}
	names := SkillNames()
	var plan []plannedFile
	add := func(skill, rel string, k kind) {
		f := plannedFile{File: File{Path: "skills/" + skill + "/" + rel}, kind: k, skill: skill}
		f.Binary = k == kindFont || k == kindGzip
		f.Executable = k == kindShell || (k == kindScript && len(plan)%3 == 0)
		plan = append(plan, f)
	}
	for _, n := range names {
		add(n, "SKILL.md", kindSkillMD)
		add(n, "LICENSE.txt", kindLicense)
	}
	// The rest round-robin over the skills, in the proportions of the real
	// collection: schemas, scripts, references, fonts, a few gzip files.
	for i := 0; len(plan) < s.Files; i++ {
		n := names[i%Skills]
		switch j := i / Skills; {
		case i == 3:
			add(n, "scripts/run.sh", kindShell)
		case i%10 < 3:
			add(n, fmt.Sprintf("scripts/office/schemas/ISO-IEC29500-4_2016/part%d/sml-%03d.xsd", i%4, i), kindSchema)
		case i%10 < 5:
			add(n, fmt.Sprintf("scripts/tool_%03d.py", j), kindScript)
		case i%10 < 7:
			add(n, fmt.Sprintf("reference/section-%d/topic_%03d.md", i%3, j), kindReference)
		case i%10 < 9 || i%37 != 0:
			add(n, fmt.Sprintf("canvas-fonts/Face%03d-Regular.ttf", i), kindFont)
		default:
			add(n, fmt.Sprintf("assets/bundle-%03d.tar.gz", i), kindGzip)
		}
	}
	// Sizes: small files first (SKILL.md, licenses, scripts, references:
	// a few KiB each), the rest of the bytes spread over schemas and
	// binaries by weight, capped at MaxFileBytes.
	weight := map[kind]int64{kindSchema: 5, kindFont: 4, kindGzip: 6}
	small := map[kind]int64{kindSkillMD: 6000, kindLicense: 11000, kindReference: 9000, kindScript: 7000, kindShell: 800}
	var rest, weights int64 = s.Bytes, 0
	for i := range plan {
		if sz, ok := small[plan[i].kind]; ok {
			sz += int64(i % 97 * 13)
			plan[i].Size = sz
			rest -= sz
		} else {
			weights += weight[plan[i].kind]
		}
	}
	if rest <= 0 || weights == 0 {
		return nil, fmt.Errorf("largemodule: %d bytes do not cover the small files", s.Bytes)
	}
	var given int64
	var big []int
	for i := range plan {
		if w, ok := weight[plan[i].kind]; ok {
			plan[i].Size = rest * w / weights
			given += plan[i].Size
			big = append(big, i)
		}
	}
	// The rounding remainder, to the big files in turn.
	for k := 0; given < rest; k++ {
		plan[big[k%len(big)]].Size++
		given++
	}
	for _, i := range big {
		if plan[i].Size > MaxFileBytes {
			return nil, fmt.Errorf("largemodule: %d bytes in %d files needs files over %d bytes", s.Bytes, s.Files, MaxFileBytes)
		}
	}
	return plan, nil
}

// rng is a 64-bit xorshift: deterministic, and enough for filler.
type rng uint64

func (r *rng) next() uint64 {
	x := uint64(*r)
	x ^= x << 13
	x ^= x >> 7
	x ^= x << 17
	*r = rng(x)
	return x
}

var words = strings.Fields(`the skill reads a document and writes its result to the
path named in the request; when the user asks for a table or a chart, run
scripts first, then validate the output against its schema. élément données
größe naïve façade 表格 文档 ✓ — "quoted" 'single' \backslash\ tab	end`)

func generate(r *rng, p plannedFile) []byte {
	var b bytes.Buffer
	b.Grow(int(p.Size) + 256)
	switch p.kind {
	case kindSkillMD:
		fmt.Fprintf(&b, "---\nname: %s\ndescription: Use this skill whenever the user works with %s files (reading, \"converting\", merging and checking them). If the user mentions a %s file, use this skill.\nlicense: Proprietary. LICENSE.txt has complete terms\n---\n\n# %s guide\n\n", p.skill, p.skill, p.skill, p.skill)
		prose(r, &b, p.Size)
	case kindLicense, kindReference:
		b.WriteString("# Notes\r\n\r\n") // CRLF, as some real files are
		prose(r, &b, p.Size)
	case kindScript:
		b.WriteString("#!/usr/bin/env python3\n\"\"\"Generated tool.\"\"\"\nimport sys\n\n")
		for int64(b.Len()) < p.Size {
			fmt.Fprintf(&b, "def step_%d(path):\n    return {\"path\": path, \"n\": %d, \"tab\": \"\\t\"}\n\n", r.next()%10000, r.next()%1000)
		}
	case kindShell:
		b.WriteString("#!/bin/sh\nset -eu\n")
		for int64(b.Len()) < p.Size {
			b.WriteString("echo \"step $1\" >&2\n")
		}
	case kindSchema:
		b.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<xsd:schema xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\" elementFormDefault=\"qualified\">\n")
		for int64(b.Len()) < p.Size {
			n := r.next() % 100000
			fmt.Fprintf(&b, "  <xsd:complexType name=\"CT_T%d\">\n    <xsd:attribute name=\"val\" type=\"xsd:string\" use=\"optional\" default=\"&quot;%d&quot;\"/>\n  </xsd:complexType>\n", n, n)
		}
	case kindFont, kindGzip:
		if p.kind == kindGzip {
			b.Write([]byte{0x1f, 0x8b, 0x08, 0x00})
		} else {
			b.Write([]byte{0x00, 0x01, 0x00, 0x00, 0x00, 0x12, 0x01, 0x00})
		}
		for int64(b.Len()) < p.Size {
			v := r.next()
			for k := 0; k < 8; k++ {
				b.WriteByte(byte(v >> (8 * k)))
			}
		}
	}
	out := b.Bytes()[:p.Size]
	if p.Binary {
		out[len(out)-1] = 0xff // never valid UTF-8, whatever the filler
		return out
	}
	return cutUTF8(out)
}

func prose(r *rng, b *bytes.Buffer, size int64) {
	col := 0
	for int64(b.Len()) < size {
		w := words[r.next()%uint64(len(words))]
		b.WriteString(w)
		col += len(w) + 1
		if col > 72 {
			b.WriteByte('\n')
			col = 0
		} else {
			b.WriteByte(' ')
		}
	}
}

// cutUTF8 keeps text valid UTF-8 at its exact size: a multi-byte rune the
// cut would split is replaced, byte for byte, by ASCII.
func cutUTF8(b []byte) []byte {
	i := len(b)
	for k := 1; k <= 3 && i-k >= 0; k++ {
		c := b[i-k]
		if c&0xc0 == 0x80 {
			continue // a continuation byte: look further back
		}
		if c >= 0xc0 { // a lead byte: complete only if its length fits
			need := 2
			if c >= 0xe0 {
				need = 3
			}
			if c >= 0xf0 {
				need = 4
			}
			if need > k {
				for j := i - k; j < i; j++ {
					b[j] = '.'
				}
			}
		}
		break
	}
	return b
}
