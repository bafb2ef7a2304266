"""Prints scripts/bench/inference's tables: medians per configuration; yarn-gnn against the PyTorch peer and the
nodewise baseline per model and worker count; each phase of the job against its measured limit.

Usage: inference_table.py RESULTS_TSV NODEWISE_LIMIT SLOW_SECONDS [LIMITS_TSV]
RESULTS_TSV lines: model, config, run, wall seconds, status (ok|timeout|failed...), log file. Each log holds the
command's output (the job's `wrote ... in S s` line, per-worker `stats:` lines or the nodewise phase lines) and,
when GNU time ran it, its -v report. Configurations: nodewise, layerwise-wW, pipe-on-wW, fusion-off-wW, pytorch.
LIMITS_TSV lines (scripts/bench/inference-limits.java): limit, model, workers, phase, seconds.
"""
import json
import re
import statistics
import sys

CONSTRUCTION = ("t.job", "t.read-nodes", "t.route-nodes", "t.edges", "t.plan")
# A phase is within its goal at most 1.5x its limit, plus this much for the phase's barrier round through the driver
# (a phase whose limit is about nothing, such as routing to no other worker, may still take a round trip).
GOAL = 1.5
SLACK_S = 0.02
LIMIT_NOTES = {
    "read-nodes": "read + Snappy-decompress the nodes' pages",
    "route-nodes": "the node rows read by a non-owner, through loopback",
    "edges": "read + decompress the edges, (W-1)/W through loopback, CsrBuilder",
    "plan": "one pass over the edges' sources (sage: + NeighbourSampler)",
    "write": "Snappy-compress + write the output's bytes",
}


def config_order(config):
    """Sort key: nodewise, layer-wise by worker count, the ablations, the peer."""
    m = re.match(r"(layerwise|pipe-on|fusion-off)-w(\d+)$", config)
    if m:
        return (1 + ["layerwise", "pipe-on", "fusion-off"].index(m.group(1)), int(m.group(2)))
    return (0, 0) if config == "nodewise" else (9, 0)


def label(config):
    m = re.match(r"(layerwise|pipe-on|fusion-off)-w(\d+)$", config)
    if m:
        what = {"layerwise": "layer-wise", "pipe-on": "layer-wise, pipelining on",
                "fusion-off": "layer-wise, fusion off"}[m.group(1)]
        return f"{what}, {m.group(2)} worker{'s' if m.group(2) != '1' else ''}"
    return {"nodewise": "nodewise baseline (1 JVM)", "pytorch": "PyTorch peer (inference_torch.py)",
            "pytorch-4k": "PyTorch peer, 4 KiB pages"}.get(config, config)


def parse(log):
    """The figures of one run: job seconds, phase seconds, bytes sent, peak heap and peak RSS (None if absent)."""
    text = open(log, errors="replace").read()
    f = {"job": None, "construct": None, "layers": None, "write": None, "sent": None, "heap": None, "rss": None,
         "cpu": None, "load": None, "build": None, "phases": {}}
    m = re.search(r"wrote [\d,]+ embeddings .* in ([\d.]+) s", text)
    if m:
        f["job"] = float(m.group(1))
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", text)
    if m:
        f["rss"] = int(m.group(1)) * 1024
    user = re.search(r"User time \(seconds\): ([\d.]+)", text)
    system = re.search(r"System time \(seconds\): ([\d.]+)", text)
    if user and system:
        f["cpu"] = float(user.group(1)) + float(system.group(1))
    workers = [dict((k, float(v)) for k, v in re.findall(r"(\S+)=([\d.eE+-]+)", line))
               for line in re.findall(r"worker \d+ stats:(.*)", text)]
    if workers:
        # Phases end at barriers: the slowest worker sets each phase's length.
        f["construct"] = max(sum(w.get(k, 0) for k in CONSTRUCTION) for w in workers)
        f["layers"] = max(sum(v for k, v in w.items() if k.startswith("t.layer")) for w in workers)
        f["write"] = max(w.get("t.write", 0) for w in workers)
        f["sent"] = sum(w.get("bytesSent", 0) for w in workers)
        f["heap"] = max(w.get("peakHeapBytes", 0) for w in workers)
        for k in dict.fromkeys(k for w in workers for k in w if k.startswith("t.")):
            f["phases"][k[2:]] = max(w.get(k, 0) for w in workers)
    m = re.search(r"read ([\d.]+)s, build ([\d.]+)s", text)
    if m:
        f["construct"] = float(m.group(1)) + float(m.group(2))
    m = re.search(r"^result (\{.*\})$", text, re.M)
    if m:
        # The PyTorch peer: loading the arrays and building the CSR are its construction; nothing is written.
        r = json.loads(m.group(1))
        f["load"], f["build"], f["layers"] = r["load_s"], r["build_s"], r["layers_s"]
        f["construct"] = r["load_s"] + r["build_s"]
        f["job"] = r["total_s"]
    m = re.search(r"nodewise inference computed [\d,]+ layer rows in ([\d.]+) s", text)
    if m:
        f["layers"] = float(m.group(1))
        f["sent"] = 0
        if f["job"] is not None and f["construct"] is not None:
            f["write"] = f["job"] - f["construct"] - f["layers"]
    return f


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def fmt(v, scale=1.0, digits=1):
    return "-" if v is None else f"{v / scale:.{digits}f}"


