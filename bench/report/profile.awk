# SPDX-License-Identifier: GPL-2.0
# bench-report: where a traced chunk's instructions go (ipat.bench_trace,
# bench/ftrace-profile.awk), the smallest N against the largest: the
# functions whose calls per operation moved most.

function rec_ftrace() {
	tr_k = F["fs"] SUBSEP F["layout"] SUBSEP F["phase"]
	if (!(tr_k in TRACED)) { TRACED[tr_k] = 1; traced[++ntraced] = tr_k }
	if (!((tr_k SUBSEP F["n"]) in TRACED_N)) { TRACED_N[tr_k SUBSEP F["n"]] = 1; add(TRNS, tr_k, F["n"]) }
	TROPS[tr_k SUBSEP F["n"]] = F["ops"]
	TRPER[tr_k] = F["per"]
	TRCALLS[tr_k SUBSEP F["n"] SUBSEP F["fn"]] = F["calls"]
	TRSELF[tr_k SUBSEP F["n"] SUBSEP F["fn"]] = F["self"]
	TRTOTAL[tr_k SUBSEP F["n"]] += F["self"]
	if (!((tr_k SUBSEP F["fn"]) in TRFN)) { TRFN[tr_k SUBSEP F["fn"]] = 1; add(TRFNS, tr_k, F["fn"]) }
}

# Per operation at size n: what function fn ran itself, or its calls.
function tr_self(tk, n, fn) { return TROPS[tk SUBSEP n] ? TRSELF[tk SUBSEP n SUBSEP fn] / TROPS[tk SUBSEP n] : 0 }
function tr_calls(tk, n, fn) { return TROPS[tk SUBSEP n] ? TRCALLS[tk SUBSEP n SUBSEP fn] / TROPS[tk SUBSEP n] : 0 }

END {
	if (ntraced)
		print "\n## Where the traced chunk's instructions go\n\nThe middle chunk of one phase ran under ftrace's function_graph (`ipat.bench_trace`, bench/ftrace-profile.awk); for each function, its calls and the instructions it ran itself, callees out, per operation, at the smallest and the largest N: all of them together, then the twelve functions whose calls per operation moved most. Calls are exact; *self* also counts the tracer's own instructions for each traced call (~1,400 on 6.12), which move from function to function by some hundreds, so a *self* that moves with its calls the same is noise. The chunk's figures in the tables above include the tracer's cost." > M
	for (tr_t = 1; tr_t <= ntraced; tr_t++) {
		tr_k = traced[tr_t]
		split(tr_k, tr_part, SUBSEP)
		tr_nn = sortv(TRNS[tr_k], tr_ns)
		tr_lo = tr_ns[1]; tr_hi = tr_ns[tr_nn]
		printf "\n%s, %s, %s (per `%s`; %s operations traced at N = %s, %s at N = %s):\n\n", tr_part[1], tr_part[2], tr_part[3], TRPER[tr_k], TROPS[tr_k SUBSEP tr_lo], nfmt(tr_lo), TROPS[tr_k SUBSEP tr_hi], nfmt(tr_hi) > M
		printf "| function | calls, N = %s | calls, N = %s | difference | self, N = %s | self, N = %s |\n", nfmt(tr_lo), nfmt(tr_hi), nfmt(tr_lo), nfmt(tr_hi) > M
		print "|---|---:|---:|---:|---:|---:|" > M
		printf "| (all) | | | | %.0f | %.0f |\n", TRTOTAL[tr_k SUBSEP tr_lo] / TROPS[tr_k SUBSEP tr_lo], TRTOTAL[tr_k SUBSEP tr_hi] / TROPS[tr_k SUBSEP tr_hi] > M
		# The twelve functions whose calls per operation moved most: the
		# tracer's cost moves self by more than a few hundred instructions
		# from function to function, calls not at all.
		tr_nf = split(TRFNS[tr_k], tr_fns, " ")
		for (tr_i = 1; tr_i <= tr_nf; tr_i++) {
			tr_d[tr_i] = tr_calls(tr_k, tr_hi, tr_fns[tr_i]) - tr_calls(tr_k, tr_lo, tr_fns[tr_i])
			tr_used[tr_i] = 0
		}
		for (tr_r = 1; tr_r <= 12 && tr_r <= tr_nf; tr_r++) {
			tr_best = 0
			for (tr_i = 1; tr_i <= tr_nf; tr_i++)
				if (!tr_used[tr_i] && (!tr_best || (tr_d[tr_i] < 0 ? -tr_d[tr_i] : tr_d[tr_i]) > (tr_d[tr_best] < 0 ? -tr_d[tr_best] : tr_d[tr_best])))
					tr_best = tr_i
			tr_used[tr_best] = 1
			tr_fn = tr_fns[tr_best]
			printf "| `%s` | %.3f | %.3f | %+.3f | %.0f | %.0f |\n", tr_fn, tr_calls(tr_k, tr_lo, tr_fn), tr_calls(tr_k, tr_hi, tr_fn), tr_d[tr_best], tr_self(tr_k, tr_lo, tr_fn), tr_self(tr_k, tr_hi, tr_fn) > M
		}
	}
}
