"""The table (and chart) of scripts/bench/cluster: YARN against --local, medians per configuration.

Usage: cluster_table.py RESULTS_TSV CHART_PNG
RESULTS_TSV rows: job, model, config (local-wW or yarn-wW), run, client wall seconds, log, status. Beside each log
are its --metrics summary (LOG minus .log plus .metrics.json) and GNU time's report (in the log itself).
"""
import json
import re
import statistics
import sys


def client_cpu(log):
    """User + system seconds of the client process tree from GNU time's report in the log, or None."""
    try:
        text = open(log, encoding="utf-8", errors="replace").read()
    except OSError:
        return None
    user = re.search(r"User time \(seconds\): ([0-9.]+)", text)
    system = re.search(r"System time \(seconds\): ([0-9.]+)", text)
    if not user or not system:
        return None
    return float(user.group(1)) + float(system.group(1))


def figures(row):
    job, model, cfg, run, wall, log, status = row
    if status != "ok":
        return None
    m = json.load(open(log[: -len(".log")] + ".metrics.json"))
    f = {"wall": float(wall), "job": float(m["seconds"])}
    for phase, s in m.get("phase_seconds", {}).items():
        f["t." + phase] = float(s)
    cc = client_cpu(log)
    local = cfg.startswith("local")
    workers_cpu = float(m.get("worker_cpu_seconds", 0.0))
    # --local workers are threads of the client: its CPU already holds theirs.
    if cc is not None:
        f["cpu"] = cc if local else cc + workers_cpu
    f["rss_gb"] = float(m.get("peak_rss_bytes", 0)) / 1e9
    if job == "train":
        epochs = [float(e["seconds"]) for e in m.get("training", m).get("epochs", [])]
        if len(epochs) > 1:
            f["epoch"] = statistics.median(epochs[1:])
    return f


def main():
    rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1]) if line.strip()]
    groups = {}
    for r in rows:
        f = figures(r)
        key = (r[0], r[1], r[2])
        groups.setdefault(key, {"n": 0, "failed": 0, "values": {}})
        if f is None:
            groups[key]["failed"] += 1
            continue
        groups[key]["n"] += 1
        for k, v in f.items():
            groups[key]["values"].setdefault(k, []).append(v)
    med = {k: {n: statistics.median(v) for n, v in g["values"].items()} for k, g in groups.items()}
    shown = ["job", "wall", "cpu", "t.read-nodes", "t.edges", "t.plan", "t.layer0", "t.layer1", "t.write",
             "epoch", "rss_gb"]
    for job in sorted({k[0] for k in groups}):
        cols = [c for c in shown if any(c in med[k] for k in med if k[0] == job)]
        print()
        print("| %s | config | runs | %s |" % (job, " | ".join(cols)))
        print("| --- | --- | --- | %s |" % " | ".join("---" for _ in cols))
        for key in sorted(k for k in groups if k[0] == job):
            g = groups[key]
            vals = med[key]
            cells = ["%.2f" % vals[c] if c in vals else "-" for c in cols]
            runs = "%d" % g["n"] + (" (%d failed)" % g["failed"] if g["failed"] else "")
            print("| %s | %s | %s | %s |" % (key[1], key[2], runs, " | ".join(cells)))
        print()
        print("YARN / local (medians):")
        for key in sorted(k for k in groups if k[0] == job and k[2].startswith("yarn")):
            # yarn-w1 and yarn-w1-layers both against local-w1
            peer = (key[0], key[1], "local-" + key[2].split("-")[1])
            if peer not in med:
                continue
            ratios = []
            for c in cols:
                a, b = med[key].get(c), med[peer].get(c)
                if a is not None and b:
                    ratios.append("%s %.2fx" % (c, a / b))
            print("  %s %s: %s" % (key[1], key[2], ", ".join(ratios)))
    chart(med, sys.argv[2])


def chart(med, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("(no chart: matplotlib missing)")
        return
    keys = sorted(k for k in med if k[0] == "infer" and "job" in med[k])
    if not keys:
        return
    phases = ["t.read-nodes", "t.edges", "t.plan", "t.layer0", "t.layer1", "t.write"]
    fig, ax = plt.subplots(figsize=(10, 4.5))
    labels = ["%s %s" % (k[1], k[2]) for k in keys]
    bottom = [0.0] * len(keys)
    for p in phases:
        vals = [med[k].get(p, 0.0) for k in keys]
        ax.barh(labels, vals, left=bottom, label=p[2:])
        bottom = [b + v for b, v in zip(bottom, vals)]
    ax.scatter([med[k]["job"] for k in keys], labels, marker="|", s=300, color="black", label="job seconds")
    ax.set_xlabel("seconds (medians; phases of the slowest worker)")
    ax.set_title("infer on scripts/minicluster: YARN against --local, same HDFS inputs")
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    print("chart: " + path)


if __name__ == "__main__":
    main()
