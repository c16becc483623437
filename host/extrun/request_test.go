package extrun

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/shim"
)

func TestDefaultRequest(t *testing.T) {
	for _, name := range []string{"", "default"} {
		req := DefaultRequest()
		if name == "" {
			var err error
			if req, err = LoadRequest("", nil); err != nil {
				t.Fatal(err)
			}
		}
		b, err := json.Marshal(req)
		if err != nil || string(b) != `{"protocol":1,"operation":"generate","modules":[]}` {
			t.Fatalf("%s: %s %v", name, b, err)
		}
	}
}

func TestLoadRequest(t *testing.T) {
	req, err := LoadRequest("-", strings.NewReader(`{"protocol":1,"operation":"install"}`))
	if err != nil || req.Modules == nil || len(req.Modules) != 0 {
		t.Fatalf("a request without modules: %+v %v (want an empty list)", req, err)
	}
	for body, want := range map[string]string{
		`{"protocol":1,"operation":"generate","extra":1}`:                                                "not a request",
		`{"protocol":1,"operation":"generate"} {}`:                                                       "trailing data",
		`{"protocol":2,"operation":"generate"}`:                                                          "protocol 2",
		`{"protocol":1,"operation":"explode"}`:                                                           `unknown operation "explode"`,
		`{"protocol":1,"operation":"generate","modules":[` + strings.Repeat(" ", MaxRequestBytes) + `]}`: "larger than",
	} {
		if _, err := LoadRequest("-", strings.NewReader(body)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%.60s: %v, want %q", body, err, want)
		}
	}
	dir := filepath.Join(t.TempDir(), "secret-dir")
	if _, err := LoadRequest(filepath.Join(dir, "req.json"), nil); err == nil || strings.Contains(err.Error(), "secret-dir") || !strings.Contains(err.Error(), "req.json") {
		t.Errorf("a missing file: %v (want its base name only)", err)
	}
	f := filepath.Join(t.TempDir(), "req.json")
	if err := os.WriteFile(f, []byte(`{"protocol":1,"operation":"uninstall","modules":[]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if req, err := LoadRequest(f, nil); err != nil || req.Operation != "uninstall" {
		t.Fatalf("a request file: %+v %v", req, err)
	}
}

// Every request the shim accepts loads as --request: 'lola ext request'
// for a 20 MiB module prints about 28 MB, over the 16 MiB this once was.
func TestMaxRequestBytesIsTheShims(t *testing.T) {
	if MaxRequestBytes < shim.DefaultLimits().MaxRequest() {
		t.Fatalf("MaxRequestBytes %d, under the shim's request bound %d", MaxRequestBytes, shim.DefaultLimits().MaxRequest())
	}
}
