//go:build !unix

package shim

import "os"

func maxRSSKiB(*os.ProcessState) int64 { return 0 }
