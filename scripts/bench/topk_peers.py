"""The peers of scripts/bench/topk, on the .npy twins of the bench's embeddings (scripts/bench/topk-tables.java):
q.npy (query i is id i) and c.npy (candidate j is id Q + j).

  topk_peers.py faiss DIR K OUT.npz     faiss.IndexFlatIP (exact inner product): add the candidates, search
  topk_peers.py torch DIR K OUT.npz     blocked torch.topk(Q @ C.T): QBLOCK queries x CBLOCK candidates a product,
                                        each block's top K merged into the running top K (env QBLOCK, CBLOCK)
  topk_peers.py verify DIR OURS.tsv PEER.npz K SAMPLE [NAME]
                                        ours (topk's output dumped as TSV) against a peer, on SAMPLE queries

faiss and torch print one line `peer NAME load=S index=S search=S threads=N`: search is the timed search part
(GFLOP/s = 2 Q C D / search). verify prints `verify NAME: PASS|FAIL ...` and exits 1 on FAIL: at every rank the
ids are equal, or both ids' scores (exact, float64 from the same rows) are equal to rounding (a tie, which each
side may order differently); and our ranks are in order of score, ties by smaller id.

Run with /usr/bin/python3 (Debian's python3-faiss, python3-torch, python3-numpy).
"""
import os
import sys
import time

import numpy as np


def load(d):
    t0 = time.perf_counter()
    q = np.load(os.path.join(d, "q.npy"))
    c = np.load(os.path.join(d, "c.npy"))
    return q, c, time.perf_counter() - t0


def run_faiss(d, k, out):
    import faiss
    faiss.omp_set_num_threads(os.cpu_count())
    q, c, t_load = load(d)
    t0 = time.perf_counter()
    index = faiss.IndexFlatIP(c.shape[1])
    index.add(c)
    t1 = time.perf_counter()
    scores, ids = index.search(q, k)
    t2 = time.perf_counter()
    np.savez(out, ids=ids.astype(np.int64) + q.shape[0], scores=scores)
    print(f"peer faiss load={t_load:.3f} index={t1 - t0:.3f} search={t2 - t1:.3f} "
          f"threads={faiss.omp_get_max_threads()}")


def run_torch(d, k, out):
    import torch
    torch.set_num_threads(os.cpu_count())  # Debian's build starts with one thread
    q, c, t_load = load(d)
    qb = int(os.environ.get("QBLOCK", "4096"))
    cb = int(os.environ.get("CBLOCK", "65536"))
    t0 = time.perf_counter()
    tq = torch.from_numpy(q)
    tc = torch.from_numpy(c)
    t1 = time.perf_counter()
    all_s = torch.empty((q.shape[0], k), dtype=torch.float32)
    all_i = torch.empty((q.shape[0], k), dtype=torch.int64)
    with torch.no_grad():
        for q0 in range(0, q.shape[0], qb):
            qs = tq[q0:q0 + qb]
            best_s = best_i = None
            for c0 in range(0, c.shape[0], cb):
                s = qs @ tc[c0:c0 + cb].T
                ts, ti = torch.topk(s, min(k, s.shape[1]), dim=1)
                ti += c0
                if best_s is not None:
                    ts = torch.cat([best_s, ts], dim=1)
                    ti = torch.cat([best_i, ti], dim=1)
                    ts, at = torch.topk(ts, k, dim=1)
                    ti = torch.gather(ti, 1, at)
                best_s, best_i = ts, ti
            all_s[q0:q0 + qb] = best_s
            all_i[q0:q0 + qb] = best_i
    t2 = time.perf_counter()
    np.savez(out, ids=all_i.numpy() + q.shape[0], scores=all_s.numpy())
    print(f"peer torch load={t_load:.3f} index={t1 - t0:.3f} search={t2 - t1:.3f} "
          f"threads={torch.get_num_threads()} qblock={qb} cblock={cb}")


def read_ours(tsv, k):
    """query -> candidate ids by rank, from the dump of topk's output."""
    rows = np.loadtxt(tsv, dtype=np.float64, ndmin=2)
    lists = {}
    for qid, rank, cid, _ in rows:
        lists.setdefault(int(qid), [None] * k)[int(rank) - 1] = int(cid)
    return lists


def verify(d, ours_tsv, peer_npz, k, sample, name):
    q, c, _ = load(d)
    nq = q.shape[0]
    ours = read_ours(ours_tsv, k)
    peer = np.load(peer_npz)
    rng = np.random.default_rng(48)
    picked = rng.choice(nq, size=min(sample, nq), replace=False)
    q64 = q.astype(np.float64)
    c64 = c.astype(np.float64)
    exact_ids = ties = 0
    failures = []
    for qi in picked:
        mine = ours.get(int(qi))
        theirs = peer["ids"][qi]
        if mine is None or any(x is None for x in mine):
            failures.append(f"query {qi}: {0 if mine is None else sum(x is not None for x in mine)} ranks written")
            continue
        mine = np.array(mine, dtype=np.int64)
        s_mine = c64[mine - nq] @ q64[qi]
        s_theirs = c64[theirs - nq] @ q64[qi]
        # float32 sums of 64 products differ from the float64 ones by far less than this.
        tol = 1e-5 * np.maximum(1.0, np.abs(s_mine))
        order_ok = all(s_mine[r] > s_mine[r + 1] - tol[r] for r in range(k - 1))
        same = mine == theirs
        tie = ~same & (np.abs(s_mine - s_theirs) <= tol)
        exact_ids += int(same.sum())
        ties += int(tie.sum())
        if not order_ok or not np.all(same | tie):
            bad = np.flatnonzero(~(same | tie))
            failures.append(f"query {qi}: ranks {(bad + 1).tolist()[:5]}: ours {mine[bad][:5].tolist()} "
                            f"{name} {theirs[bad][:5].tolist()} (scores {s_mine[bad][:3]} vs {s_theirs[bad][:3]})"
                            + ("" if order_ok else "; ours not in score order"))
    total = len(picked) * k
    verdict = "FAIL" if failures else "PASS"
    print(f"verify {name}: {verdict}: {len(picked)} sampled queries x top {k}: {exact_ids}/{total} ids equal, "
          f"{ties} ties of equal score ordered differently, {len(failures)} queries differ")
    for f in failures[:5]:
        print("  " + f)
    return 0 if not failures else 1


def main(argv):
    mode = argv[1]
    if mode == "faiss":
        run_faiss(argv[2], int(argv[3]), argv[4])
    elif mode == "torch":
        run_torch(argv[2], int(argv[3]), argv[4])
    elif mode == "verify":
        return verify(argv[2], argv[3], argv[4], int(argv[5]), int(argv[6]), argv[7] if len(argv) > 7 else "peer")
    else:
        raise SystemExit(__doc__)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