def print_table(head, rows, left=2):
    widths = [max(len(r[i]) for r in [head] + rows) for i in range(len(head))]

    def line(r):
        return "  ".join(c.ljust(w) if i < left else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths)))
    print(line(head))
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print(line(r))


def read_limits(path):
    limits = {}
    if path:
        for line in open(path):
            fields = line.rstrip("\n").split("\t")
            if len(fields) == 5 and fields[0] == "limit":
                limits[(fields[1], int(fields[2]), fields[3])] = float(fields[4])
    return limits


def summarise(results_file, limit):
    """{(model, config): (wall, killed, figures medians, phase medians)} and the models in order."""
    rows = {}
    for line in open(results_file):
        model, config, _, wall, status, log = line.rstrip("\n").split("\t")
        rows.setdefault((model, config), []).append((float(wall), status, parse(log)))
    summary = {}
    for key, runs in rows.items():
        ok = [r for r in runs if r[1] == "ok"]
        timed_out = any(r[1] == "timeout" for r in runs)
        figs = {k: median([r[2][k] for r in ok]) for k in ("job", "construct", "layers", "write", "sent", "load",
                                                            "build", "heap", "rss", "cpu")}
        if not ok and timed_out:
            # What a killed run used until the limit: lower bounds, like its time.
            killed = [r[2] for r in runs if r[1] == "timeout"]
            figs.update({k: median([f[k] for f in killed]) for k in ("cpu", "rss")})
        phases = {}
        for r in ok:
            for p in r[2]["phases"]:
                phases.setdefault(p, [])
        phases = {p: median([r[2]["phases"].get(p) for r in ok]) for p in phases}
        wall = median([r[0] for r in ok]) if ok else (limit if timed_out else None)
        summary[key] = (wall, timed_out and not ok, figs, phases, len(ok) or len(runs))
    return summary, list(dict.fromkeys(m for m, _ in rows))


