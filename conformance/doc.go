// Package conformance holds the cross-SDK tests: every SDK's fixture
// extension, built for both tiers, run on every request vector in
// schema/vectors/requests, must emit plans that validate against
// schema/plan.schema.json and equal the vectors' expected plans, and its two
// tiers must emit byte-identical plans (promotion is a recompile).
//
// The tests build the fixtures with the toolchains `make setup` installs
// (Debian's rustc for wasm32-wasi, rustup's cargo for native, asc and wabt for
// AssemblyScript) and skip a language, naming the missing tool, only when
// LOLA_CONFORMANCE_ALLOW_SKIP=1; otherwise a missing toolchain fails, because
// under `make test` it means setup is broken.
package conformance
