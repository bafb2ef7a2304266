#!/usr/bin/python3
"""The PyTorch peer of scripts/bench/inference: all-node inference of the same 2-layer gcn and sage models on
the same graph, written as a PyTorch 1.13 user would: the whole graph in memory, layer by layer (every node's
row once per layer), the sparse adjacency built once as a CSR tensor, sage's neighbour sampling done with
tensor operations, all cores (torch.set_num_threads), no autograd. Layer semantics as in the model format
(README "Model directory"):

  gcn:  H' = act(A_hat (H W) + b),  A_hat[i, j] = 1 / sqrt(d_i d_j) over in-edges j -> i plus one self-loop,
        d = 1 + in-degree (input self-loops dropped);
  sage: H' = act(H W_self + b + mean_{j in S(i)} (H W_neigh)_j), S(i) up to FANOUT in-neighbours of i drawn
        without replacement, drawn again for every layer.

The weights are random with the model's shapes (the timing does not depend on their values). Nothing is
written: the embeddings stay in memory, which only flatters this side.

  inference_torch.py prepare TSV_DIR NPY_DIR
      parses `generate --format tsv` tables (nodes: id, features; edges: src, dst) once into x.npy, src.npy and
      dst.npy (Debian has no pyarrow, so this side reads the TSV twin of the Parquet tables: the generator's
      output depends only on its seed); not timed, as if the user had the graph as arrays already
  inference_torch.py infer NPY_DIR MODEL HIDDEN OUT FANOUT SEED
      prints a last line `result {json}` with the seconds of loading the arrays, building the CSR, sampling and
      each layer, and the peak RSS.
"""
import json
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from training_torch import gcn_adjacency, peak_rss_kb, table_files  # noqa: E402 (a sibling script)


def prepare(tsv_dir, npy_dir):
    os.makedirs(npy_dir, exist_ok=True)
    ids, feats = [], []
    for path in table_files(os.path.join(tsv_dir, "nodes")):
        with open(path, "r") as f:
            while True:
                lines = f.readlines(64 << 20)
                if not lines:
                    break
                chunk_ids, chunk_feats = [], []
                for line in lines:
                    if line.startswith("#") or not line.strip():
                        continue
                    parts = line.rstrip("\n").split("\t")
                    chunk_ids.append(int(parts[0]))
                    chunk_feats.append(parts[-1])
                ids.append(np.array(chunk_ids, dtype=np.int64))
                v = np.array(",".join(chunk_feats).split(","), dtype=np.float32)
                feats.append(v.reshape(len(chunk_ids), -1))
    ids = np.concatenate(ids)
    order = np.argsort(ids, kind="stable")
    ids = ids[order]
    np.save(os.path.join(npy_dir, "x.npy"), np.concatenate(feats)[order])
    src, dst = [], []
    for path in table_files(os.path.join(tsv_dir, "edges")):
        e = np.loadtxt(path, dtype=np.int64, comments="#", usecols=(0, 1), ndmin=2)
        src.append(e[:, 0])
        dst.append(e[:, 1])
    # Node ids -> row indexes (the generator's ids are 0..n-1, but a user's need not be).
    np.save(os.path.join(npy_dir, "src.npy"), np.searchsorted(ids, np.concatenate(src)))
    np.save(os.path.join(npy_dir, "dst.npy"), np.searchsorted(ids, np.concatenate(dst)))
    print("prepared %d nodes, %d edges, %d features in %s" % (len(ids), sum(len(a) for a in src),
                                                             feats[0].shape[1], npy_dir))


def sampled_mean_adjacency(torch, crow, col, n, fanout, gen):
    """Row-normalised CSR of up to `fanout` in-edges per row drawn without replacement (random keys sorted
    within each row, the first `fanout` kept)."""
    deg = crow[1:] - crow[:-1]
    rows = torch.repeat_interleave(torch.arange(n), deg)
    keys = rows.to(torch.float64) + torch.rand(rows.numel(), generator=gen, dtype=torch.float64)
    order = torch.argsort(keys)
    rank = torch.arange(rows.numel()) - crow[:-1][rows]
    keep = rank < fanout
    kept_rows = rows[keep]
    kept_cols = col[order][keep]
    vals = (1.0 / torch.clamp(deg, min=1, max=fanout).float())[kept_rows]
    # Parallel edges (a multigraph) become one entry with their weights summed: the mean keeps multiplicity.
    return torch.sparse_coo_tensor(torch.stack([kept_rows, kept_cols]), vals, (n, n)).coalesce().to_sparse_csr()


def infer(npy_dir, model_type, hidden, out, fanout, seed):
    import torch

    torch.set_num_threads(os.cpu_count())
    torch.set_grad_enabled(False)
    gen = torch.Generator().manual_seed(seed)
    t0 = time.time()
    x = torch.from_numpy(np.load(os.path.join(npy_dir, "x.npy")))
    src = torch.from_numpy(np.load(os.path.join(npy_dir, "src.npy")))
    dst = torch.from_numpy(np.load(os.path.join(npy_dir, "dst.npy")))
    n, features = x.shape
    load_s = time.time() - t0

    # The in-edge CSR (rows: destinations), built once.
    t0 = time.time()
    if model_type == "gcn":
        adj = gcn_adjacency(torch, src, dst, n)
    else:
        order = torch.argsort(dst)
        col = src[order]
        crow = torch.zeros(n + 1, dtype=torch.int64)
        crow[1:] = torch.cumsum(torch.bincount(dst, minlength=n), 0)
        del order
    del src, dst
    build_s = time.time() - t0

    widths = [features, hidden, out]
    h = x
    layer_s, sample_s = [], 0.0
    for k in range(2):
        i, o = widths[k], widths[k + 1]
        scale = 1.0 / i ** 0.5
        t0 = time.time()
        if model_type == "gcn":
            w = torch.randn(i, o, generator=gen) * scale
            b = torch.zeros(o)
            h = torch.sparse.mm(adj, h @ w) + b
        else:
            ts = time.time()
            a = sampled_mean_adjacency(torch, crow, col, n, fanout, gen)
            sample_s += time.time() - ts
            w_self = torch.randn(i, o, generator=gen) * scale
            w_neigh = torch.randn(i, o, generator=gen) * scale
            b = torch.zeros(o)
            h = torch.addmm(b, h, w_self) + torch.sparse.mm(a, h @ w_neigh)
            del a
        if k == 0:
            h = torch.relu(h)
        layer_s.append(time.time() - t0)
    result = {"model": model_type, "nodes": n, "features": features, "threads": torch.get_num_threads(),
              "load_s": load_s, "build_s": build_s, "sample_s": sample_s, "layer_s": layer_s,
              "layers_s": sum(layer_s), "total_s": load_s + build_s + sum(layer_s), "peak_rss_kb": peak_rss_kb(),
              "checksum": float(h.float().sum())}
    print("result " + json.dumps(result))


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "prepare":
        prepare(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 8 and sys.argv[1] == "infer":
        infer(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]), int(sys.argv[7]))
    else:
        sys.exit(__doc__)
