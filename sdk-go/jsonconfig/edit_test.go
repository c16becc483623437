package jsonconfig

import (
	"errors"
	"strings"
	"testing"
)

const (
	srvA = `{"command":"npx","args":["-y","@x/server"],"env":{"TOKEN":"${TOKEN}"}}`
	srvB = `{"type":"http","url":"https://mcp.example.org/mcp","headers":{"Authorization":"Bearer ${T}"}}`
)

func val(t *testing.T, s string) *Value {
	t.Helper()
	v, err := Parse([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return &v
}

// The expected documents below are what Python's json.dumps(indent=2)
// writes for the same merge (today's Lola), generated with python3.
func TestNewFileIsWhatTodaysLolaWrites(t *testing.T) {
	got, del, err := Apply("", false, NewObject(), "mcpServers", []Change{{"a", val(t, srvA)}, {"b", val(t, srvB)}})
	want := "{\n  \"mcpServers\": {\n    \"a\": {\n      \"command\": \"npx\",\n      \"args\": [\n        \"-y\",\n        \"@x/server\"\n      ],\n      \"env\": {\n        \"TOKEN\": \"${TOKEN}\"\n      }\n    },\n    \"b\": {\n      \"type\": \"http\",\n      \"url\": \"https://mcp.example.org/mcp\",\n      \"headers\": {\n        \"Authorization\": \"Bearer ${T}\"\n      }\n    }\n  }\n}\n"
	if err != nil || del || got != want {
		t.Fatalf("err %v del %v\n got %q\nwant %q", err, del, got, want)
	}
	// Removing both gives the file back to nobody: delete it.
	out, del, err := Apply(got, true, NewObject(), "mcpServers", []Change{{"a", nil}, {"b", nil}})
	if err != nil || !del {
		t.Fatalf("err %v del %v out %q", err, del, out)
	}
}

func TestMergeIntoPythonLaidOutFileMatchesUpstreamAndUndoes(t *testing.T) {
	user := "{\n  \"mcpServers\": {\n    \"mine\": {\n      \"command\": \"x\"\n    }\n  },\n  \"other\": true\n}\n"
	want := "{\n  \"mcpServers\": {\n    \"mine\": {\n      \"command\": \"x\"\n    },\n    \"a\": {\n      \"command\": \"npx\",\n      \"args\": [\n        \"-y\",\n        \"@x/server\"\n      ],\n      \"env\": {\n        \"TOKEN\": \"${TOKEN}\"\n      }\n    }\n  },\n  \"other\": true\n}\n"
	got, _, err := Apply(user, true, NewObject(), "mcpServers", []Change{{"a", val(t, srvA)}})
	if err != nil || got != want {
		t.Fatalf("err %v\n got %q\nwant %q", err, got, want)
	}
	back, del, err := Apply(got, true, NewObject(), "mcpServers", []Change{{"a", nil}})
	if err != nil || del || back != user {
		t.Fatalf("uninstall: err %v del %v\n got %q\nwant %q", err, del, back, user)
	}
}

// A user's file with unusual formatting keeps every byte through an
// install and an uninstall, whether or not it had the container.
func TestUnusualFormattingRoundTrips(t *testing.T) {
	for _, user := range []string{
		"{\r\n\t\"mcpServers\" :{\r\n\t\t\"mine\":{\"command\":\"x\",\"args\":[ 1e3 , \"\\u00e9\" ]}\r\n\t} ,\r\n\t\"z\":[]\r\n}\r\n",
		`{"theme":"dark","mcpServers":{"mine":{"command":"x"}}}`,
		"{\n    \"editor\": {\"tabs\": 4},\n    \"keep\": \"\\/escaped\\/\"\n}",
		"  {  }  \n",
		"{\"mcpServers\": {}, \"x\": 1}",
	} {
		got, _, err := Apply(user, true, NewObject(), "mcpServers", []Change{{"a", val(t, srvA)}, {"b", val(t, srvB)}})
		if err != nil {
			t.Fatalf("%q: %v", user, err)
		}
		v, err := Parse([]byte(got))
		if err != nil {
			t.Fatalf("%q: result is not JSON: %q", user, got)
		}
		c, _ := v.Get("mcpServers")
		if _, ok := c.Get("a"); !ok {
			t.Fatalf("%q: server a missing from %q", user, got)
		}
		back, del, err := Apply(got, true, NewObject(), "mcpServers", []Change{{"b", nil}, {"a", nil}})
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case user == "  {  }  \n":
			if !del {
				t.Fatalf("an object only lola filled is not reported empty: %q", back)
			}
		case user == "{\"mcpServers\": {}, \"x\": 1}":
			// Documented: the emptied container goes.
			if back != "{\"x\": 1}" {
				t.Fatalf("got %q", back)
			}
		case back != user || del:
			t.Fatalf("not restored:\n got %q\nwant %q", back, user)
		}
	}
}

func TestReplaceKeepsPosition(t *testing.T) {
	user := "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"old\"},\n    \"z\": {}\n  }\n}\n"
	got, _, err := Apply(user, true, NewObject(), "mcpServers", []Change{{"a", val(t, `{"command":"new"}`)}})
	want := "{\n  \"mcpServers\": {\n    \"a\": {\n      \"command\": \"new\"\n    },\n    \"z\": {}\n  }\n}\n"
	if err != nil || got != want {
		t.Fatalf("err %v\n got %q\nwant %q", err, got, want)
	}
}

func TestHostileOrForeignDocumentsRefused(t *testing.T) {
	for _, doc := range []string{
		"{\n  // a comment\n  \"mcpServers\": {}\n}\n",
		"{\"mcpServers\": {},}",
		"[]",
		"{\"mcpServers\": []}",
		"{\"mcpServers\": {}, \"mcpServers\": {}}",
		"{\"mcpServers\": {\"a\": {}, \"a\": {}}}",
		"\xef\xbb\xbf{}",
		"",
	} {
		_, _, err := Apply(doc, true, NewObject(), "mcpServers", []Change{{"a", val(t, srvA)}})
		if err == nil {
			t.Errorf("%q: accepted", doc)
		}
		if strings.Contains(doc, "//") && !errors.Is(err, ErrNotJSON) {
			t.Errorf("JSONC: %v, want ErrNotJSON", err)
		}
	}
}

func TestRenderIsPythonJSON(t *testing.T) {
	v := val(t, `{"note":"caf\u00e9 \ud83d\ude00 <&> \t","n":1.5e20,"i":10,"f":0.0001,"g":1e-5,"neg":-0.0}`)
	want := "{\n  \"note\": \"caf\\u00e9 \\ud83d\\ude00 <&> \\t\",\n  \"n\": 1.5e+20,\n  \"i\": 10,\n  \"f\": 0.0001,\n  \"g\": 1e-05,\n  \"neg\": -0.0\n}"
	if got := Render(*v, "", "  "); got != want {
		t.Fatalf("\n got %q\nwant %q", got, want)
	}
}

// Emptied is judged on the final document: removing a member that is not
// there after the last one went keeps it emptied, a set after a removal
// does not, and removals that find nothing empty nothing.
func TestApplyEmptiedIsTheFinalDocuments(t *testing.T) {
	doc := "{\n  \"$schema\": \"s\",\n  \"mcpServers\": {\n    \"a\": {}\n  }\n}\n"
	cases := []struct {
		name    string
		changes []Change
		emptied bool
	}{
		{"last member removed, then an absent one", []Change{{"a", nil}, {"zz", nil}}, true},
		{"removed, then set again", []Change{{"a", nil}, {"b", val(t, `{}`)}}, false},
		{"only absent members removed", []Change{{"zz", nil}}, false},
	}
	for _, c := range cases {
		if _, emptied, err := Apply(doc, true, NewObject(), "mcpServers", c.changes); err != nil || emptied != c.emptied {
			t.Errorf("%s: emptied %v err %v, want %v", c.name, emptied, err, c.emptied)
		}
	}
	if _, emptied, _ := Apply(`{"$schema":"s"}`, true, NewObject(), "mcpServers", []Change{{"a", nil}}); emptied {
		t.Error("a file holding only $schema from the start is reported emptied by a removal that found nothing")
	}
}
