//go:build !unix

package shim

import "github.com/tetratelabs/wazero/experimental"

// reserveMemory has no reservation off Unix: linear memory is a Go slice
// (heapMemory).
func reserveMemory(*ceilingAllocator) experimental.LinearMemory { return nil }
