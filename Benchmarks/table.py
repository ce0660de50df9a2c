"""Prints the ROW lines of the benchmark drivers (tab-separated) as one Markdown table."""
import sys

header = ["metric", "ours", "baseline (same run)", "ratio", "goal", "met?"]
rows = []
for line in open(sys.argv[1], encoding="utf-8"):
    parts = line.rstrip("\n").split("\t")
    if parts[0] == "ROW" and len(parts) == 7:
        rows.append(parts[1:])
widths = [max(len(r[i]) for r in rows + [header]) for i in range(len(header))]

def show(cells):
    print("| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths)) + " |")

show(header)
print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
for r in rows:
    show(r)
