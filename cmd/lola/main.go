// Command lola is the Lola CLI. It is thin: it parses flags, calls host
// packages, and maps their typed results to text and exit codes.
package main

import "os"

func main() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
