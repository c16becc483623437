//go:build !unix

package extension

import "errors"

func mkfifoImpl(string) error { return errors.New("no FIFOs here") }
