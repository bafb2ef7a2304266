"""Draws the benchmarks' charts beside their tables, from the same results.tsv the tables are made from.

Usage (Debian's /usr/bin/python3 with python3-matplotlib):
  plot.py training RESULTS_TSV WARMUP OUT.png [TITLE]
      epoch seconds and peak RSS per model: ours (each worker count) against PyTorch, medians over the runs
  plot.py curves RESULTS_TSV WARMUP OUT.png [TITLE]
      training loss and validation accuracy against epoch and against seconds, one line per configuration of
      ours (each staleness, backend, worker count), from the metrics.json beside each run's log (first run)
  plot.py faults RESULTS_TSV 0 OUT.png [TITLE]
      the fault sweep (scripts/bench/faults): extra seconds over the undisturbed run per fault, coloured by its
      outcome (recovered, failed cleanly, BAD), one panel per job
  plot.py inference RESULTS_TSV LIMIT OUT.png [TITLE [LIMITS_TSV]]
      wall time per configuration as stacked phases (construction, layers, write, and the rest: JVM start,
      reading the model, the commit), per model; a run killed at LIMIT seconds is drawn as a hatched lower bound;
      with LIMITS_TSV (scripts/bench/inference-limits.java) a second row: each phase's time over its limit, per
      worker count, against the 1.5x goal
TITLE (the graph and settings, say) heads the chart.
Without matplotlib it says so and exits 0: a chart is never a reason for a benchmark to fail. Bad arguments or an
unreadable results file exit 2 with one line.
"""
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OURS_COLORS = ["tab:blue", "tab:cyan", "tab:green", "tab:purple"]


def load_matplotlib():
    try:
        import matplotlib
    except ImportError:
        print("bench: matplotlib is missing (apt-get install python3-matplotlib): no chart drawn")
        sys.exit(0)
    matplotlib.use("Agg")  # files only, no display
    import matplotlib.pyplot as plt
    return plt


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def read_tsv(path, columns):
    rows = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            fields = line.rstrip("\n").split("\t")
            if len(fields) != columns:
                raise ValueError(f"{path}:{n}: {len(fields)} columns, expected {columns}")
            rows.append(fields)
    return rows


def training(results, warmup, out, title):
    """Medians per (model, run name): epoch seconds after warm-up, peak RSS in GB (the 9th column, peak heap, unused)."""
    figures = {}
    for model, name, _, secs, _, rss, status, _, _ in read_tsv(results, 9):
        f = figures.setdefault(model, {}).setdefault(name, {"epoch": [], "rss": []})
        if status == "ok":
            f["epoch"].append(statistics.median([float(x) for x in secs.split(",")][warmup:]))
            f["rss"].append(int(rss) / 2**20 if int(rss) > 0 else None)
    if not figures:
        print(f"bench: {results} has no runs: no chart drawn")
        return
    plt = load_matplotlib()
    models = list(figures)
    names = sorted({n for m in figures.values() for n in m}, key=lambda n: (n == "pytorch", n))
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    width = 0.8 / len(names)
    for ax, key, label in ((axes[0], "epoch", "median epoch seconds"), (axes[1], "rss", "peak RSS (GB)")):
        for i, name in enumerate(names):
            values = [median(figures[m].get(name, {}).get(key, [])) for m in models]
            xs = [j + (i - (len(names) - 1) / 2) * width for j in range(len(models))]
            color = "tab:orange" if name == "pytorch" else OURS_COLORS[i % len(OURS_COLORS)]
            bars = ax.bar(xs, [v or 0 for v in values], width, label=label_of(name), color=color)
            for b, v in zip(bars, values):
                ax.annotate("failed" if v is None else f"{v:.2f}", (b.get_x() + b.get_width() / 2, b.get_height()),
                            ha="center", va="bottom", fontsize=8)
        ax.set_xticks(range(len(models)))
        ax.set_xticklabels(models)
        ax.set_ylabel(label)
        ax.set_ylim(top=ax.get_ylim()[1] * 1.3)  # room for the legend and the labels above the bars
        ax.grid(axis="y", alpha=0.3)
    axes[0].set_title("training: epoch time (lower is faster)")
    axes[1].set_title("training: peak memory of the process")
    axes[0].legend(fontsize=8, loc="upper left")
    save(fig, out, title)
    print(f"bench: chart {out}")


