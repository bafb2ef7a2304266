"""Prints scripts/bench/inference's table: medians per configuration, then the ratios Deal's ideas are judged by.

Usage: inference_table.py RESULTS_TSV NODEWISE_LIMIT SLOW_SECONDS
RESULTS_TSV lines: model, config, run, wall seconds, status (ok|timeout|failed...), log file. Each log holds the
command's output (the job's `wrote ... in S s` line, per-worker `stats:` lines or the nodewise phase lines) and,
when GNU time ran it, its -v report.
"""
import re
import statistics
import sys

import json

CONFIGS = ["nodewise", "layerwise", "pipe-off", "fusion-off", "pytorch"]
LABELS = {
    "nodewise": "nodewise baseline (1 JVM)",
    "layerwise": "layer-wise, all ideas on",
    "pipe-off": "layer-wise, pipelining off",
    "fusion-off": "layer-wise, fusion off",
    "pytorch": "PyTorch peer (inference_torch.py)",
}
CONSTRUCTION = ("t.job", "t.read-nodes", "t.route-nodes", "t.edges", "t.plan")


def parse(log):
    """The figures of one run: job seconds, phase seconds, bytes sent, peak heap and peak RSS (None if absent)."""
    text = open(log, errors="replace").read()
    f = {"job": None, "construct": None, "layers": None, "write": None, "sent": None, "heap": None, "rss": None,
         "cpu": None, "load": None, "build": None}
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


def main():
    results_file, limit, slow = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
    rows = {}
    for line in open(results_file):
        model, config, _, wall, status, log = line.rstrip("\n").split("\t")
        rows.setdefault((model, config), []).append((float(wall), status, parse(log)))
    models = list(dict.fromkeys(m for m, _ in rows))

    head = ["model", "configuration", "runs", "wall s", "CPU s", "job s", "construct s", "layers s", "write s",
            "sent MB", "heap GB", "RSS GB"]
    table, summary = [], {}
    for model in models:
        for config in CONFIGS:
            runs = rows.get((model, config))
            if not runs:
                continue
            ok = [r for r in runs if r[1] == "ok"]
            timed_out = any(r[1] == "timeout" for r in runs)
            figs = {k: median([r[2][k] for r in ok]) for k in ("job", "construct", "layers", "write", "sent", "load", "build",
                                                                "heap", "rss", "cpu")}
            if not ok and timed_out:
                # What a killed run used until the limit: lower bounds, like its time.
                killed = [r[2] for r in runs if r[1] == "timeout"]
                figs.update({k: median([f[k] for f in killed]) for k in ("cpu", "rss")})
            if ok:
                wall = median([r[0] for r in ok])
                wall_s = fmt(wall, digits=2)
            elif timed_out:
                wall, wall_s = limit, f">= {limit:.0f}"
            else:
                wall, wall_s = None, "FAILED"
            summary[(model, config)] = (wall, timed_out and not ok, figs)
            table.append([model, LABELS[config], str(len(ok) or len(runs)), wall_s,
                          (">= " if not ok and figs["cpu"] is not None else "") + fmt(figs["cpu"]),
                          fmt(figs["job"]),
                          fmt(figs["construct"]), fmt(figs["layers"]), fmt(figs["write"]),
                          fmt(figs["sent"], 1e6), fmt(figs["heap"], 2**30, 2), fmt(figs["rss"], 2**30, 2)])
    widths = [max(len(r[i]) for r in [head] + table) for i in range(len(head))]

    def line(r):
        return "  ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths)))
    print(line(head))
    print("  ".join("-" * w for w in widths))
    for r in table:
        print(line(r))

    print()
    print("ratios (medians; > 1 means the first named is faster)")
    for model in models:
        def ratio(slow_cfg, fast_cfg, key):
            a, b = summary.get((model, slow_cfg)), summary.get((model, fast_cfg))
            if not a or not b:
                return "-"
            x = a[0] if key == "wall" else a[2][key]
            y = b[0] if key == "wall" else b[2][key]
            if x is None or y is None or y == 0:
                return "-"
            bound = ">= " if a[1] and key in ("wall", "cpu") else ""
            return f"{bound}{x / y:.2f}x"
        nw_bound = summary.get((model, "nodewise"), (None, False, None))[1]
        print(f"  {model}: layer-wise vs nodewise speed-up, end to end: {ratio('nodewise', 'layerwise', 'wall')}"
              f" (goal >= 5x); CPU seconds: {ratio('nodewise', 'layerwise', 'cpu')};"
              f" layers phase alone: {ratio('nodewise', 'layerwise', 'layers')}"
              + (" (nodewise hit the time limit: its figures are lower bounds)" if nw_bound else ""))
        print(f"  {model}: pipelining on vs off: end to end {ratio('pipe-off', 'layerwise', 'wall')},"
              f" CPU seconds {ratio('pipe-off', 'layerwise', 'cpu')},"
              f" layers phase {ratio('pipe-off', 'layerwise', 'layers')}")
        print(f"  {model}: fusion on vs off: end to end {ratio('fusion-off', 'layerwise', 'wall')},"
              f" CPU seconds {ratio('fusion-off', 'layerwise', 'cpu')},"
              f" construct+layers {ratio_sum(summary, model)}, bytes sent off/on"
              f" {ratio('fusion-off', 'layerwise', 'sent')}")
        torch = summary.get((model, "pytorch"))
        ours = summary.get((model, "layerwise"))
        if torch and ours and ours[0] and torch[2]["job"]:
            t = torch[2]
            print(f"  {model}: yarn-gnn end to end (Parquet in and out, JVM start) vs the PyTorch peer's loading +"
                  f" CSR + layers: {t['job'] / ours[0]:.2f}x; vs its CSR + layers (arrays already in memory):"
                  f" {(t['build'] + t['layers']) / ours[0]:.2f}x (goal >= 2x); the peer's split: loading"
                  f" {t['load']:.1f} s, CSR {t['build']:.1f} s, layers {t['layers']:.1f} s")

    print()
    print(f"wall s: the command's wall time (JVM start to exit); CPU s: the process's user + system CPU seconds"
          f" (GNU time; less sensitive than wall time to other processes' load, and a killed run's figure is"
          f" what it used until then); job s: the job's own time; construct: reading the"
          f" tables to the CSR and exchange plan (nodewise: read + build); layers: all layers (nodewise: the"
          f" mini-batch computation; PyTorch: construct = loading the arrays + building the CSR, layers include"
          f" sage's sampling); write: output (nodewise: the rest of the job; PyTorch writes nothing). Layer-wise"
          f" phases are the"
          f" slowest worker's. sent: bytes sent between workers, all workers summed. heap: peak heap of the JVM"
          f" (--local runs every worker as a thread of one JVM, so this is the workers' heap together, summed over"
          f" G1's pools' peaks, an upper bound); RSS: the process's peak resident set (GNU time -v).")
    print(f"Medians of the runs counted in 'runs'; a layer-wise configuration whose first run took more than"
          f" {slow:.0f} s ran once. Nodewise ran once, killed at {limit:.0f} s: a '>=' figure is that limit, a lower"
          f" bound. The machine is shared with other work: expect noise of a few tens of percent between runs.")


def ratio_sum(summary, model):
    a, b = summary.get((model, "fusion-off")), summary.get((model, "layerwise"))
    if not a or not b:
        return "-"
    x = [a[2]["construct"], a[2]["layers"]]
    y = [b[2]["construct"], b[2]["layers"]]
    if None in x or None in y or sum(y) == 0:
        return "-"
    return f"{sum(x) / sum(y):.2f}x"


if __name__ == "__main__":
    main()
