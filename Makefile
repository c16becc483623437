# Lola extension platform. `make test` and `make demo` each run `setup` first,
# so a fresh machine needs nothing but this file's prerequisites.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
GO ?= go
GO_MODULES := schema host sdk-go sdk-go/lolatest cmd conformance examples/go-claude-code examples/go-opencode examples/go-copilot-cli examples/go-copilot-vscode examples/go-openclaw
# Windows and macOS once each, on their most common architecture (no file of
# ours is specific to an architecture there, so a second one checks nothing
# more and costs minutes of make test), and Linux on arm64, whose seccomp
# filter is a file of its own.
CROSS := windows/amd64 darwin/arm64 linux/arm64
# The modules cross builds: the examples/go-* targets are small guests on
# sdk-go, which is cross-built, and hold nothing platform-specific.
CROSS_MODULES := schema host sdk-go sdk-go/lolatest cmd conformance
FUZZTIME ?= 25000x
BIN := bin

.PHONY: all setup build dist distcheck test unit embedded vet rust interop cross fuzz bench demo lint clean

all: build

## setup: install every toolchain and package the build needs (idempotent).
setup:
	@./scripts/setup.sh

## build: the lola binary, its tier-1 shim (lola-shim, run by lola from
## beside itself; lola falls back to re-executing itself without it), its
## signature verifier (lola-sigstore, run from beside lola to verify an
## extension's bundle; without it no bundle verifies), and
## every example extension, both tiers, and the three guest SDKs shipped
## beside it in bin/sdk/ (what `lola ext new` scaffolds against).
## Both binaries are static (CGO_ENABLED=0): no dynamic loader or libc to
## map at every start, which a tier-1 run pays twice (lola, then the shim).
## Go's own DNS resolver and os/user replace libc's; the tier-1 confinement
## (Landlock on every thread, seccomp with TSYNC) needs no cgo.
build: setup
	@mkdir -p $(BIN)
	cd cmd && CGO_ENABLED=0 $(GO) build -trimpath -o ../$(BIN)/lola ./lola
	cd cmd && CGO_ENABLED=0 $(GO) build -trimpath -o ../$(BIN)/lola-shim ./lola-shim
	cd cmd && CGO_ENABLED=0 $(GO) build -trimpath -o ../$(BIN)/lola-sigstore ./lola-sigstore
	@./scripts/build-examples.sh $(BIN)/lola
	@# Again, with the built-ins just built embedded (a no-op link when unchanged).
	cd cmd && CGO_ENABLED=0 $(GO) build -trimpath -o ../$(BIN)/lola ./lola
	@./scripts/ship-sdks.sh $(BIN)

## dist: release archives for linux/amd64, linux/arm64, darwin/arm64 and
## windows/amd64 in dist/, with SHA256SUMS and a CycloneDX SBOM of each
## binary inside each archive (scripts/dist.sh; VERSION=x.y.z to stamp one).
dist: build
	@./scripts/dist.sh dist

## distcheck: make dist of this machine's linux archive (DISTCHECK_ALL=1: all
## four) into a scratch directory; the archive
## unpacked alone into an empty directory installs a module with
## every built-in in a fresh HOME (scripts/distcheck.sh).
distcheck: build
	@./scripts/distcheck.sh

## test: vet, unit and integration tests, cross-compilation, a short fuzz run.
test: setup lint vet unit embedded rust interop cross distcheck fuzz
	@echo "make test: all checks passed"

## rust: the Rust SDK's and the Rust examples' own tests (Debian's toolchain,
## the one that builds their tier 1), including the host-vector agreement test.
rust:
	@for d in sdk-rust examples/cursor examples/claude-code examples/opencode examples/copilot-cli examples/copilot-vscode examples/openclaw; do echo "== cargo test $$d"; \
	  (cd $$d && RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc /usr/bin/cargo test -q --locked --lib --tests) || exit 1; done

## interop: the Go SDK's extism build under Extism's own host (its own
## module, outside go.work, because Extism's go-sdk pins an older wazero).
interop:
	@echo "== go test interop/extism"
	cd interop/extism && GOWORK=off $(GO) test -count=1 ./...

## embedded: the built-ins embedded in lola (cmd/lola/builtins/) are what
## this build produced from source: make build regenerates them, and a
## committed copy that differs (or a file left out of git) fails here.
embedded: build
	@if git rev-parse --git-dir >/dev/null 2>&1; then \
	  if [ -n "$$(git status --porcelain -- cmd/lola/builtins)" ]; then \
	    echo "embedded: cmd/lola/builtins/ differs from what make build produced from source; commit the rebuilt copy:" >&2; \
	    git status --short -- cmd/lola/builtins >&2; exit 1; fi; \
	  echo "embedded: cmd/lola/builtins/ is reproduced from source"; \
	else echo "embedded: not a git checkout; the reproduction check needs one"; fi

vet:
	@for m in $(GO_MODULES); do echo "== go vet $$m"; (cd $$m && $(GO) vet ./...); done

unit: build
	@for m in $(GO_MODULES); do echo "== go test $$m"; (cd $$m && $(GO) test -count=1 -timeout 15m ./...); done
	@echo "== go test host/shim confinement, built as bin/ ships it (CGO_ENABLED=0)"
	cd host && CGO_ENABLED=0 $(GO) test -count=1 -run 'Confinement|Landlock|Probe' ./shim/

## cross: every Go module but the examples (tests included) type-checks and builds for Windows, macOS and Linux on arm64.
cross:
	@out=$$(mktemp -d); trap 'rm -rf "$$out"' EXIT; \
	for t in $(CROSS); do os=$${t%/*}; arch=$${t#*/}; \
	  for m in $(CROSS_MODULES); do echo "== $$os/$$arch $$m"; \
	    (cd $$m && export GOOS=$$os GOARCH=$$arch && \
	      if [ -n "$$($(GO) list -f '{{if eq .Name "main"}}x{{end}}' ./...)" ]; then $(GO) build -o "$$out/" ./...; else $(GO) build ./...; fi && \
	      $(GO) vet ./...) || exit 1; \
	  done; done

fuzz:
	@./scripts/fuzz.sh $(FUZZTIME)

## bench: Go benchmarks, then the side-by-side ratio harness.
bench: build
	@./scripts/bench.sh

## demo: the main job end to end.
demo: build
	@./scripts/demo.sh

## lint: every Go file is gofmt-formatted.
lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

clean:
	rm -rf $(BIN)