def curves(results, out, title):
    """Loss and validation accuracy per epoch and per second, the first ok run of each (model, configuration)."""
    import json
    lines = {}
    for model, name, _, _, _, _, status, log, _ in read_tsv(results, 9):
        metrics = log[:-len(".log")] + ".metrics.json"
        if status == "ok" and name != "pytorch" and (model, name) not in lines and os.path.exists(metrics):
            with open(metrics) as f:
                lines[(model, name)] = json.load(f)["epochs"]
    if not lines:
        print(f"bench: {results} has no runs with metrics: no chart drawn")
        return
    plt = load_matplotlib()
    models = sorted({m for m, _ in lines})
    fig, axes = plt.subplots(len(models), 2, figsize=(11, 4 * len(models)), squeeze=False)
    for row, model in enumerate(models):
        for (m, name), epochs in sorted(lines.items()):
            if m != model:
                continue
            xs = [e["epoch"] for e in epochs]
            secs = []
            total = 0.0
            for e in epochs:
                total += e["seconds"]
                secs.append(total)
            for col, x in ((0, xs), (1, secs)):
                ax = axes[row][col]
                ax.plot(x, [e["val_accuracy"] for e in epochs], label=label_of(name) + " val acc")
                ax.plot(x, [e["loss"] for e in epochs], linestyle="--", alpha=0.6, label=label_of(name) + " loss")
        axes[row][0].set_xlabel("epoch")
        axes[row][1].set_xlabel("seconds")
        for col in (0, 1):
            axes[row][col].set_title(f"{model}: validation accuracy (solid) and loss (dashed)")
            axes[row][col].grid(alpha=0.3)
        axes[row][0].legend(fontsize=7)
    save(fig, out, title)
    print(f"bench: chart {out}")


def faults(results, out, title):
    """Bars of extra seconds per fault (rows: job, fault, hook, outcome, seconds, extra), coloured by outcome."""
    rows = [r for r in read_tsv(results, 6) if r[1] != "undisturbed"]
    if not rows:
        print(f"bench: {results} has no faults: no chart drawn")
        return
    plt = load_matplotlib()
    jobs = sorted({r[0] for r in rows})
    fig, axes = plt.subplots(1, len(jobs), figsize=(6 * len(jobs), 4.5), squeeze=False)
    colors = {"recovered": "tab:green", "failed": "tab:orange"}
    for ax, job in zip(axes[0], jobs):
        mine = [r for r in rows if r[0] == job]
        values = [float(r[5]) for r in mine]
        shades = [colors.get(r[3].split()[0], "tab:red") for r in mine]
        ax.bar(range(len(mine)), values, color=shades)
        ax.set_xticks(range(len(mine)))
        ax.set_xticklabels([r[1] for r in mine], rotation=60, ha="right", fontsize=8)
        ax.axhline(0, color="black", linewidth=0.6)
        ax.set_ylabel("seconds beyond the undisturbed run")
        ax.set_title(f"{job}: green recovered, orange failed cleanly, red BAD")
        ax.grid(axis="y", alpha=0.3)
    save(fig, out, title)
    print(f"bench: chart {out}")


def save(fig, out, title):
    if title:
        fig.suptitle(title, fontsize=9)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def label_of(name):
    if name == "pytorch":
        return "PyTorch"
    if name.startswith("ours-w"):
        rest = name[len("ours-w"):].split("-")
        label = f"yarn-gnn, {rest[0]} worker(s)"
        for part in rest[1:]:
            label += f", {part[len('remote'):]} tensor workers" if part.startswith("remote") else \
                f", staleness {part[1:]}" if part.startswith("s") else f", {part}"
        return label
    return name


