package remote

import (
	"net/url"
	"strings"
)

// RedactURL returns s fit to print or log: userinfo becomes "redacted", the
// fragment is dropped, and every query value is replaced (signed URLs carry
// tokens there). A query parameter's name is kept; a parameter without "="
// (a bare token) becomes "redacted". An unparsable URL is not echoed at all.
//
// It does not decide whether a URL is allowed (that is Policy's job) and
// does not hide the host or path, which the user needs to see.
func RedactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "(unparsable url)"
	}
	if u.User != nil {
		u.User = url.User("redacted")
	}
	if u.RawQuery != "" {
		var kept []string
		for _, p := range strings.Split(u.RawQuery, "&") {
			if k, _, ok := strings.Cut(p, "="); ok {
				kept = append(kept, k+"=redacted")
			} else if p != "" {
				kept = append(kept, "redacted")
			}
		}
		u.RawQuery = strings.Join(kept, "&")
	}
	u.Fragment, u.RawFragment = "", ""
	return u.String()
}
