package extension

import (
	"net/url"
	"path/filepath"
	"strings"

	"github.com/lola-pm/lola/host/module"
	"github.com/lola-pm/lola/host/remote"
)

// recordedSource is what the lock records for src, for `ext update` and
// for ls/info: a local path made absolute; a URL as host/remote's
// RedactURL prints it (query values and any password replaced, fragment
// dropped), except that an ssh user name without a password is kept, since
// it is an account name, not a secret, and the clone needs it. An https URL
// carrying userinfo is refused by host/remote before anything is pinned.
func recordedSource(src module.Source) string {
	loc := src.Location()
	if !src.IsRemote() {
		if abs, err := filepath.Abs(loc); err == nil {
			return abs
		}
		return loc
	}
	red := remote.RedactURL(loc)
	orig, err1 := url.Parse(loc)
	u, err2 := url.Parse(red)
	if err1 != nil || err2 != nil {
		return red
	}
	if orig.Scheme == "ssh" && orig.User != nil {
		if _, hasPw := orig.User.Password(); !hasPw {
			u.User = url.User(orig.User.Username())
			return u.String()
		}
	}
	return red
}

// redactedPlaceholder is what remote.RedactURL puts in place of a secret.
const redactedPlaceholder = "redacted"

// heldBack reports whether the recorded source s is a URL from which
// recordedSource (through remote.RedactURL) removed something: a query
// value or userinfo. Such a URL is not the one that was fetched (a signed
// URL's token is gone), so `ext update` asks for the source again rather
// than fetching a URL that cannot be the same.
func heldBack(s string) bool {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "https" && u.Scheme != "ssh") {
		return false
	}
	if u.User != nil {
		if _, pw := u.User.Password(); pw || u.User.Username() == redactedPlaceholder {
			return true
		}
	}
	for _, p := range strings.Split(u.RawQuery, "&") {
		if p == redactedPlaceholder || strings.HasSuffix(p, "="+redactedPlaceholder) {
			return true
		}
	}
	return false
}
