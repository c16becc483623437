package install

import "testing"

// The digest survives what editors do to a server (indentation, key
// order, number and string spelling kept) and changes with any value.
func TestServerDigestIsCanonical(t *testing.T) {
	base, ok := ServerDigest([]byte(`{"command":"gh","args":["a",1.50],"env":{"A":"<b>"}}`))
	if !ok {
		t.Fatal("a valid value was refused")
	}
	for _, same := range []string{
		"{\n  \"env\": {\"A\": \"<b>\"},\n  \"args\": [\"a\", 1.50],\n  \"command\": \"gh\"\n}",
		`{"args":["a",1.50],"command":"gh","env":{"A":"\u003cb>"}}`,
	} {
		if d, _ := ServerDigest([]byte(same)); d != base {
			t.Errorf("%s: digest differs from the same value's", same)
		}
	}
	for _, other := range []string{
		`{"command":"gh","args":["a",1.5],"env":{"A":"<b>"}}`,
		`{"command":"gh","args":["a",1.50],"env":{"A":"<b>"},"x":null}`,
		`{"command":"gH","args":["a",1.50],"env":{"A":"<b>"}}`,
	} {
		if d, _ := ServerDigest([]byte(other)); d == base {
			t.Errorf("%s: a changed value has the same digest", other)
		}
	}
	for _, bad := range []string{``, `{`, `{} {}`, `{"a":1}x`} {
		if _, ok := ServerDigest([]byte(bad)); ok {
			t.Errorf("%q: not one JSON value, yet digested", bad)
		}
	}
}

// Digests are taken in every top-level object of a managed JSON file, for
// the named servers only; a name with two different values in one file
// proves nothing and is left out, and so is a file that is not one object.
func TestServerDigestsOfAManagedFile(t *testing.T) {
	names := map[string]bool{"a": true, "b": true, "twice": true}
	got := serverDigests([]byte(`{"$schema":"s","model":"m","mcpServers":{"a":{"command":"x"},"user":{},"twice":{"c":1}},"servers":{"b":{"url":"u"},"twice":{"c":2}}}`), names)
	da, _ := ServerDigest([]byte(`{"command":"x"}`))
	db, _ := ServerDigest([]byte(`{"url":"u"}`))
	if len(got) != 2 || got["a"] != da || got["b"] != db {
		t.Errorf("digests %v: want a and b only", got)
	}
	if got := serverDigests([]byte(`{"mcpServers":{"a":{}}} {}`), names); got != nil {
		t.Errorf("not one object: %v", got)
	}
}
