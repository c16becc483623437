// Command lola-sigstore verifies one extension signature bundle for lola:
// the trust policy, the artifact's digest and the bundle as one JSON
// request on stdin (host/sigverify), the signer or the refusal as one JSON
// response on stdout. It links sigstore-go so that lola itself does not
// (its initialisation alone made every lola command about 16 ms slower:
// `lola --version` took 37 ms with it and 21 ms without, on the reference
// machine). lola runs it from beside its own executable, with an empty
// environment; it is not meant to be run by hand.
package main

import (
	"os"

	"github.com/lola-pm/lola/host/signature"
)

func main() { os.Exit(signature.Main(os.Stdin, os.Stdout, os.Stderr)) }
