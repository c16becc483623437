//go:build abi2

package main

// Built with -tags abi2, the module claims an ABI the shim does not implement.
const abiVersion = 2
