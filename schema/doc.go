// Package schema is the Lola extension protocol: the request an extension
// receives, the plan it returns, and the closed vocabularies (rejection
// rules, capability atoms) that the host, the CLI, the audit log and every
// SDK share.
//
// The Go types here are the single source of truth. plan.schema.json and
// request.schema.json beside this package are generated from them by
// internal/schemagen, and a test fails when the checked-in files drift.
//
// This package has no dependencies outside the standard library, so a guest
// built with sdk-go stays small. It decodes leniently (encoding/json): the
// strict, bounded decoder that treats a plan as hostile bytes lives in the
// host (host/plan), never here.
package schema

// Protocol is the protocol version carried by every request and plan.
const Protocol = 1

// ABIVersion is the value a tier-1 module's lola_abi_version export returns
// for the ABI this package describes.
const ABIVersion = 1

//go:generate go run ./internal/schemagen/cmd
