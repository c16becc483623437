/*
 * Tier 2 for AssemblyScript extensions: the tier-1 module translated to C by
 * wasm2c (`wasm2c ext.wasm -n lola -o lola.c`) and driven through the same
 * five exports the shim calls, over stdin and stdout. The plan bytes are the
 * module's own, so both tiers emit identical plans by construction.
 *
 * Exit status: lola_run's status (1 bad request, 2 handler error, 4 no
 * handler); 70 when the module traps (wasm2c's trap becomes a diagnostic,
 * and a trap after a refused memory.grow names the memory maximum); 71 on
 * an ABI version mismatch; 74 on an I/O error.
 *
 * build.sh compiles wasm2c's runtime with wasm_rt_grow_memory renamed to
 * lola_rt_grow_memory, so the module's memory.grow reaches the definition
 * here, which records a refusal: the memory report says what happened
 * rather than guessing it from how full memory was when the module died.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lola.h"
#include "wasm-rt-impl.h"

#define ABI_VERSION 1
#define WASI_EBADF 8
#define WASI_EFAULT 21

/* The module's one import, WASI's fd_write, for fds 1 and 2, both written
 * to stderr as the shim does in tier 1: the module never reaches the real
 * stdout, so a stray write to fd 1 lands in the diagnostics and cannot
 * corrupt the plan, which only main below writes. Tier 1 gets fd_write from
 * the shim, tier 2 from here; nothing else is offered. */
struct Z_wasi_snapshot_preview1_instance_t {
	Z_lola_instance_t *module;
};

u32 Z_wasi_snapshot_preview1Z_fd_write(struct Z_wasi_snapshot_preview1_instance_t *wasi,
                                       u32 fd, u32 iovs, u32 iovs_len, u32 written) {
	if (fd != 1 && fd != 2) return WASI_EBADF;
	wasm_rt_memory_t *mem = Z_lolaZ_memory(wasi->module);
	u64 total = 0;
	if ((u64)iovs + (u64)iovs_len * 8 > mem->size || (u64)written + 4 > mem->size) return WASI_EFAULT;
	for (u32 i = 0; i < iovs_len; i++) {
		u32 base, len;
		memcpy(&base, mem->data + iovs + i * 8, 4);
		memcpy(&len, mem->data + iovs + i * 8 + 4, 4);
		if ((u64)base + len > mem->size) return WASI_EFAULT;
		fwrite(mem->data + base, 1, len, stderr);
		total += len;
	}
	u32 n = (u32)total;
	memcpy(mem->data + written, &n, 4);
	return 0;
}

/* The largest memory, in pages, a memory.grow asked for and was refused
 * (0: none). An allocator whose growth is refused traps (AssemblyScript's
 * does, with unreachable), so the trap itself does not say why. */
static u64 refused_pages;

uint32_t lola_rt_grow_memory(wasm_rt_memory_t *memory, uint32_t delta);

uint32_t wasm_rt_grow_memory(wasm_rt_memory_t *memory, uint32_t delta) {
	u64 want = (u64)memory->pages + delta;
	uint32_t old = lola_rt_grow_memory(memory, delta);
	if (old == (uint32_t)-1 && want > refused_pages) refused_pages = want;
	return old;
}

static unsigned char *read_all(FILE *in, size_t *len) {
	size_t cap = 1 << 16, n = 0;
	unsigned char *buf = malloc(cap);
	if (buf == NULL) return NULL;
	for (;;) {
		size_t got = fread(buf + n, 1, cap - n, in);
		n += got;
		if (got == 0) break;
		if (n == cap) {
			unsigned char *bigger = realloc(buf, cap * 2);
			if (bigger == NULL) { free(buf); return NULL; }
			buf = bigger;
			cap *= 2;
		}
	}
	if (ferror(in)) { free(buf); return NULL; }
	*len = n;
	return buf;
}

int main(void) {
	size_t len = 0;
	unsigned char *req = read_all(stdin, &len);
	if (req == NULL || len > 0x7fffffff) {
		fputs("reading the request failed\n", stderr);
		return 74;
	}
	wasm_rt_init();
	Z_lola_init_module();
	Z_lola_instance_t inst;
	struct Z_wasi_snapshot_preview1_instance_t wasi = {&inst};
	Z_lola_instantiate(&inst, &wasi);

	wasm_rt_trap_t trap = wasm_rt_impl_try();
	if (trap != WASM_RT_TRAP_NONE) {
		fprintf(stderr, "module trapped: %s\n", wasm_rt_strerror(trap));
		if (refused_pages > 0) {
			/* A memory without a maximum is bounded by wasm32's 65536. */
			u64 max = Z_lolaZ_memory(&inst)->max_pages;
			if (max > 65536) max = 65536;
			fprintf(stderr, "lola: memory exhausted: the module asked to grow its memory to %llu pages, "
			        "over its maximum of %llu pages (%llu MiB), and then trapped\n",
			        (unsigned long long)refused_pages, (unsigned long long)max, (unsigned long long)(max / 16));
		}
		return 70;
	}
	Z_lolaZ__initialize(&inst);
	u32 abi = Z_lolaZ_lola_abi_version(&inst);
	if (abi != ABI_VERSION) {
		fprintf(stderr, "abi-version-mismatch: module %u, host %d\n", abi, ABI_VERSION);
		return 71;
	}
	u32 ptr = Z_lolaZ_lola_alloc(&inst, (u32)len);
	wasm_rt_memory_t *mem = Z_lolaZ_memory(&inst);
	if ((u64)ptr + len > mem->size) {
		fputs("lola_alloc returned a buffer outside memory\n", stderr);
		return 70;
	}
	memcpy(mem->data + ptr, req, len);
	free(req);
	u32 status = Z_lolaZ_lola_run(&inst, ptr, (u32)len);
	if (status != 0) return (int)status;
	u32 pptr = Z_lolaZ_lola_plan_ptr(&inst);
	u32 plen = Z_lolaZ_lola_plan_len(&inst);
	mem = Z_lolaZ_memory(&inst);
	if ((u64)pptr + plen > mem->size) {
		fputs("plan-out-of-bounds\n", stderr);
		return 70;
	}
	if (plen == 0) {
		fputs("{\"protocol\":1,\"intents\":[]}", stdout);
	} else if (fwrite(mem->data + pptr, 1, plen, stdout) != plen) {
		return 74;
	}
	if (fflush(stdout) != 0) return 74;
	Z_lola_free(&inst);
	wasm_rt_free();
	return 0;
}
