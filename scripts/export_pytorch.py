#!/usr/bin/env python3
"""Export a PyTorch / PyG GNN into a yarn-gnn model directory (model.json + weights.safetensors).

The model directory is described in the README ("Model directory"). Weights are float32, row-major, with
these names and shapes (k = layer index, from 0):

  gcn   layers.k.weight [in, out]            layers.k.bias [out]
  sage  layers.k.weight_self [in, out]       layers.k.weight_neigh [in, out]   layers.k.bias [out]
  gat   layers.k.weight [in, heads*out]      layers.k.attn_src [heads, out]    layers.k.attn_dst [heads, out]
        layers.k.bias [heads*out] (or [out] when concat is false)

torch.nn.Linear stores its weight as [out, in] (y = x W^T), so linear weights are transposed on export.
Where the PyTorch Geometric parameters go:

  GCNConv                 lin.weight^T -> weight, bias -> bias
  SAGEConv(aggr="mean")   lin_r.weight^T -> weight_self (root), lin_l.weight^T -> weight_neigh, lin_l.bias -> bias
  GATConv                 lin.weight^T (lin_src in older PyG) -> weight, att_src[0] -> attn_src,
                          att_dst[0] -> attn_dst, bias -> bias

DGL works the same way: GraphConv.weight is already [in, out]; SAGEConv('mean') fc_self / fc_neigh
(+ bias); GATConv fc.weight^T, attn_l -> attn_src, attn_r -> attn_dst.

The safetensors file is written with plain `struct` and `json` (the `safetensors` package is not needed); the
layout is the reference one: 8-byte little-endian header length, JSON header with tensors in name order,
padded with spaces to a multiple of 8, then the raw little-endian float32 data.

Usage:
  python3 export_pytorch.py --demo OUT_DIR     # a small GCN -> SAGE -> GAT model (needs torch; uses PyG if present)
  python3 export_pytorch.py --selftest OUT_DIR # a tiny hand-made model, no torch needed

In your own code:
  from export_pytorch import gcn_layer, sage_layer, gat_layer, write_model_dir
  layers = [gcn_layer(model.conv1, "relu"), sage_layer(model.conv2, "relu", fanout=10), gat_layer(model.conv3)]
  write_model_dir("my-model", layers, output_predict=True)
"""

import argparse
import array
import json
import os
import struct
import sys


# ---------------------------------------------------------------------------------------------------------
# safetensors, float32 only


def _flat_float32(value):
    """(shape, little-endian float32 bytes) of a torch tensor, numpy array or nested list of numbers."""
    if hasattr(value, "detach"):  # torch.Tensor
        value = value.detach().cpu().float().contiguous()
        shape = list(value.shape)
        flat = value.reshape(-1).tolist()
    elif hasattr(value, "shape") and hasattr(value, "tolist"):  # numpy.ndarray
        shape = list(value.shape)
        flat = value.reshape(-1).tolist()
    else:  # nested lists
        shape, flat = [], value
        while isinstance(flat, (list, tuple)):
            shape.append(len(flat))
            flat = flat[0] if flat else None
        flat = _flatten(value)
    data = array.array("f", flat)
    if sys.byteorder != "little":
        data.byteswap()
    return shape, data.tobytes()


def _flatten(nested):
    if not isinstance(nested, (list, tuple)):
        return [float(nested)]
    out = []
    for item in nested:
        out.extend(_flatten(item))
    return out


def write_safetensors(path, tensors, metadata=None):
    """Writes {name: tensor} as a safetensors file readable by `safetensors.torch.load_file` and yarn-gnn."""
    header, blobs, offset = {}, [], 0
    if metadata:
        header["__metadata__"] = {str(k): str(v) for k, v in sorted(metadata.items())}
    for name in sorted(tensors):
        shape, blob = _flat_float32(tensors[name])
        header[name] = {"dtype": "F32", "shape": shape, "data_offsets": [offset, offset + len(blob)]}
        blobs.append(blob)
        offset += len(blob)
    text = json.dumps(header, separators=(",", ":")).encode("utf-8")
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for blob in blobs:
            f.write(blob)


# ---------------------------------------------------------------------------------------------------------
# layers: each returns (model.json layer entry, {suffix: tensor})


def _t(weight):
    """torch.nn.Linear weight [out, in] -> [in, out]."""
    return weight.detach().t()


def gcn_layer(conv, activation="none"):
    """A PyG GCNConv (or any module with lin.weight [out, in] and bias [out])."""
    weight = _t(conv.lin.weight)
    spec = {"type": "gcn", "in": weight.shape[0], "out": weight.shape[1], "activation": activation,
            "bias": conv.bias is not None}
    tensors = {"weight": weight}
    if conv.bias is not None:
        tensors["bias"] = conv.bias
    return spec, tensors


