//go:build wasip1

package lolatest

import "testing"

// The host's checks do not build for wasip1: lolatest's golden harness
// runs natively (go test without GOOS=wasip1), which is where it belongs.
func loadManifest(t testing.TB, dir string) struct{} {
	t.Helper()
	t.Fatal("lolatest runs natively: the host's checks do not build for wasip1")
	return struct{}{}
}

func hostCheck(struct{}, []byte, []byte) error { return nil }
