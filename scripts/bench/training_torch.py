#!/usr/bin/python3
"""The PyTorch side of scripts/bench/training: what a PyTorch 1.13 user writes for full-batch training of the
same 2-layer gcn and sage (mean) models on the same graph, with the layer semantics of the model format
(README "Model directory"):

  gcn:  H' = act(A_hat (H W) + b),  A_hat[i, j] = w_ji / sqrt(d_i d_j) over in-edges j -> i plus one self-loop,
        d = 1 + in-degree (input self-loops dropped);
  sage: H' = act(H W_self + mean_{j in N(i)} (H W_neigh)_j + b), N(i) the in-neighbours with multiplicity.

Dropout on each layer's input, Adam (lr, weight_decay), softmax cross-entropy over the `train` rows; each
epoch is one training step and then one evaluation forward (dropout off) giving the train/val/test accuracy,
as `yarn-gnn train` does, and both are timed together.

  training_torch.py prepare TSV_DIR NPY_DIR     parse `generate --format tsv` tables once into .npy files
                                                (Debian has no pyarrow, so this side reads the TSV twin of the
                                                Parquet tables: the generator's output depends only on its seed)
  training_torch.py train NPY_DIR MODEL EPOCHS HIDDEN LR WEIGHT_DECAY DROPOUT SEED
                                                prints one line per epoch and a last line `result {json}`
"""
import json
import os
import sys
import time

import numpy as np

SPLITS = {"train": 0, "val": 1, "test": 2}


def table_files(d):
    names = sorted(f for f in os.listdir(d) if not f.startswith(("_", ".")))
    return [os.path.join(d, f) for f in names]


def prepare(tsv_dir, npy_dir):
    os.makedirs(npy_dir, exist_ok=True)
    ids, labels, splits, feats = [], [], [], []
    for path in table_files(os.path.join(tsv_dir, "nodes")):
        with open(path, "r") as f:
            while True:
                lines = f.readlines(64 << 20)
                if not lines:
                    break
                chunk_ids, chunk_labels, chunk_splits, chunk_feats = [], [], [], []
                for line in lines:
                    if line.startswith("#") or not line.strip():
                        continue
                    i, y, s, x = line.rstrip("\n").split("\t", 3)
                    chunk_ids.append(int(i))
                    chunk_labels.append(int(y))
                    chunk_splits.append(SPLITS.get(s, 3))
                    chunk_feats.append(x)
                ids.append(np.array(chunk_ids, dtype=np.int64))
                labels.append(np.array(chunk_labels, dtype=np.int64))
                splits.append(np.array(chunk_splits, dtype=np.int8))
                v = np.fromstring(",".join(chunk_feats), dtype=np.float32, sep=",")
                feats.append(v.reshape(len(chunk_ids), -1))
    ids = np.concatenate(ids)
    order = np.argsort(ids, kind="stable")
    ids = ids[order]
    np.save(os.path.join(npy_dir, "x.npy"), np.concatenate(feats)[order])
    np.save(os.path.join(npy_dir, "y.npy"), np.concatenate(labels)[order])
    np.save(os.path.join(npy_dir, "split.npy"), np.concatenate(splits)[order])
    src, dst = [], []
    for path in table_files(os.path.join(tsv_dir, "edges")):
        with open(path, "rb") as f:
            data = f.read()
        if data.startswith(b"#"):
            data = data[data.index(b"\n") + 1:]
        e = np.fromstring(data, dtype=np.int64, sep=" ").reshape(-1, 2)
        del data
        src.append(e[:, 0])
        dst.append(e[:, 1])
    # Node ids -> row indexes (the generator's ids are 0..n-1, but a user's need not be).
    src = np.searchsorted(ids, np.concatenate(src))
    dst = np.searchsorted(ids, np.concatenate(dst))
    np.save(os.path.join(npy_dir, "src.npy"), src)
    np.save(os.path.join(npy_dir, "dst.npy"), dst)
    print("prepared %d nodes, %d edges, %d features in %s" % (len(ids), len(src), feats[0].shape[1], npy_dir))


def gcn_adjacency(torch, src, dst, n):
    """A_hat as a CSR tensor (rows: destinations): 1 / sqrt(d_i d_j) over in-edges j -> i without input
    self-loops, plus one self-loop per node; d = 1 + in-degree."""
    keep = src != dst
    src, dst = src[keep], dst[keep]
    deg = torch.bincount(dst, minlength=n).float() + 1
    loops = torch.arange(n)
    rows = torch.cat([dst, loops])
    cols = torch.cat([src, loops])
    inv = deg.rsqrt()
    return torch.sparse_coo_tensor(torch.stack([rows, cols]), inv[rows] * inv[cols], (n, n)).coalesce() \
        .to_sparse_csr()


