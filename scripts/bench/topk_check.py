"""Independent check of `topk` (issue 48), driven by scripts/bench/topk-check: topk's output against a brute-force
top-K computed here with numpy from the same rows, and its --truth metrics against the same metrics computed here
from the written output.

  topk_check.py WORKDIR TOPK_CMD... -- DUMP_CMD...

WORKDIR holds, per KIND (int: integers in -3..3, so every score is exact in float32 and ties are many, which
checks the tie rule exactly; gauss: N(0,1), scores compared to rounding), a Cora-sized embeddings table written
by scripts/bench/topk-tables.java (ids 0..N-1, rows in c.npy). TOPK_CMD runs `yarn-gnn topk` (this script adds
the options), DUMP_CMD dumps outputs as TSV with parquet-mr's reader (topk-tables.java dump). Prints PASS or FAIL
per case and exits 1 on any FAIL.
"""
import json
import math
import os
import subprocess
import sys

import numpy as np

K_TRUTH = 20


def write_pairs(path, pairs):
    with open(path, "w") as f:
        f.write("# src dst\n")
        for a, b in pairs:
            f.write(f"{a}\t{b}\n")


def write_ids(path, ids):
    with open(path, "w") as f:
        f.writelines(f"{i}\n" for i in ids)


def ranked(scores, ids, k):
    """ids by score descending, ties by the smaller id; the first k."""
    order = np.lexsort((ids, -scores))
    return ids[order[:k]], scores[order[:k]]


