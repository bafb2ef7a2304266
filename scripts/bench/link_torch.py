#!/usr/bin/python3
"""The PyTorch peer of `train --task link` on the graph auto-encoder's protocol, on the same split.

  /usr/bin/python3 scripts/bench/link_torch.py --pairs TSV_DIR --nodes nodes.tsv.gz [--epochs 200] [--seed 1]

TSV_DIR holds train.tsv, val.tsv, val-negatives.tsv, test.tsv, test-negatives.tsv (src<TAB>dst[<TAB>weight]): the
tables of `train --task link --link-pairs DIR` (scripts/bench/link-gae exports them with DuckDB), so both sides
train on the same message graph and are evaluated on the same held-out edges and the same fixed negatives.

The model is Kipf and Welling's GAE as the contract's gcn defines it: 2 gcn layers F -> 32 (relu) -> 16, on the
directed message graph's in-edges plus one self-loop per node, normalised by 1/sqrt(d_i d_j) with d = 1 + in-degree;
Glorot weights, zero biases; decoder z_u . z_v. Loss: PyG GAE's recon_loss (softplus(-s+) + softplus(s-)) with one
uniformly drawn destination per positive, each epoch, the source kept; every message edge is a positive. Adam 0.01,
no dropout, no weight decay. The epoch of best validation AUC gives the test AUC and AP (scikit-learn's
definitions, computed here with numpy). Prints one JSON line. Uses torch's CPU (Debian's python3-torch).
"""
import argparse
import gzip
import json
import time

import numpy as np
import torch


def edges(path):
    a = np.loadtxt(path, dtype=np.float64, ndmin=2, comments="#")
    if a.size == 0:
        return np.zeros((0, 2), dtype=np.int64), None
    w = a[:, 2].astype(np.float32) if a.shape[1] > 2 else None
    return a[:, :2].astype(np.int64), w


def nodes(path):
    ids, feats = [], []
    with gzip.open(path, "rt") if path.endswith(".gz") else open(path) as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            p = line.rstrip("\n").split("\t")
            ids.append(int(p[0]))
            feats.append(np.array(p[-1].split(","), dtype=np.float32))
    return np.array(ids, dtype=np.int64), np.stack(feats)


def auc(pos, neg):
    s = np.concatenate([pos, neg])
    order = np.argsort(s, kind="mergesort")
    ss = s[order]
    ranks = np.empty(len(s))
    i = 0
    while i < len(s):
        j = i
        while j + 1 < len(s) and ss[j + 1] == ss[i]:
            j += 1
        ranks[order[i:j + 1]] = (i + j) / 2.0 + 1
        i = j + 1
    p, n = len(pos), len(neg)
    return (ranks[:p].sum() - p * (p + 1) / 2.0) / (p * n)


def average_precision(pos, neg):
    s = np.concatenate([pos, neg])
    y = np.concatenate([np.ones(len(pos)), np.zeros(len(neg))])
    order = np.argsort(-s, kind="mergesort")
    s, y = s[order], y[order]
    last = np.r_[np.nonzero(np.diff(s))[0], len(s) - 1]
    tp = np.cumsum(y)[last]
    return float(np.sum(np.diff(np.r_[0.0, tp / len(pos)]) * tp / (last + 1)))


def main():
    a = argparse.ArgumentParser()
    a.add_argument("--pairs", required=True)
    a.add_argument("--nodes", required=True)
    a.add_argument("--epochs", type=int, default=200)
    a.add_argument("--seed", type=int, default=1)
    a.add_argument("--hidden", type=int, default=32)
    a.add_argument("--out", type=int, default=16)
    a.add_argument("--lr", type=float, default=0.01)
    o = a.parse_args()
    torch.manual_seed(o.seed)
    rng = np.random.default_rng(o.seed)
    ids, x = nodes(o.nodes)
    order = np.argsort(ids)
    ids, x = ids[order], x[order]
    row = lambda v: np.searchsorted(ids, v)
    n = len(ids)
    train, w = edges("%s/train.tsv" % o.pairs)
    src, dst = row(train[:, 0]), row(train[:, 1])
    w = np.ones(len(src), dtype=np.float32) if w is None else w
    # The contract's gcn: input self-loops ignored, every node counts itself once with weight 1.
    m = src != dst
    deg = 1 + np.bincount(dst[m], weights=w[m], minlength=n)
    loops = np.arange(n)
    r = np.r_[dst[m], loops]
    c = np.r_[src[m], loops]
    v = np.r_[w[m], np.ones(n, dtype=np.float32)] / np.sqrt(deg[r] * deg[c])
    adj = torch.sparse_coo_tensor(torch.tensor(np.stack([r, c])), torch.tensor(v, dtype=torch.float32), (n, n)).coalesce()
    feats = torch.tensor(x)

    def glorot(i, k):
        lim = np.sqrt(6.0 / (i + k))
        return torch.nn.Parameter(torch.empty(i, k).uniform_(-lim, lim))

    w1, b1 = glorot(x.shape[1], o.hidden), torch.nn.Parameter(torch.zeros(o.hidden))
    w2, b2 = glorot(o.hidden, o.out), torch.nn.Parameter(torch.zeros(o.out))
    opt = torch.optim.Adam([w1, b1, w2, b2], lr=o.lr)

    def encode():
        h = torch.relu(torch.sparse.mm(adj, feats @ w1) + b1)
        return torch.sparse.mm(adj, h @ w2) + b2

    def held(name):
        p, _ = edges("%s/%s.tsv" % (o.pairs, name))
        q, _ = edges("%s/%s-negatives.tsv" % (o.pairs, name))
        return (torch.tensor(row(p[:, 0])), torch.tensor(row(p[:, 1])), torch.tensor(row(q[:, 0])),
                torch.tensor(row(q[:, 1])))

    val, test = held("val"), held("test")

    def figures(z, s):
        with torch.no_grad():
            pos = (z[s[0]] * z[s[1]]).sum(1).double().numpy()
            neg = (z[s[2]] * z[s[3]]).sum(1).double().numpy()
        return auc(pos, neg), average_precision(pos, neg)

    ts, td = torch.tensor(src), torch.tensor(dst)
    sp = torch.nn.functional.softplus
    best = (-1.0, 0, None)
    t0 = time.time()
    for epoch in range(1, o.epochs + 1):
        opt.zero_grad()
        z = encode()
        negd = torch.tensor(rng.integers(0, n, len(src)))
        loss = (sp(-(z[ts] * z[td]).sum(1)) + sp((z[ts] * z[negd]).sum(1))).mean()
        loss.backward()
        opt.step()
        with torch.no_grad():
            z = encode()
        va, _ = figures(z, val)
        if va > best[0]:
            best = (va, epoch, figures(z, test))
    print(json.dumps({"side": "pytorch", "seed": o.seed, "best_epoch": best[1], "val_auc": best[0],
                      "test_auc": best[2][0], "test_ap": best[2][1], "seconds": round(time.time() - t0, 1),
                      "torch": torch.__version__}))


if __name__ == "__main__":
    main()
