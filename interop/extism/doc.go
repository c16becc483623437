// Package extism proves that one Lola extension source also serves any
// Extism host: its test builds the shared fixture (sdk-go/internal/fixture)
// with -tags extism, runs it under Extism's Go host (go-sdk v1.7.1), and
// asserts the plan is byte-identical to the Lola native build's on every
// request vector.
//
// This is a module of its own, outside go.work, because go-sdk pins wazero
// v1.9.0 while the host uses v1.12.0; in one workspace minimal version
// selection would move go-sdk onto a wazero it was not built against. Run
// it with the workspace off:
//
//	cd interop/extism && GOWORK=off go test ./...
package extism
