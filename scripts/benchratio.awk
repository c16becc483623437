# Reads `go test -bench` output and prints the ratios the performance
# targets are stated in. A pair whose benchmarks did not run prints "n/a".
function base(name) { sub(/-[0-9]+$/, "", name); return name }
/^Benchmark/ {
	for (i = 2; i < NF; i++) {
		if ($(i+1) == "ns/op") ns[base($1)] = $i + 0
		else if ($(i+1) ~ /^(median-ms|(lola|floor|tier1|tier2|apply|writefile)-(wall|cpu|user|sys)-ms|cpu-ms\/op|user-ms\/op|sys-ms\/op|audit-fsyncs\/plan|ms\/[a-z_+-]+)$/) metric[base($1) " " $(i+1)] = $i + 0
	}
}
function mratio(label, num, den, unit) {
	if (((num " " unit) in metric) && ((den " " unit) in metric) && metric[den " " unit] > 0)
		printf "  %-58s %10.2fx   (%s / %s %s)\n", label, metric[num " " unit] / metric[den " " unit], metric[num " " unit], metric[den " " unit], unit
	else
		printf "  %-58s %10s\n", label, "n/a"
}
# pratio: two metrics of one paired benchmark (medians of both sides
# measured alternately in one loop).
function pratio(label, name, num, den) {
	if (((name " " num) in metric) && ((name " " den) in metric) && metric[name " " den] > 0)
		printf "  %-58s %10.2fx   (%s / %s ms, medians of pairs)\n", label, metric[name " " num] / metric[name " " den], metric[name " " num], metric[name " " den]
	else
		printf "  %-58s %10s\n", label, "n/a"
}
function show(label, name, unit) {
	if ((name " " unit) in metric)
		printf "  %-58s %10s   (%s)\n", label, metric[name " " unit], unit
	else
		printf "  %-58s %10s\n", label, "n/a"
}
function ratio(label, num, den) {
	if ((num in ns) && (den in ns) && ns[den] > 0)
		printf "  %-58s %10.2fx   (%s / %s)\n", label, ns[num] / ns[den], fmtns(ns[num]), fmtns(ns[den])
	else
		printf "  %-58s %10s\n", label, "n/a"
}
function fmtns(v) {
	if (v >= 1e9) return sprintf("%.2fs", v / 1e9)
	if (v >= 1e6) return sprintf("%.2fms", v / 1e6)
	if (v >= 1e3) return sprintf("%.1fµs", v / 1e3)
	return sprintf("%dns", v)
}
END {
	pratio("durable atomic apply of 10k files vs WriteFile loop + syncfs", "BenchmarkApply10kFiles", "apply-wall-ms", "writefile-wall-ms")
	pratio("bin/lola plan apply, 10k files vs WriteFile+syncfs (<=2x)", "BenchmarkCLIApply10kFiles", "lola-wall-ms", "floor-wall-ms")
	pratio("  same, CPU time (user+sys) instead of wall time", "BenchmarkCLIApply10kFiles", "lola-cpu-ms", "floor-cpu-ms")
	pratio("  same, user CPU only", "BenchmarkCLIApply10kFiles", "lola-user-ms", "floor-user-ms")
	pratio("  same, kernel CPU only (ext4 inode allocation; noisy)", "BenchmarkCLIApply10kFiles", "lola-sys-ms", "floor-sys-ms")
	show("audit fsyncs per applied plan, 1 intent (<= 3 + hops)", "BenchmarkApplyAuditSyncs/intents=1", "audit-fsyncs/plan")
	show("audit fsyncs per applied plan, 1000 intents (<= 3 + hops)", "BenchmarkApplyAuditSyncs/intents=1000", "audit-fsyncs/plan")
	nt = split("claude-code copilot-cli copilot-vscode cursor gemini-cli openclaw opencode", bt, " ")
	for (x = 1; x <= nt; x++) {
		show("lola install 10 files, " bt[x] ", warm (py ~600ms; aim 60)", "BenchmarkCLIInstall10Files/" bt[x], "median-ms")
		show("  same, CPU time (user+sys, lola and its shim) per install", "BenchmarkCLIInstall10Files/" bt[x], "cpu-ms/op")
	}
	show("  same, bare lola process (--help), CPU time per run", "BenchmarkCLIInstallFloor/help", "cpu-ms/op")
	show("  same, the shim alone (claude-code module, cache warm), CPU", "BenchmarkCLIInstallFloor/shim", "cpu-ms/op")
	ratio("tier 1: cold compile vs cache hit, to first plan byte", "BenchmarkFirstPlanByte/cold", "BenchmarkFirstPlanByte/cache-hit")
	ratio("tier 1 warm run vs tier 2 run of the same source", "BenchmarkTiers/tier1-warm", "BenchmarkTiers/tier2")
	ratio("validate growth, 10k vs 1k intents (linear = 10x)", "BenchmarkValidate/bytes/10000", "BenchmarkValidate/bytes/1000")
	ratio("validate growth, 100k vs 10k intents (linear = 10x)", "BenchmarkValidate/bytes/100000", "BenchmarkValidate/bytes/10000")
	ratio("strict bounded decode vs encoding/json, 10k intents", "BenchmarkDecode10kIntents", "BenchmarkEncodingJSON10kIntents")
	ratio("lola ext run, Go fixture: tier 1 vs tier 2", "BenchmarkHostRun/go/tier1", "BenchmarkHostRun/go/tier2")
	ratio("lola ext run, Rust fixture: tier 1 vs tier 2", "BenchmarkHostRun/rust/tier1", "BenchmarkHostRun/rust/tier2")
	ratio("lola ext run, AssemblyScript fixture: tier 1 vs tier 2", "BenchmarkHostRun/assemblyscript/tier1", "BenchmarkHostRun/assemblyscript/tier2")
}

