package remote

import (
	"strings"
	"testing"
)

// TestRedactURL: no part of a URL that can carry a credential is
// shown: userinfo, query values, a bare query token, the fragment.
func TestRedactURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://example.org/x.tgz":                         "https://example.org/x.tgz",
		"https://example.org/x.tgz?sig=SECRET1&exp=SECRET2": "https://example.org/x.tgz?sig=redacted&exp=redacted",
		"https://example.org/x.tgz?SECRET3":                 "https://example.org/x.tgz?redacted",
		"https://u:SECRET4@example.org/r.git#SECRET5":       "https://redacted@example.org/r.git",
		"https://example.org/x?a=SECRET6&&SECRET7":          "https://example.org/x?a=redacted&redacted",
	} {
		got := RedactURL(in)
		if got != want {
			t.Errorf("%s: %s, want %s", in, got, want)
		}
		if strings.Contains(got, "SECRET") {
			t.Errorf("%s: %s shows a credential", in, got)
		}
	}
}
