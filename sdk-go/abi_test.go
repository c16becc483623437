package lola_test

import (
	"bytes"
	"strings"
	"testing"
)

const uninstallTwo = `{"protocol":1,"operation":"uninstall","modules":[{"name":"a","files":[]},{"name":"b","files":[]}]}`

// TestABIMemoryOwnership checks the ABI's buffer contract in a real reactor:
// a run refuses a request extent that is not the allocated buffer, the plan
// buffer survives later allocations and garbage collection until the next
// run, a failed run leaves no plan, and one instance serves repeated runs.
func TestABIMemoryOwnership(t *testing.T) {
	_, wasm := buildFixture(t)
	d := newABIDriver(t, mustRead(t, wasm))
	in := d.instantiate(t)

	plan, status, err := in.run([]byte(uninstallTwo))
	if err != nil || status != 0 {
		t.Fatalf("run: status %d err %v stderr %s", status, err, in.stderr)
	}
	ptr, _ := in.call("lola_plan_ptr")
	// Churn the guest heap: many large allocations force collections.
	for i := 0; i < 64; i++ {
		if _, err := in.call("lola_alloc", 1<<20); err != nil {
			t.Fatal(err)
		}
	}
	again, err := in.planBytes()
	if err != nil || !bytes.Equal(again, plan) {
		t.Fatalf("plan buffer changed before the next run: %s vs %s (%v)", again, plan, err)
	}
	if p2, _ := in.call("lola_plan_ptr"); p2 != ptr {
		t.Fatalf("plan pointer moved from %d to %d", ptr, p2)
	}

	// A request extent that is not the allocated buffer is refused.
	bufPtr, _ := in.call("lola_alloc", 64)
	if st, _ := in.call("lola_run", bufPtr+8, 16); int32(st) != 1 {
		t.Fatalf("offset request pointer: status %d, want 1", int32(st))
	}
	if n, _ := in.call("lola_plan_len"); n != 0 {
		t.Fatalf("a failed run left a plan of %d bytes", n)
	}
	bufPtr, _ = in.call("lola_alloc", 16)
	if st, _ := in.call("lola_run", bufPtr, 17); int32(st) != 1 {
		t.Fatalf("request longer than its buffer: status %d, want 1", int32(st))
	}
	// The buffer is valid for one call only: a second run without lola_alloc fails.
	_, status, _ = in.run([]byte(uninstallTwo))
	if status != 0 {
		t.Fatalf("rerun: %d", status)
	}
	p, _ := in.call("lola_plan_ptr")
	if st, _ := in.call("lola_run", p, 10); int32(st) != 1 {
		t.Fatalf("run without a fresh lola_alloc: status %d, want 1", int32(st))
	}
	if !strings.Contains(in.stderr.String(), "lola_alloc") {
		t.Fatalf("stderr %q does not explain the refusal", in.stderr)
	}
	// Negative and zero sizes allocate nothing.
	for _, size := range []uint64{0, uint64(uint32(0xffffffff))} {
		if p, _ := in.call("lola_alloc", size); p != 0 {
			t.Fatalf("lola_alloc(%d) = %d, want 0", int32(size), p)
		}
	}
	// The instance still works after all of that.
	again, status, err = in.run([]byte(uninstallTwo))
	if err != nil || status != 0 || !bytes.Equal(again, plan) {
		t.Fatalf("after misuse: status %d err %v plan %s", status, err, again)
	}
}

// The native and wasm builds carry nothing but the SDK, schema and the
// standard library: no test dependency leaks into a guest.
func TestGuestLinksNoTestDependencies(t *testing.T) {
	native, wasm := buildFixture(t)
	for _, bin := range []string{native} {
		out, err := goVersionM(bin)
		if err != nil {
			t.Fatal(err)
		}
		for _, bad := range []string{"wazero", "jsonschema", "go-pdk"} {
			if strings.Contains(out, bad) {
				t.Fatalf("%s links %s:\n%s", bin, bad, out)
			}
		}
	}
	b := mustRead(t, wasm)
	if !bytes.Contains(b, []byte("lola-pm/lola/sdk-go")) {
		t.Fatal("the check below is vacuous: the module carries no package paths")
	}
	for _, bad := range []string{"tetratelabs", "santhosh-tekuri", "extism"} {
		if bytes.Contains(b, []byte(bad)) {
			t.Fatalf("the Lola wasm build carries %s", bad)
		}
	}
}
