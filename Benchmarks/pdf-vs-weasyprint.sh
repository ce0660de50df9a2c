#!/usr/bin/env bash
# Renders the sample study's signed consent PDF with ConsentPDF (release build) and the same content as
# ResearchKit's PDF HTML with weasyprint, each at least 20 times, and prints both medians and the ratio.
# Never part of `make test`; `make bench` (Benchmarks/run) measures the same row beside the agent's figures.
# Needs network once (pip install weasyprint into .build/weasyprint-venv).
#
# Usage: Benchmarks/pdf-vs-weasyprint.sh [iterations]   (default 50, at least 20)
set -euo pipefail
cd "$(dirname "$0")/.."

iterations=${1:-50}
(( iterations < 20 )) && iterations=20
work=.build/pdf-benchmark
venv=.build/weasyprint-venv
mkdir -p "$work"

echo "== building PDFBenchmark (release)" >&2
swift build -c release -j 2 --product PDFBenchmark >&2

if [[ ! -x $venv/bin/python ]] || ! "$venv/bin/python" -c 'import weasyprint' 2>/dev/null; then
    echo "== installing weasyprint into $venv" >&2
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q weasyprint >&2
fi

echo "== ConsentPDF" >&2
ours=$(.build/release/PDFBenchmark "$iterations" --write "$work/consentpdf.pdf" --html "$work/consent.html")
echo "$ours" | grep -v '_ms='
ours_ms=$(echo "$ours" | sed -n 's/^consentpdf_median_ms=//p')
ours_cpu=$(echo "$ours" | sed -n 's/^consentpdf_cpu_median_ms=//p')

echo "== weasyprint" >&2
theirs=$("$venv/bin/python" Benchmarks/weasyprint_bench.py "$work/consent.html" "$work/weasyprint.pdf" "$iterations")
echo "$theirs" | grep -v "="
theirs_ms=$(echo "$theirs" | sed -n 's/^weasyprint_median_ms=//p')
theirs_cpu=$(echo "$theirs" | sed -n 's/^weasyprint_cpu_median_ms=//p')

echo "pages: consentpdf $(pdfinfo "$work/consentpdf.pdf" | awk '/^Pages:/ {print $2}'), weasyprint $(pdfinfo "$work/weasyprint.pdf" | awk '/^Pages:/ {print $2}')"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores (other builds inflate wall times)"
python3 -c "
ours, theirs = float('$ours_ms'), float('$theirs_ms')
ours_cpu, theirs_cpu = float('$ours_cpu'), float('$theirs_cpu')
print(f'median wall: consentpdf {ours:.2f} ms, weasyprint {theirs:.2f} ms, ratio {theirs / ours:.1f}x')
print(f'median CPU:  consentpdf {ours_cpu:.2f} ms, weasyprint {theirs_cpu:.2f} ms, ratio {theirs_cpu / ours_cpu:.1f}x')
print('goal (<= 50 ms median and >= 20x faster, wall):', 'met' if ours <= 50 and theirs / ours >= 20 else 'NOT met')
"
