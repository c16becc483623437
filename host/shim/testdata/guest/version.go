//go:build !abi2

package main

const abiVersion = 1