def inference(results, limit, out, title, limits_file=None):
    sys.path.insert(0, HERE)
    import inference_table  # the table's own log parser: the chart shows the table's figures

    runs = {}
    for model, config, _, wall, status, log in read_tsv(results, 6):
        runs.setdefault(model, {}).setdefault(config, []).append((float(wall), status, log))
    if not runs:
        print(f"bench: {results} has no runs: no chart drawn")
        return
    limits = inference_table.read_limits(limits_file)
    plt = load_matplotlib()
    phases = [("construct", "construction", "tab:blue"), ("layers", "layers", "tab:green"),
              ("write", "write", "tab:purple")]
    rows = 2 if limits else 1
    fig, axes = plt.subplots(rows, len(runs), figsize=(5.5 * len(runs), 4.2 * rows), squeeze=False)
    for ax, (model, configs) in zip(axes[0], runs.items()):
        names = sorted(configs, key=inference_table.config_order)
        labelled = set()  # each phase named once in the legend, on the first bar that has it

        def label(name):
            if name in labelled:
                return None
            labelled.add(name)
            return name

        for x, config in enumerate(names):
            ok = [r for r in configs[config] if r[1] == "ok"]
            if not ok:
                timed_out = any(r[1] == "timeout" for r in configs[config])
                ax.bar(x, limit if timed_out else 0, 0.6, color="lightgrey", hatch="//", edgecolor="grey")
                ax.annotate(f">= {limit:.0f} s (killed)" if timed_out else "failed", (x, limit if timed_out else 0),
                            ha="center", va="bottom", fontsize=8)
                continue
            parsed = [inference_table.parse(r[2]) for r in ok]
            wall = median([r[0] for r in ok])
            bottom = 0.0
            for key, name, color in phases:
                v = median([p[key] for p in parsed]) or 0.0
                ax.bar(x, v, 0.6, bottom=bottom, color=color, label=label(name))
                bottom += v
            ax.bar(x, max(wall - bottom, 0.0), 0.6, bottom=bottom, color="lightgrey",
                   label=label("rest (JVM, model, commit)"))
            ax.annotate(f"{wall:.1f} s", (x, wall), ha="center", va="bottom", fontsize=8)
        ax.set_xticks(range(len(names)))
        ax.set_xticklabels([inference_table.label(c).replace(" (inference_torch.py)", "").replace(", ", ",\n")
                            for c in names], fontsize=7)
        ax.set_ylabel("wall seconds (medians)")
        ax.set_title(f"inference, {model}: where the time goes")
        ax.grid(axis="y", alpha=0.3)
        ax.set_ylim(top=ax.get_ylim()[1] * 1.35)  # room for the legend above the bars
        ax.legend(fontsize=8, ncol=2, loc="upper right")
    if limits:
        for ax, (model, configs) in zip(axes[1], runs.items()):
            layerwise = sorted((c for c in configs if c.startswith("layerwise-w")), key=inference_table.config_order)
            width = 0.8 / max(1, len(layerwise))
            ratios = {}  # config -> {phase: seconds / limit}; a phase whose limit is 0 has no ratio to draw
            order = []  # the phases in the job's order
            for config in layerwise:
                w = int(config[len("layerwise-w"):])
                ok = [inference_table.parse(r[2]) for r in configs[config] if r[1] == "ok"]
                keys = list(dict.fromkeys(p for f in ok for p in f["phases"]))
                order = order if len(order) >= len(keys) else keys
                measured = {p: median([f["phases"].get(p) for f in ok]) for p in keys}
                ratios[config] = {p: m / limits[(model, w, p)] for p, m in measured.items()
                                  if m is not None and limits.get((model, w, p))}
            names = [p for p in order if any(p in r for r in ratios.values())]
            for i, config in enumerate(layerwise):
                w = config[len("layerwise-w"):]
                pairs = ratios[config]
                xs = [names.index(p) + (i - (len(layerwise) - 1) / 2) * width for p in pairs]
                ax.bar(xs, list(pairs.values()), width, color=OURS_COLORS[i % len(OURS_COLORS)],
                       label=f"{w} worker{'s' if w != '1' else ''}")
            ax.axhline(inference_table.GOAL, color="tab:red", linestyle="--", linewidth=1, label="goal: 1.5x")
            ax.axhline(1, color="black", linewidth=0.6)
            ax.set_xticks(range(len(names)))
            ax.set_xticklabels(names, rotation=30, ha="right", fontsize=8)
            ax.set_yscale("log")
            ax.set_ylabel("phase seconds / limit (log)")
            ax.set_title(f"{model}: each phase over its measured limit")
            ax.grid(axis="y", alpha=0.3)
            ax.legend(fontsize=8)
    save(fig, out, title)
    print(f"bench: chart {out}")


def main(argv):
    try:
        if len(argv) not in (4, 5, 6) or (len(argv) == 6 and argv[0] != "inference"):
            raise ValueError(f"{len(argv)} arguments")
        kind, results, number, out = argv[:4]
        title = argv[4] if len(argv) >= 5 else ""
        if kind == "training":
            training(results, int(number), out, title)
        elif kind == "faults":
            faults(results, out, title)
        elif kind == "curves":
            curves(results, out, title)
        elif kind == "inference":
            inference(results, float(number), out, title, argv[5] if len(argv) == 6 else None)
        else:
            raise ValueError(f"unknown chart '{kind}' (training, curves, faults or inference)")
    except ValueError as e:
        print(f"plot.py: {e}\nusage: plot.py training|curves|faults|inference RESULTS_TSV WARMUP|LIMIT OUT.png [TITLE [LIMITS_TSV]]",
              file=sys.stderr)
        return 2
    except OSError as e:
        print(f"plot.py: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
