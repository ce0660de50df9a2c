import ConsentCore
import ConsentPDF
import Foundation
import SampleStudy

// Renders the sample study's signed consent PDF N times (default 50) and prints median and p90 wall time.
// `Benchmarks/pdf-vs-weasyprint.sh` runs it in release mode next to weasyprint; it is never part of `make test`.
//
// Usage: PDFBenchmark [iterations] [--write out.pdf] [--html out.html]
//   --write   also write the last rendered PDF
//   --html    also write the same consent as ResearchKit's PDF HTML (for weasyprint)

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

/// CPU time of this process in ms: less disturbed than wall time when other builds share the 2 cores.
func processCPUMilliseconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) * 1000 + Double(ts.tv_nsec) / 1e6
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
}

/// The same looping three-stroke signature the tests use.
func sampleStrokes() -> SignatureStrokes {
    var first: [StrokePoint] = []
    for i in 0..<60 {
        let t = Double(i) / 59
        first.append(StrokePoint(x: 0.05 + 0.45 * t, y: min(max(0.55 - 0.25 * sin(t * 4 * .pi) * (1 - t / 2), 0), 1), t: Double(i) * 8))
    }
    var second: [StrokePoint] = []
    for i in 0..<40 {
        let t = Double(i) / 39
        second.append(StrokePoint(x: 0.55 + 0.35 * t, y: 0.6 - 0.2 * sin(t * 3 * .pi), t: 600 + Double(i) * 8))
    }
    return SignatureStrokes(strokes: [first, second, [StrokePoint(x: 0.93, y: 0.35, t: 1000)]], widthMM: 120, heightMM: 40)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var writePath: String?
var htmlPath: String?
if let i = arguments.firstIndex(of: "--write"), i + 1 < arguments.count {
    writePath = arguments[i + 1]
    arguments.removeSubrange(i...(i + 1))
}
if let i = arguments.firstIndex(of: "--html"), i + 1 < arguments.count {
    htmlPath = arguments[i + 1]
    arguments.removeSubrange(i...(i + 1))
}
let iterations = max(20, arguments.first.flatMap(Int.init) ?? 50)

guard let folder = SampleStudy.folder else {
    FileHandle.standardError.write(Data("PDFBenchmark: the sample study resource is missing\n".utf8))
    exit(1)
}
let study = try Study.load(from: folder)
let renderer = ConsentPDFRenderer(
    options: PDFOptions(paper: .a4, timeZone: TimeZone(identifier: "Europe/Berlin") ?? .current, localeIdentifier: "de_DE"))
let signers = [SignerBlock.participant(printedName: "Zoë Müller-Østergaard", strokes: sampleStrokes())]
let signedAt = Date(timeIntervalSince1970: 1_795_352_700)

// One warm-up render: fontconfig's cache and font loading happen once per process.
let clock = ContinuousClock()
var pdf = try renderer.render(study: study, signers: signers, signedAt: signedAt)
let firstStart = clock.now
_ = try renderer.render(study: study, signers: signers, signedAt: signedAt)
let second = milliseconds(clock.now - firstStart)

var times: [Double] = []
var cpuTimes: [Double] = []
for _ in 0..<iterations {
    let start = clock.now
    let cpuStart = processCPUMilliseconds()
    pdf = try renderer.render(study: study, signers: signers, signedAt: signedAt)
    cpuTimes.append(processCPUMilliseconds() - cpuStart)
    times.append(milliseconds(clock.now - start))
}
times.sort()
cpuTimes.sort()
if let writePath { try pdf.writeAtomically(to: URL(fileURLWithPath: writePath)) }
if let htmlPath {
    let png = try SignaturePNG.render(strokes: sampleStrokes(), width: 600, height: 200)
    let html = ResearchKitHTML.document(
        study: study, printedName: signers[0].printedName ?? "", signaturePNG: png,
        date: "2026-11-22 14:05 CET (UTC+01:00)", paper: "A4")
    try Data(html.utf8).write(to: URL(fileURLWithPath: htmlPath))
}
print(
    "consentpdf: \(iterations) renders of the signed sample (\(pdf.pageCount) pages, \(pdf.data.count) bytes): "
        + String(format: "median %.2f ms, p90 %.2f ms, min %.2f ms (second render %.2f ms)",
            percentile(times, 0.5), percentile(times, 0.9), times[0], second))
print(String(format: "consentpdf: CPU time per render: median %.2f ms", percentile(cpuTimes, 0.5)))
print(String(format: "consentpdf_median_ms=%.3f", percentile(times, 0.5)))
print(String(format: "consentpdf_cpu_median_ms=%.3f", percentile(cpuTimes, 0.5)))
