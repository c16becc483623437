// Package lola is the Go SDK for Lola extensions: one source that builds as a
// tier-1 WASI preview 1 module and as a tier-2 native executable, so
// promotion from tier 2 to tier 1 is a recompile.
//
// An extension never performs an effect. It receives a Request (the modules
// it concerns, with their files) and fills a Plan (write, delete, rename,
// fetch and clone intents); the host validates the plan whole and applies it.
//
// # Writing an extension
//
// Register one Handler in init and call Main from main:
//
//	package main
//
//	import (
//		lola "github.com/lola-pm/lola/sdk-go"
//	)
//
//	func init() { lola.Register(plan) }
//
//	func main() { lola.Main() }
//
//	func plan(req *lola.Request, p *lola.Plan) error {
//		for _, m := range req.Modules {
//			for _, f := range m.Files {
//				if err := p.WriteFile("out/"+m.Name+"/"+f.Path, f); err != nil {
//					return err
//				}
//			}
//		}
//		return nil
//	}
//
// Build it both ways:
//
//	GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -trimpath -ldflags="-s -w" -o dist/ext.wasm .   # tier 1
//	CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o dist/ext .                                      # tier 2
//
// or let `lola ext build DIR` run both.
//
// # Guarantees
//
//   - The plan builder refuses, when the intent is added, what the host
//     refuses from one intent's text, with the host's rule: rooted or
//     drive-qualified paths (path.absolute); ".." components
//     (path.traversal); empty or "." components, control characters,
//     backslashes, any of <>:"|?*, trailing dots or spaces and Windows
//     device names such as CON or nul.txt, on every platform
//     (path.invalid); strings that are not UTF-8 (plan.invalid-utf8);
//     base64 content that is not strict standard base64 (plan.encoding);
//     fetch methods other than exactly GET (remote.method); schemes other
//     than https for fetch and https or ssh for clone, spelled in lower
//     case (remote.scheme); URLs that are not printable ASCII, do not
//     parse, are opaque, have no host or carry userinfo, ssh user names
//     included (remote.url); and header names that are not tokens, appear
//     twice in any case, or change framing (Host, Content-Length, ...), or
//     values with control characters, or more than 64 headers
//     (remote.header). Each refusal is a *BuildError naming the rule by its
//     spelling in schema.Rule; errors.Is(err, lola.RuleError(rule)) matches
//     it. A test replays the host's shared plan vectors (schema/vectors)
//     through the builder: every valid plan is accepted, every lexical
//     invalid one refused with its rule. The host stays authoritative, and
//     whole-plan rules (conflicts, symlinks, capabilities, path grants,
//     bounds, destinations) are checked only there.
//   - A handler refuses a request it cannot serve (a module without the
//     inventory a target needs, say) by returning BadRequest(detail): the
//     run ends with StatusBadRequest (1), as docs/abi.md's table says, not
//     StatusHandlerError (2). Any other error is StatusHandlerError.
//   - A Plan remembers its first refusal. If a handler ignores an error the
//     builder returned, the run still fails with that error: a plan missing
//     an intent the author asked for is never emitted.
//   - Plans serialize canonically: encoding/json of schema.Plan, "op" first
//     in each intent, map keys sorted, utf8 encoding omitted, GET omitted.
//     The tier-1 and tier-2 builds of one source emit byte-identical plans.
//
// # The ABI (tier 1)
//
// Built for GOOS=wasip1 with -buildmode=c-shared (a reactor; the host calls
// _initialize once, which runs package init and so the Register call), the
// package exports:
//
//	lola_abi_version() -> i32         schema.ABIVersion
//	lola_alloc(size i32) -> ptr       a request buffer, kept alive until lola_run returns
//	lola_run(ptr, len i32) -> i32     a Status; 0 is success
//	lola_plan_ptr() -> ptr            the plan of the last successful run
//	lola_plan_len() -> i32            its length; 0 only before a run or after a failed one
//
// The request buffer must be the one lola_alloc returned (len at most its
// size); lola_run refuses any other extent with StatusBadRequest. The plan
// buffer is owned by the module and stays valid until the instance is
// discarded (a later lola_run replaces it). On a non-zero status the error
// message goes to stderr (WASI fd 2), which the shim captures as
// diagnostics, and the plan length is 0. The module imports nothing but
// WASI preview 1.
//
// # Native (tier 2)
//
// Built for any other GOOS, Main reads the request from stdin, writes the
// plan to stdout, writes any error message to stderr and exits with the
// Status as its exit code.
//
// # Extism
//
// Built with -tags extism for wasip1, the same source exports Extism's
// conventional "run" instead of the Lola ABI: the request is the plugin
// input, the plan its output, and a failure is reported through the Extism
// error channel. That build imports extism:host/env and so cannot run under
// the Lola shim; keep it a separate artifact.
//
// # Helpers for assistant targets
//
// A target reads the module inventory the host sends (Module.Inventory)
// rather than parsing a module itself, and is only its assistant's
// mapping:
//
//   - assistant: plans a module's skills, commands, agents, instructions
//     and MCP servers from a Target describing where each goes;
//   - frontmatter: reads and writes Markdown frontmatter byte for byte as
//     today's Lola does (python-frontmatter and PyYAML);
//   - managed: lola's section of a shared Markdown file (CLAUDE.md, ...);
//   - jsonconfig: a user's JSON config (.mcp.json, ...) edited member by
//     member, the user's bytes kept.
package lola