def main():
    results_file, limit, slow = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
    limits = read_limits(sys.argv[4] if len(sys.argv) > 4 else None)
    summary, models = summarise(results_file, limit)

    head = ["model", "configuration", "runs", "wall s", "CPU s", "job s", "construct s", "layers s", "write s",
            "sent MB", "heap GB", "RSS GB"]
    table = []
    for model in models:
        for config in sorted((c for m, c in summary if m == model), key=config_order):
            wall, killed, figs, _, count = summary[(model, config)]
            wall_s = "FAILED" if wall is None else (f">= {limit:.0f}" if killed else f"{wall:.2f}")
            table.append([model, label(config), str(count), wall_s,
                          (">= " if killed and figs["cpu"] is not None else "") + fmt(figs["cpu"]),
                          fmt(figs["job"]), fmt(figs["construct"]), fmt(figs["layers"]), fmt(figs["write"]),
                          fmt(figs["sent"], 1e6), fmt(figs["heap"], 2**30, 2), fmt(figs["rss"], 2**30, 2)])
    print_table(head, table)

    print()
    print("yarn-gnn end to end (Parquet in, Parquet out, JVM start included) against the PyTorch peer and the nodewise"
          " baseline (medians; a ratio > 1 means yarn-gnn is faster)")
    head = ["model", "workers", "wall s", "CPU s", "heap GB", "RSS GB", "peer load+CSR+layers s", "peer CSR+layers s",
            "peer RSS GB", "vs load+CSR+layers", "vs CSR+layers", "goal 2x", "RSS < peer", "vs nodewise", "goal 5x",
            "vs peer on 4 KiB pages"]
    table = []
    for model in models:
        peer = summary.get((model, "pytorch"))
        peer4k = summary.get((model, "pytorch-4k"))
        nodewise = summary.get((model, "nodewise"))
        for config in sorted((c for m, c in summary if m == model and c.startswith("layerwise-w")), key=config_order):
            wall, _, figs, _, _ = summary[(model, config)]
            p = peer[2] if peer else None
            full = p["job"] if p else None
            bare = p["build"] + p["layers"] if p and p["build"] is not None else None
            vs_full = full / wall if full and wall else None
            vs_bare = bare / wall if bare and wall else None
            rss_ok = "-" if not p or p["rss"] is None or figs["rss"] is None else \
                ("yes" if figs["rss"] < p["rss"] else "no")
            nw = None
            if nodewise and nodewise[0] and wall:
                nw = (">= " if nodewise[1] else "") + f"{nodewise[0] / wall:.2f}x"
            table.append([model, config[len("layerwise-w"):], fmt(wall, digits=2), fmt(figs["cpu"]),
                          fmt(figs["heap"], 2**30, 2), fmt(figs["rss"], 2**30, 2), fmt(full, digits=2),
                          fmt(bare, digits=2), fmt(p["rss"] if p else None, 2**30, 2),
                          "-" if vs_full is None else f"{vs_full:.2f}x", "-" if vs_bare is None else f"{vs_bare:.2f}x",
                          # The goal: 2x the peer's loading plus layers (its whole job, the CSR included);
                          # the ratio to its CSR + layers alone is shown beside it.
                          "-" if vs_full is None else ("met" if vs_full >= 2 else "not met"), rss_ok, nw or "-",
                          "-" if nw is None else ("met" if nodewise[0] / wall >= 5 else
                                                  ("not shown" if nodewise[1] else "not met")),
                          # The peer as a script runs by default (glibc's malloc on 4 KiB pages), when the main
                          # peer runs on huge pages as yarn-gnn does.
                          "-" if not peer4k or not peer4k[2]["job"] or not wall
                          else f"{peer4k[2]['job'] / wall:.2f}x"])
    print_table(head, table)
    for model in models:
        for config, what in (("pytorch", "the peer"), ("pytorch-4k", "the peer on 4 KiB pages")):
            peer = summary.get((model, config))
            if peer and peer[2]["load"] is not None:
                t = peer[2]
                print(f"  {model}: {what}: loading {t['load']:.2f} s, CSR {t['build']:.2f} s, layers"
                      f" {t['layers']:.2f} s; its CPU {fmt(t['cpu'])} s, RSS {fmt(t['rss'], 2**30, 2)} GB")

    ablations = [(m, c) for m, c in summary if c.startswith(("pipe-on-w", "fusion-off-w"))]
    if ablations:
        print()
        print("ablations (ABLATIONS=1; > 1 means the default is faster than the variant)")
        for model, config in sorted(ablations):
            on = summary.get((model, "layerwise-w" + config.split("-w")[1]))
            off = summary[(model, config)]
            if on and on[0] and off[0]:
                print(f"  {model}: {label(config)} vs the default: end to end {off[0] / on[0]:.2f}x, CPU seconds"
                      f" {ratio(off[2]['cpu'], on[2]['cpu'])}, layers {ratio(off[2]['layers'], on[2]['layers'])},"
                      f" bytes sent variant/default {ratio(off[2]['sent'], on[2]['sent'])}")

    if limits:
        print()
        print(f"each phase against its limit measured on this machine (scripts/bench/inference-limits.java): the job's"
              f" phase seconds (slowest worker, median), the limit, their ratio; within = at most {GOAL}x the limit"
              f" (+ {SLACK_S * 1000:.0f} ms for the phase's barrier round)")
        head = ["model", "workers", "phase", "measured s", "limit s", "ratio", f"within {GOAL}x", "limit is"]
        table = []
        for model in models:
            for config in sorted((c for m, c in summary if m == model and c.startswith("layerwise-w")),
                                 key=config_order):
                w = int(config[len("layerwise-w"):])
                for phase, measured in summary[(model, config)][3].items():
                    lim = limits.get((model, w, phase))
                    if lim is None:
                        continue  # e.g. job: reading the model and connecting the workers
                    within = "yes" if measured is not None and measured <= GOAL * lim + SLACK_S else "NO"
                    table.append([model, str(w), phase, fmt(measured, digits=2), fmt(lim, digits=2),
                                  ratio(measured, lim), within, LIMIT_NOTES.get(phase, "Gemm + aggregation kernels")])
        print_table(head, table, left=3)

    print()
    print(f"wall s: the command's wall time (JVM start to exit); CPU s: the process's user + system CPU seconds"
          f" (GNU time; less sensitive than wall time to other processes' load, and a killed run's figure is"
          f" what it used until then); job s: the job's own time; construct: reading the"
          f" tables to the CSR and exchange plan (nodewise: read + build); layers: all layers (nodewise: the"
          f" mini-batch computation; PyTorch: construct = loading the arrays + building the CSR, layers include"
          f" sage's sampling); write: output (nodewise: the rest of the job; PyTorch writes nothing). Layer-wise"
          f" phases are the slowest worker's. sent: bytes sent between workers, all workers summed. heap: peak heap"
          f" of the JVM (--local runs every worker as a thread of one JVM, so this is the workers' heap together,"
          f" summed over G1's pools' peaks, an upper bound); RSS: the process's peak resident set (GNU time -v)."
          f" The peer's 'load+CSR+layers' counts loading its .npy arrays; 'CSR+layers' assumes them in memory.")
    print(f"Medians of the runs counted in 'runs'; a configuration whose first run took more than {slow:.0f} s ran"
          f" once. Nodewise ran once, killed at {limit:.0f} s: a '>=' figure is that limit, a lower bound. The"
          f" machine is shared with other work: expect noise of a few tens of percent between runs.")


def ratio(x, y):
    if x is None or y is None:
        return "-"
    if y == 0:
        return "-" if x == 0 else "inf"
    return f"{x / y:.2f}x"


if __name__ == "__main__":
    main()