def sage_layer(conv, activation="none", fanout=-1):
    """A PyG SAGEConv with mean aggregation: lin_l (neighbours, with bias) and lin_r (root, no bias)."""
    neigh = _t(conv.lin_l.weight)
    spec = {"type": "sage", "in": neigh.shape[0], "out": neigh.shape[1], "activation": activation,
            "bias": conv.lin_l.bias is not None, "aggregator": "mean", "fanout": fanout}
    tensors = {"weight_self": _t(conv.lin_r.weight), "weight_neigh": neigh}
    if conv.lin_l.bias is not None:
        tensors["bias"] = conv.lin_l.bias
    return spec, tensors


def gat_layer(conv, activation="none"):
    """A PyG GATConv: lin (or lin_src) [heads*out, in], att_src / att_dst [1, heads, out], bias."""
    lin = conv.lin if getattr(conv, "lin", None) is not None else conv.lin_src
    heads, out = conv.heads, conv.out_channels
    weight = _t(lin.weight)
    spec = {"type": "gat", "in": weight.shape[0], "out": out, "heads": heads, "concat": bool(conv.concat),
            "negative_slope": float(conv.negative_slope), "activation": activation,
            "bias": conv.bias is not None}
    tensors = {"weight": weight, "attn_src": conv.att_src.detach().reshape(heads, out),
               "attn_dst": conv.att_dst.detach().reshape(heads, out)}
    if conv.bias is not None:
        tensors["bias"] = conv.bias
    return spec, tensors


def write_model_dir(directory, layers, input_normalize="none", output_normalize="none", output_predict=False):
    """Writes model.json and weights.safetensors for [(layer entry, {suffix: tensor}), ...] into directory."""
    os.makedirs(directory, exist_ok=True)
    weights = {}
    for k, (spec, tensors) in enumerate(layers):
        for suffix, tensor in tensors.items():
            weights["layers.%d.%s" % (k, suffix)] = tensor
    model = {"format": 1, "input": {"normalize": input_normalize},
             "layers": [spec for spec, _ in layers],
             "output": {"normalize": output_normalize, "predict": output_predict}}
    with open(os.path.join(directory, "model.json"), "w") as f:
        json.dump(model, f, indent=2)
        f.write("\n")
    write_safetensors(os.path.join(directory, "weights.safetensors"), weights, {"format": "pt"})


# ---------------------------------------------------------------------------------------------------------
# examples


def _demo_model(torch, in_width=16, hidden=8, heads=2, classes=4):
    """GCN -> SAGE -> GAT from PyG when installed, else minimal modules with PyG's parameter names."""
    try:
        from torch_geometric.nn import GATConv, GCNConv, SAGEConv
        return [gcn_layer(GCNConv(in_width, hidden), "relu"),
                sage_layer(SAGEConv(hidden, hidden, aggr="mean"), "relu", fanout=10),
                gat_layer(GATConv(hidden, classes, heads=heads, concat=False))]
    except ImportError:
        pass
    nn = torch.nn

    class Gcn(nn.Module):
        def __init__(self, i, o):
            super().__init__()
            self.lin = nn.Linear(i, o, bias=False)
            self.bias = nn.Parameter(torch.zeros(o).uniform_(-0.1, 0.1))

    class Sage(nn.Module):
        def __init__(self, i, o):
            super().__init__()
            self.lin_l, self.lin_r = nn.Linear(i, o), nn.Linear(i, o, bias=False)

    class Gat(nn.Module):
        def __init__(self, i, o, h):
            super().__init__()
            self.heads, self.out_channels, self.concat, self.negative_slope = h, o, False, 0.2
            self.lin = nn.Linear(i, h * o, bias=False)
            self.att_src = nn.Parameter(torch.randn(1, h, o))
            self.att_dst = nn.Parameter(torch.randn(1, h, o))
            self.bias = nn.Parameter(torch.zeros(o).uniform_(-0.1, 0.1))

    return [gcn_layer(Gcn(in_width, hidden), "relu"),
            sage_layer(Sage(hidden, hidden), "relu", fanout=10),
            gat_layer(Gat(hidden, classes, heads))]


def _selftest_layers():
    """A one-layer gcn 3 -> 2 from plain lists, so the writer can be checked without torch."""
    spec = {"type": "gcn", "in": 3, "out": 2, "activation": "relu", "bias": True}
    return [(spec, {"weight": [[1.0, -1.0], [0.5, 0.25], [0.0, 2.0]], "bias": [0.1, -0.2]})]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--demo", metavar="OUT_DIR", help="export a small random GCN/SAGE/GAT model (needs torch)")
    group.add_argument("--selftest", metavar="OUT_DIR", help="export a tiny hand-made model (no torch)")
    args = parser.parse_args()
    if args.selftest:
        write_model_dir(args.selftest, _selftest_layers())
        print("wrote", args.selftest)
        return 0
    try:
        import torch
    except ImportError:
        print("torch is not installed (Debian: apt-get install python3-torch, then use /usr/bin/python3)",
              file=sys.stderr)
        return 2
    torch.manual_seed(0)
    write_model_dir(args.demo, _demo_model(torch), output_predict=True)
    print("wrote", args.demo)
    return 0


if __name__ == "__main__":
    sys.exit(main())
