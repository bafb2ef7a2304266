#!/usr/bin/python3
"""The PyTorch peer of scripts/bench/inference: all-node inference of the same 2-layer gcn, sage and gat models on
the same graph, written as a PyTorch 1.13 user would: the whole graph in memory, layer by layer (every node's
row once per layer), the sparse adjacency built once as a CSR tensor, sage's neighbour sampling and gat's edge
softmax done with tensor operations (no torch_scatter), all cores (torch.set_num_threads), no autograd. It runs
the model directory's own weights (model.json + weights.safetensors), so its output is yarn-gnn's up to rounding
(gcn, gat) or up to the sample drawn (sage). Layer semantics as in the model format (README "Model directory"):

  gcn:  H' = act(A_hat (H W) + b),  A_hat[i, j] = 1 / sqrt(d_i d_j) over in-edges j -> i plus one self-loop,
        d = 1 + in-degree (input self-loops dropped);
  sage: H' = act(H W_self + b + mean_{j in S(i)} (H W_neigh)_j), S(i) up to FANOUT in-neighbours of i drawn
        without replacement, drawn again for every layer;
  gat:  per head Z = H W_h, e_ij = LeakyReLU(a_src . Z_j + a_dst . Z_i) over in-edges j -> i (input self-loops
        dropped, parallel edges each counted) plus one self-loop, alpha = softmax over j, head output
        sum_j alpha_ij Z_j; heads concatenated or averaged, + b, act (compute's GatLayer).

Nothing is written: the embeddings stay in memory, which only flatters this side.

  inference_torch.py prepare TSV_DIR NPY_DIR
      parses `generate --format tsv` tables (nodes: id, features; edges: src, dst) once into x.npy, src.npy and
      dst.npy (Debian has no pyarrow, so this side reads the TSV twin of the Parquet tables: the generator's
      output depends only on its seed); not timed, as if the user had the graph as arrays already
  inference_torch.py infer NPY_DIR MODEL_DIR FANOUT SEED [OUT.tsv]
      FANOUT: sage's sample size, 0 for the model's own;
      prints a last line `result {json}` with the seconds of loading the arrays, building the CSR, sampling and
      each layer, and the peak RSS; with OUT.tsv also writes the embeddings (id, comma-separated values; for
      checks on small graphs, not timed)
  inference_torch.py compare WANT.tsv GOT.tsv TOLERANCE
      the largest absolute difference between two such embedding dumps; exit 1 when above TOLERANCE times the
      largest |value| (at least 1) or when the ids differ
"""
import json
import os
import struct
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


def in_edge_csr(torch, src, dst, n):
    """Row pointers and columns of the in-edges sorted by (destination, source): the CSR's index arrays."""
    order = torch.argsort(dst * n + src)
    crow = torch.zeros(n + 1, dtype=torch.int64)
    crow[1:] = torch.cumsum(torch.bincount(dst, minlength=n), 0)
    return crow, src[order]


def gat_graph(torch, src, dst, n):
    """The gat layers' CSR: in-edges without input self-loops plus one self-loop per node, parallel edges merged
    into one entry with their count (a CSR tensor's columns must be distinct within a row; the count keeps each
    parallel edge's share of the softmax), and each entry's row (for the per-edge scores)."""
    keep = src != dst
    loops = torch.arange(n)
    key = torch.cat([dst[keep], loops]) * n + torch.cat([src[keep], loops])
    key, count = torch.unique(key, sorted=True, return_counts=True)
    rows, col = key // n, key % n
    crow = torch.zeros(n + 1, dtype=torch.int64)
    crow[1:] = torch.cumsum(torch.bincount(rows, minlength=n), 0)
    return crow, col, rows, count.float()


def gat_layer(torch, graph, h, spec, t):
    """One gat layer: scores per edge and head, their softmax over each row (max and sum by scatter_reduce /
    index_add), then one CSR product per head with the attention weights as the CSR's values."""
    crow, col, rows, count = graph
    n, heads, width = h.shape[0], spec["heads"], spec["out"]
    z = (h @ t["weight"]).view(n, heads, width)
    a_src = (z * t["attn_src"].view(1, heads, width)).sum(-1)
    a_dst = (z * t["attn_dst"].view(1, heads, width)).sum(-1)
    e = torch.nn.functional.leaky_relu(a_src[col] + a_dst[rows], spec.get("negative_slope", 0.2))
    idx = rows.view(-1, 1).expand(-1, heads)
    m = torch.full((n, heads), float("-inf")).scatter_reduce(0, idx, e, reduce="amax", include_self=True)
    e = torch.exp(e - m[rows]) * count.view(-1, 1)
    e = e / torch.zeros(n, heads).index_add_(0, rows, e)[rows]
    out = torch.empty(n, heads, width)
    for k in range(heads):
        a = torch.sparse_csr_tensor(crow, col, e[:, k].contiguous(), (n, n))
        out[:, k, :] = torch.sparse.mm(a, z[:, k, :].contiguous())
    return out.reshape(n, heads * width) if spec.get("concat", True) else out.mean(1)