def prepare(d, c64, rng):
    """--exclude and --truth pairs and --queries/--candidates subsets, some of them hitting the top of the lists."""
    n = c64.shape[0]
    s = c64 @ c64.T
    np.fill_diagonal(s, -np.inf)
    top = np.argsort(-s, axis=1, kind="stable")[:, :40]
    exclude = {(int(a), int(b)) for a, b in rng.integers(0, n, size=(4 * n, 2))}
    exclude |= {(q, int(top[q, r])) for q in range(0, n, 5) for r in range(3)}  # each 5th query loses its top 3
    truth = {(int(a), int(b)) for a, b in rng.integers(0, n, size=(n // 2, 2))}
    truth |= {(q, int(top[q, r])) for q in range(0, n, 3) for r in (4, 12, 30)}
    write_pairs(os.path.join(d, "exclude.tsv"), sorted(exclude))
    write_pairs(os.path.join(d, "truth.tsv"), sorted(truth))
    queries = np.sort(rng.choice(n, size=n // 2, replace=False))
    candidates = np.sort(rng.choice(n, size=(3 * n) // 5, replace=False))
    write_ids(os.path.join(d, "queries.txt"), queries)
    write_ids(os.path.join(d, "candidates.txt"), candidates)
    return exclude, truth, queries, candidates


def read_output(tsv):
    lists = {}
    scores = {}
    if os.path.getsize(tsv) == 0:
        return lists, scores
    for qid, rank, cid, score in np.loadtxt(tsv, dtype=np.float64, ndmin=2):
        lists.setdefault(int(qid), {})[int(rank)] = int(cid)
        scores[(int(qid), int(cid))] = score
    return {q: [r[i] for i in sorted(r)] for q, r in lists.items()}, scores


def expected(c64, queries, candidates, excluded, k):
    out = {}
    cand = np.asarray(candidates)
    ex_of = {}
    for a, b in excluded:
        ex_of.setdefault(a, []).append(b)
    for q in queries:
        keep = (cand != q) & ~np.isin(cand, ex_of.get(int(q), []))
        ids = cand[keep]
        out[int(q)] = ranked(c64[ids] @ c64[q], ids, k)
    return out


def compare(kind, c64, got, got_scores, exp):
    """None when topk's lists equal numpy's (gauss: up to ties within rounding), else the first difference."""
    exact = kind == "int"
    if sorted(got) != sorted(q for q in exp if len(exp[q][0]) > 0):
        return f"queries written {len(got)}, expected {sum(len(e[0]) > 0 for e in exp.values())}"
    for q, (ids, s) in exp.items():
        mine = np.array(got.get(q, []), dtype=np.int64)
        if len(mine) != len(ids):
            return f"query {q}: {len(mine)} ranks, expected {len(ids)}"
        mine_s = c64[mine] @ c64[q]
        written = np.array([got_scores[(q, int(c))] for c in mine])
        tol = 0.0 if exact else 1e-5 * np.maximum(1.0, np.abs(s))
        if np.any(np.abs(written - mine_s) > tol):
            return f"query {q}: written scores {written[:3]} != {mine_s[:3]}"
        same = mine == ids
        if not np.all(same | (np.abs(mine_s - s) <= tol)):
            r = int(np.flatnonzero(~same)[0])
            return f"query {q} rank {r + 1}: topk {mine[r]} ({mine_s[r]}), numpy {ids[r]} ({s[r]})"
    return None


def metrics_from_output(got, queries, truth, k):
    true_of = {}
    for a, b in truth:
        true_of.setdefault(a, set()).add(b)
    qs = [int(q) for q in queries if int(q) in true_of]
    recall = ndcg = hit = mrr = 0.0
    for q in qs:
        t = true_of[q]
        lst = got.get(q, [])[:k]
        rel = [i for i, c in enumerate(lst) if c in t]
        dcg = sum(1 / math.log2(i + 2) for i in rel)
        ideal = sum(1 / math.log2(i + 2) for i in range(min(len(t), k)))
        recall += len(rel) / len(t)
        ndcg += dcg / ideal
        hit += 1.0 if rel else 0.0
        mrr += 1.0 / (rel[0] + 1) if rel else 0.0
    n = max(1, len(qs))
    return {f"recall@{k}": recall / n, f"ndcg@{k}": ndcg / n, f"hit_rate@{k}": hit / n, "mrr": mrr / n,
            "queries_with_truth": float(len(qs))}


def main(argv):
    work = argv[1]
    sep = argv.index("--")
    topk_cmd, dump_cmd = argv[2:sep], argv[sep + 1:]
    rng = np.random.default_rng(48)
    cases = []
    for kind in ("int", "gauss"):
        d = os.path.join(work, kind)
        c64 = np.load(os.path.join(d, "c.npy")).astype(np.float64)
        n = c64.shape[0]
        exclude, truth, qsub, csub = prepare(d, c64, rng)
        everyone = np.arange(n)
        for k, workers, subsets, ex, tr in ((1, 1, False, True, False), (10, 1, False, True, False),
                                            (100, 1, False, True, False), (10, 3, False, True, False),
                                            (10, 1, True, True, False), (100, 3, True, True, False),
                                            (K_TRUTH, 1, False, True, True), (K_TRUTH, 3, True, False, True)):
            name = (f"{kind} k={k} workers={workers}" + (" --queries/--candidates" if subsets else "")
                    + (" --exclude" if ex else "") + (" --truth" if tr else ""))
            out = os.path.join(d, f"out-k{k}-w{workers}-s{int(subsets)}-e{int(ex)}-t{int(tr)}")
            cmd = topk_cmd + ["topk", "--local", "--workers", str(workers), "--embeddings", os.path.join(d, "emb"),
                              "--k", str(k), "--output", out, "--overwrite", "--metrics", out + ".json",
                              "--candidate-block", "512"]
            if subsets:
                cmd += ["--queries", os.path.join(d, "queries.txt"), "--candidates", os.path.join(d, "candidates.txt")]
            if ex:
                cmd += ["--exclude", os.path.join(d, "exclude.tsv")]
            if tr:
                cmd += ["--truth", os.path.join(d, "truth.tsv")]
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                print(f"FAIL {name}: topk exited {r.returncode}: {r.stdout[-500:]} {r.stderr[-500:]}")
                cases.append(False)
                continue
            cases.append((name, kind, c64, out, qsub if subsets else everyone, csub if subsets else everyone,
                          exclude if ex else set(), truth if tr else None, k))
    runs = [c for c in cases if c]
    subprocess.run(dump_cmd + [x for c in runs for x in (c[3], c[3] + ".tsv")], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    ok = all(cases)
    passed = 0
    for name, kind, c64, out, qs, cs, ex, tr, k in runs:
        got, got_scores = read_output(out + ".tsv")
        why = compare(kind, c64, got, got_scores, expected(c64, qs, cs, ex, k))
        detail = f"{sum(len(v) for v in got.values())} rows for {len(got)} queries equal numpy's top {k}"
        if why is None and tr is not None:
            theirs = json.load(open(out + ".json"))["retrieval"]
            mine = metrics_from_output(got, qs, tr, k)
            diff = {m: (theirs.get(m), v) for m, v in mine.items() if abs(theirs.get(m, math.nan) - v) > 1e-9}
            if diff:
                why = f"metrics differ (topk, numpy): {diff}"
            else:
                detail += "; " + ", ".join(f"{m} {v:.6f}" for m, v in mine.items() if m != "queries_with_truth") \
                    + f" over {int(mine['queries_with_truth'])} queries equal topk's"
        print(("PASS " if why is None else "FAIL ") + name + ": " + (detail if why is None else why))
        ok &= why is None
        passed += why is None
    print(f"{passed} of {len(cases)} cases PASS" + ("" if ok else ": FAIL"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
