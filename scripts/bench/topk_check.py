"""Independent check of `topk` (issue 48), driven by scripts/bench/topk-check: topk's output against a brute-force
top-K computed here with numpy from the same rows, and its --truth metrics against the same metrics computed here
from the written output.

  topk_check.py WORKDIR TOPK_CMD... -- DUMP_CMD... [-- YARN_TOPK_CMD... -- FS_CMD...]

WORKDIR holds a directory per KIND, each with an embeddings table emb/ (ids 0..N-1) and the same rows in c.npy:
  int:       random integers in -3..3 (scripts/bench/topk-tables.java generate), so every score is exact in float32
             and ties are many, which checks the tie rule exactly;
  gauss:     random N(0,1) (the same), scores compared to rounding;
  cora-link: Cora's embeddings from a trained link-prediction model (`infer` on the model `train --task link`
             wrote), scores compared to rounding; its --exclude is the training edges (pairs/train, the edges table
             `train --link-pairs` wrote, with its pairs dumped to train.tsv) and its --truth the held-out test edges
             (pairs/test, test.tsv), as a user runs it.
A kind whose directory is missing is skipped. TOPK_CMD runs `yarn-gnn topk --local` (this script adds the options),
DUMP_CMD dumps outputs as TSV with parquet-mr's reader (topk-tables.java dump). With YARN_TOPK_CMD (yarn-gnn with
HADOOP_CONF_DIR on its classpath) and FS_CMD (Hadoop's FsShell, the same), a few cora-link cases also run on the
cluster: the tables are copied to HDFS, topk runs without --local, and its output and metrics are copied back and
compared the same way. Prints PASS or FAIL per case and exits 1 on any FAIL.
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


def read_pairs(tsv):
    return {(int(a), int(b)) for a, b in np.loadtxt(tsv, dtype=np.int64, ndmin=2)}


def prepare_link(d, n, rng):
    """The training edges as --exclude and the held-out test edges as --truth (what train --link-pairs wrote),
    random --queries/--candidates subsets."""
    exclude = read_pairs(os.path.join(d, "train.tsv"))
    truth = read_pairs(os.path.join(d, "test.tsv"))
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


CASES = ((1, 1, False, True, False), (10, 1, False, True, False), (100, 1, False, True, False),
         (10, 3, False, True, False), (10, 1, True, True, False), (100, 3, True, True, False),
         (K_TRUTH, 1, False, True, True), (K_TRUTH, 3, True, False, True))
# On YARN (kind cora-link): K = 1, 10 and 100, --exclude and the subsets, 1 and 3 workers, and the truth metrics.
YARN_CASES = ((1, 3, False, True, False), (10, 1, False, True, False), (10, 3, True, True, False),
              (100, 3, True, True, False), (100, 1, True, True, False), (K_TRUTH, 3, False, True, True))
HDFS_BASE = "/topk-check"


def run(cmd, name):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        print(f"FAIL {name}: exited {r.returncode}: {r.stdout[-800:]} {r.stderr[-800:]}", flush=True)
    return r.returncode == 0


def main(argv):
    work = argv[1]
    parts = [[]]
    for a in argv[2:]:
        if a == "--":
            parts.append([])
        else:
            parts[-1].append(a)
    topk_cmd, dump_cmd = parts[0], parts[1]
    yarn_cmd, fs_cmd = (parts[2], parts[3]) if len(parts) == 4 else (None, None)
    rng = np.random.default_rng(48)
    cases = []
    runs = []
    for kind in ("int", "gauss", "cora-link"):
        d = os.path.join(work, kind)
        if not os.path.exists(os.path.join(d, "c.npy")):
            continue
        c64 = np.load(os.path.join(d, "c.npy")).astype(np.float64)
        n = c64.shape[0]
        if kind == "cora-link":
            exclude, truth, qsub, csub = prepare_link(d, n, rng)
            ex_table, truth_table = os.path.join(d, "pairs", "train"), os.path.join(d, "pairs", "test")
        else:
            exclude, truth, qsub, csub = prepare(d, c64, rng)
            ex_table, truth_table = os.path.join(d, "exclude.tsv"), os.path.join(d, "truth.tsv")
        everyone = np.arange(n)
        plans = [(False, c) for c in CASES]
        if kind == "cora-link" and yarn_cmd:
            plans += [(True, c) for c in YARN_CASES]
            hdfs = f"{HDFS_BASE}/{kind}"
            ok = (run(fs_cmd + ["-mkdir", "-p", hdfs], "hdfs mkdir")
                  and run(fs_cmd + ["-put", "-f", os.path.join(d, "emb"), os.path.join(d, "pairs"),
                                    os.path.join(d, "queries.txt"), os.path.join(d, "candidates.txt"), hdfs],
                          "copy the tables to HDFS"))
            if not ok:
                cases.append(False)
                plans = [p for p in plans if not p[0]]
        yarn_outs = []
        for on_yarn, (k, workers, subsets, ex, tr) in plans:
            name = (("yarn " if on_yarn else "") + f"{kind} k={k} workers={workers}"
                    + (" --queries/--candidates" if subsets else "")
                    + (" --exclude" if ex else "") + (" --truth" if tr else ""))
            tag = f"out-k{k}-w{workers}-s{int(subsets)}-e{int(ex)}-t{int(tr)}"
            if on_yarn:
                # Inputs and output on HDFS; the output and metrics come back to d/yarn/ after the last job.
                at = lambda p: f"{hdfs}/{os.path.relpath(p, d)}"
                out = os.path.join(d, "yarn", tag)
                cmd = yarn_cmd + ["topk", "--workers", str(workers), "--worker-memory", "512",
                                  "--embeddings", at(os.path.join(d, "emb")), "--k", str(k),
                                  "--output", f"{hdfs}/{tag}", "--overwrite", "--metrics", f"{hdfs}/{tag}.json",
                                  "--candidate-block", "512"]
            else:
                at = lambda p: p
                out = os.path.join(d, tag)
                cmd = topk_cmd + ["topk", "--local", "--workers", str(workers), "--embeddings",
                                  os.path.join(d, "emb"), "--k", str(k), "--output", out, "--overwrite",
                                  "--metrics", out + ".json", "--candidate-block", "512"]
            if subsets:
                cmd += ["--queries", at(os.path.join(d, "queries.txt")),
                        "--candidates", at(os.path.join(d, "candidates.txt"))]
            if ex:
                cmd += ["--exclude", at(ex_table)]
            if tr:
                cmd += ["--truth", at(truth_table)]
            if not run(cmd, name + ": topk"):
                cases.append(False)
                continue
            if on_yarn:
                yarn_outs += [f"{hdfs}/{tag}", f"{hdfs}/{tag}.json"]
            cases.append((name, kind, c64, out, qsub if subsets else everyone, csub if subsets else everyone,
                          exclude if ex else set(), truth if tr else None, k))
        if yarn_outs:
            os.makedirs(os.path.join(d, "yarn"), exist_ok=True)
            if not run(fs_cmd + ["-copyToLocal"] + yarn_outs + [os.path.join(d, "yarn")],
                       "copy the outputs from HDFS"):
                cases = [c for c in cases if not (c and c[0].startswith("yarn "))] + [False]
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