def peak_rss_kb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def train(npy_dir, model_type, epochs, hidden, lr, weight_decay, dropout, seed):
    import torch
    import torch.nn.functional as F

    torch.set_num_threads(os.cpu_count())
    torch.manual_seed(seed)
    t0 = time.time()
    x = torch.from_numpy(np.load(os.path.join(npy_dir, "x.npy")))
    y = torch.from_numpy(np.load(os.path.join(npy_dir, "y.npy")))
    split = torch.from_numpy(np.load(os.path.join(npy_dir, "split.npy")))
    src = torch.from_numpy(np.load(os.path.join(npy_dir, "src.npy")))
    dst = torch.from_numpy(np.load(os.path.join(npy_dir, "dst.npy")))
    n, features = x.shape
    classes = int(y.max()) + 1
    load_s = time.time() - t0

    # The normalised sparse adjacency, built once (rows: destinations, columns: sources).
    t0 = time.time()
    if model_type == "gcn":
        adj = gcn_adjacency(torch, src, dst, n)
    else:
        deg = torch.bincount(dst, minlength=n).float()
        rows, cols = dst, src
        vals = 1.0 / deg[rows]
        adj = torch.sparse_coo_tensor(torch.stack([rows, cols]), vals, (n, n)).coalesce().to_sparse_csr()
        del rows, cols, vals
    del src, dst
    build_s = time.time() - t0

    class Gcn(torch.nn.Module):
        def __init__(self, i, o):
            super().__init__()
            self.lin = torch.nn.Linear(i, o, bias=False)
            self.bias = torch.nn.Parameter(torch.zeros(o))
            torch.nn.init.xavier_uniform_(self.lin.weight)

        def forward(self, h):
            return adj @ self.lin(h) + self.bias

    class Sage(torch.nn.Module):
        def __init__(self, i, o):
            super().__init__()
            self.self_lin = torch.nn.Linear(i, o)
            self.neigh_lin = torch.nn.Linear(i, o, bias=False)
            torch.nn.init.xavier_uniform_(self.self_lin.weight)
            torch.nn.init.xavier_uniform_(self.neigh_lin.weight)
            torch.nn.init.zeros_(self.self_lin.bias)

        def forward(self, h):
            return self.self_lin(h) + adj @ self.neigh_lin(h)

    layer = Gcn if model_type == "gcn" else Sage

    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.l1 = layer(features, hidden)
            self.l2 = layer(hidden, classes)

        def forward(self, h):
            h = F.dropout(h, dropout, self.training)
            h = F.relu(self.l1(h))
            h = F.dropout(h, dropout, self.training)
            return self.l2(h)

    model = Net()
    opt = torch.optim.Adam(model.parameters(), lr=lr, weight_decay=weight_decay)
    masks = [split == s for s in range(3)]
    train_idx = masks[0].nonzero().squeeze(1)
    seconds, last = [], None
    for epoch in range(1, epochs + 1):
        t0 = time.time()
        model.train()
        opt.zero_grad()
        out = model(x)
        loss = F.cross_entropy(out[train_idx], y[train_idx])
        loss.backward()
        opt.step()
        model.eval()
        with torch.no_grad():
            pred = model(x).argmax(1)
            acc = [float((pred[m] == y[m]).float().mean()) for m in masks]
        seconds.append(time.time() - t0)
        last = acc
        print("torch %s: epoch %d loss %.4f train %.4f val %.4f test %.4f %.3f s"
              % (model_type, epoch, float(loss), acc[0], acc[1], acc[2], seconds[-1]), flush=True)
    print("result " + json.dumps({
        "epoch_seconds": seconds, "test_accuracy": last[2], "val_accuracy": last[1], "load_seconds": load_s,
        "build_seconds": build_s, "threads": torch.get_num_threads(), "torch": torch.__version__,
        "peak_rss_kb": peak_rss_kb(), "nodes": n, "edges": int(adj._nnz())}), flush=True)


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "prepare":
        prepare(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 10 and sys.argv[1] == "train":
        a = sys.argv
        train(a[2], a[3], int(a[4]), int(a[5]), float(a[6]), float(a[7]), float(a[8]), int(a[9]))
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
