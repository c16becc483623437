//go:build !linux

package apply

import "testing"

// syncRoot: no syncfs here; the floor is the write loop alone.
func syncRoot(testing.TB, string) {}