def read_model(torch, model_dir):
    """model.json's layers and the safetensors' F32 tensors (header: u64 length, JSON; then the data)."""
    with open(os.path.join(model_dir, "model.json")) as f:
        spec = json.load(f)
    with open(os.path.join(model_dir, "weights.safetensors"), "rb") as f:
        raw = f.read()
    size = struct.unpack("<Q", raw[:8])[0]
    header = json.loads(raw[8:8 + size])
    data = raw[8 + size:]
    tensors = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        if info["dtype"] != "F32":
            sys.exit(f"{model_dir}: tensor {name} is {info['dtype']}, expected F32")
        a, b = info["data_offsets"]
        tensors[name] = torch.from_numpy(np.frombuffer(data[a:b], dtype=np.float32).copy()).view(info["shape"])
    layers = []
    for k, layer in enumerate(spec["layers"]):
        prefix = f"layers.{k}."
        layers.append((layer, {n[len(prefix):]: v for n, v in tensors.items() if n.startswith(prefix)}))
    return spec, layers


def activate(torch, h, name):
    f = {"none": lambda x: x, "relu": torch.relu, "elu": torch.nn.functional.elu, "tanh": torch.tanh,
         "sigmoid": torch.sigmoid, "leaky_relu": lambda x: torch.nn.functional.leaky_relu(x, 0.01)}
    if name not in f:
        sys.exit(f"unsupported activation {name}")
    return f[name](h)


def infer(npy_dir, model_dir, fanout, seed, dump):
    import torch

    torch.set_num_threads(os.cpu_count())
    torch.set_grad_enabled(False)
    gen = torch.Generator().manual_seed(seed)
    spec, layers = read_model(torch, model_dir)
    types = {layer["type"] for layer, _ in layers}
    if len(types) != 1 or spec["input"].get("normalize", "none") != "none" \
            or spec["output"].get("normalize", "none") != "none":
        sys.exit(f"{model_dir}: the peer runs models of one layer type without normalisation, as generate writes")
    model_type = types.pop()
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
    elif model_type == "gat":
        graph = gat_graph(torch, src, dst, n)
    else:
        crow, col = in_edge_csr(torch, src, dst, n)
    del src, dst
    build_s = time.time() - t0

    h = x
    layer_s, sample_s = [], 0.0
    for layer, t in layers:
        t0 = time.time()
        if model_type == "gcn":
            h = torch.sparse.mm(adj, h @ t["weight"])
        elif model_type == "gat":
            h = gat_layer(torch, graph, h, layer, t)
        else:
            ts = time.time()
            # FANOUT 0: the model's own; a fanout of -1 (all) keeps every in-edge.
            f = fanout if fanout > 0 else layer.get("fanout", -1)
            a = sampled_mean_adjacency(torch, crow, col, n, f if f > 0 else 1 << 62, gen)
            sample_s += time.time() - ts
            h = h @ t["weight_self"] + torch.sparse.mm(a, h @ t["weight_neigh"])
            del a
        if "bias" in t:
            h = h + t["bias"]
        h = activate(torch, h, layer.get("activation", "none"))
        layer_s.append(time.time() - t0)
    result = {"model": model_type, "nodes": n, "features": features, "threads": torch.get_num_threads(),
              "load_s": load_s, "build_s": build_s, "sample_s": sample_s, "layer_s": layer_s,
              "layers_s": sum(layer_s), "total_s": load_s + build_s + sum(layer_s), "peak_rss_kb": peak_rss_kb(),
              "checksum": float(h.float().sum())}
    if dump:
        # The prepared arrays' rows are the generator's ids 0..n-1 in order.
        with open(dump, "w") as f:
            for i, row in enumerate(h.numpy()):
                f.write("%d\t%s\n" % (i, ",".join("%.7g" % v for v in row)))
    print("result " + json.dumps(result))


def read_dump(path):
    rows = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            parts = line.rstrip("\n").split("\t")
            if len(parts) != 2:
                sys.exit(f"{path}:{n}: expected id TAB values")
            rows[int(parts[0])] = np.array(parts[1].split(","), dtype=np.float64)
    return rows


def compare(want_path, got_path, tolerance):
    want, got = read_dump(want_path), read_dump(got_path)
    if want.keys() != got.keys():
        print(f"differs: {len(got)} ids in {got_path}, {len(want)} in {want_path}, or other ids")
        return 1
    worst = max(float(np.max(np.abs(want[i] - got[i]))) for i in want)
    scale = max(float(np.max(np.abs(want[i]))) for i in want)
    print(f"max |difference| {worst:.3g} (largest |value| {scale:.3g}) over {len(want)} rows")
    return 0 if worst <= tolerance * max(1.0, scale) else 1


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "prepare":
        prepare(sys.argv[2], sys.argv[3])
    elif len(sys.argv) in (6, 7) and sys.argv[1] == "infer":
        infer(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), sys.argv[6] if len(sys.argv) == 7 else None)
    elif len(sys.argv) == 5 and sys.argv[1] == "compare":
        sys.exit(compare(sys.argv[2], sys.argv[3], float(sys.argv[4])))
    else:
        sys.exit(__doc__)