# Warm tier-1 start (issue 11.5): a whole warm `lola ext run` of the Go
# claude-code target against the in-process floor (cache-hit compile,
# instantiate, lola_run) plus one bare lola process; Rust and
# AssemblyScript targets against their own tier-2 builds. Targets: 1.5x.
END {
	t = "BenchmarkTier1Target/"
	if ((t "go-claude-code/ext-run" in ns) && (t "go-claude-code/floor" in ns) && (t "version" in ns)) {
		den = ns[t "go-claude-code/floor"] + ns[t "version"]
		printf "  %-58s %10.2fx   (%s / %s + %s)\n", "warm ext run, Go target vs floor + bare lola (<= 1.5x)",
			ns[t "go-claude-code/ext-run"] / den, fmtns(ns[t "go-claude-code/ext-run"]), fmtns(ns[t "go-claude-code/floor"]), fmtns(ns[t "version"])
	} else
		printf "  %-58s %10s\n", "warm ext run, Go target vs floor + bare lola (<= 1.5x)", "n/a"
	pratio("warm ext run, Rust target: tier 1 vs tier 2 (<= 1.5x)", t "rust-cursor", "tier1-wall-ms", "tier2-wall-ms")
	pratio("warm ext run, AssemblyScript target: tier 1 vs tier 2 (<= 1.5x)", t "as-gemini-cli", "tier1-wall-ms", "tier2-wall-ms")
	# Where a warm Go tier-1 run's wall time goes (the shim's own phases).
	n = split("process-start+exit read+hash prescan cache-lookup confine instantiate lola_run", ph, " ")
	nb = split("go-claude-code rust-claude-code rust-cursor as-gemini-cli", tg, " ")
	for (x = 1; x <= nb; x++) {
		w = "BenchmarkWarmTier1Breakdown/" tg[x]
		label = "warm tier-1 shim run, " tg[x] ", ms per phase"
		if ((w " ms/cache-lookup") in metric) {
			printf "  %-58s", label
			for (k = 1; k <= n; k++) printf " %s=%s", ph[k], metric[w " ms/" ph[k]]
			printf "\n"
		} else
			printf "  %-58s %10s\n", label, "n/a"
	}
}
