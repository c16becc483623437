package audit

import (
	"encoding/base64"
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/lola-pm/lola/schema"
)

// FuzzNoSecretInRecord plants a marker in every place a secret can sit
// (content in both encodings, a header value, URL userinfo, query and
// fragment), around fuzzed bytes, and asserts that the record as logged
// never contains the marker, whatever the fuzzed text does to parsing.
func FuzzNoSecretInRecord(f *testing.F) {
	f.Add("body", "Bearer x", "user", "pa:ss", "a=b&c=d", "frag", "skills/a.md", "X-Key")
	f.Add("", "", "", "", "", "", "", "")
	f.Add("\x00\xff", "\r\n", "@", "%zz", "?", "#", "../x", "Authorization")
	const mark = "ZQ9MARK"
	f.Fuzz(func(t *testing.T, content, hval, user, pass, query, frag, path, hname string) {
		raw := "https://" + url.QueryEscape(mark+user) + ":" + url.QueryEscape(mark+pass) + "@example.org/p?" + mark + query + "#" + mark + frag
		intents := []schema.Intent{
			{Write: &schema.Write{Path: path, Content: mark + content}},
			{Write: &schema.Write{Path: path, Content: base64.StdEncoding.EncodeToString([]byte(mark + content)), Encoding: schema.EncodingBase64}},
			{Fetch: &schema.Fetch{URL: raw, Dest: path, Headers: map[string]string{hname: mark + hval, "Authorization": mark + hval}}},
			{Clone: &schema.Clone{URL: raw, Dest: path}},
			{Fetch: &schema.Fetch{URL: "https://" + mark + user + "@" + query, Dest: path}},
		}
		for i, in := range intents {
			r, err := NewIntentRecord(i, in, nil)
			if err != nil {
				t.Fatal(err)
			}
			js, err := json.Marshal(r.entry())
			if err != nil {
				t.Fatal(err)
			}
			// Text that parsing legitimately puts in a logged place (a host or
			// path that the fuzzer built around the marker) is not a leak.
			allowed := path + hname
			for _, raw := range []string{fetchURL(in), cloneURL(in)} {
				if u, err := url.Parse(raw); err == nil && raw != "" {
					allowed += u.Host + u.Path + u.EscapedPath()
				}
			}
			if strings.Contains(string(js), mark) && !strings.Contains(allowed, mark) {
				t.Fatalf("intent %d: the marker reached the record: %s", i, js)
			}
		}
	})
}

func fetchURL(in schema.Intent) string {
	if in.Fetch != nil {
		return in.Fetch.URL
	}
	return ""
}

func cloneURL(in schema.Intent) string {
	if in.Clone != nil {
		return in.Clone.URL
	}
	return ""
}
