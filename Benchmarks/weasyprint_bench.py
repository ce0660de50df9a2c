"""Renders an HTML file with weasyprint N times; prints median wall and CPU time as key=value lines.

Usage: python weasyprint_bench.py consent.html out.pdf N   (run inside the venv that Benchmarks/run prepares)
"""
import statistics
import sys
import time

import weasyprint

html_path, out_path, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
html = open(html_path, encoding="utf-8").read()
weasyprint.HTML(string=html).write_pdf(out_path)  # warm-up: font discovery and CSS caches
times, cpu = [], []
for _ in range(n):
    start, cpu_start = time.perf_counter(), time.process_time()
    pdf = weasyprint.HTML(string=html).write_pdf()
    cpu.append((time.process_time() - cpu_start) * 1000)
    times.append((time.perf_counter() - start) * 1000)
times.sort()
p90 = times[min(len(times) - 1, round((len(times) - 1) * 0.9))]
print(f"weasyprint {weasyprint.__version__}: {n} renders of the same consent as ResearchKit HTML "
      f"({len(pdf)} bytes): median {statistics.median(times):.2f} ms, p90 {p90:.2f} ms, min {times[0]:.2f} ms")
print(f"weasyprint: CPU time per render: median {statistics.median(cpu):.2f} ms")
print(f"weasyprint_version={weasyprint.__version__}")
print(f"weasyprint_median_ms={statistics.median(times):.3f}")
print(f"weasyprint_cpu_median_ms={statistics.median(cpu):.3f}")
