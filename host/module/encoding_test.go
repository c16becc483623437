package module

import (
	"encoding/base64"
	"path/filepath"
	"testing"

	"github.com/lola-pm/lola/schema"
)

func TestTextVersusBinaryEncoding(t *testing.T) {
	cases := map[string]struct {
		body string
		enc  schema.Encoding
	}{
		"empty.md":      {"", schema.EncodingUTF8},
		"ascii.md":      {"plain\n", schema.EncodingUTF8},
		"unicode.md":    {"caf\u00e9 \u2603 \U0001F600\n", schema.EncodingUTF8},
		"zero-byte.txt": {"a\x00b", schema.EncodingUTF8}, // valid UTF-8, so text
		"latin1.txt":    {"caf\xe9", schema.EncodingBase64},
		"truncated.md":  {"\xe2\x98", schema.EncodingBase64},
		"png.bin":       {"\x89PNG\r\n\x1a\n", schema.EncodingBase64},
		"surrogate.md":  {"\xed\xa0\x80", schema.EncodingBase64},
	}
	root := t.TempDir()
	for name, c := range cases {
		writeTree(t, root, []entry{file(name, c.body)})
	}
	files, err := ReadFiles(root, DefaultBounds())
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(cases) {
		t.Fatalf("%d files; want %d", len(files), len(cases))
	}
	for _, f := range files {
		c := cases[filepath.Base(f.Path)]
		if f.Encoding != c.enc {
			t.Errorf("%s: encoding %s; want %s", f.Path, f.Encoding, c.enc)
		}
		got := f.Content
		if f.Encoding == schema.EncodingBase64 {
			b, err := base64.StdEncoding.DecodeString(f.Content)
			if err != nil {
				t.Fatal(err)
			}
			got = string(b)
		}
		if got != c.body {
			t.Errorf("%s: content %q; want %q", f.Path, got, c.body)
		}
	}
}
