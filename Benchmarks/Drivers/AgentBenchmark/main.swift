import Foundation
import Glibc

// The benchmark driver of `make bench` (Benchmarks/run): drives a release consentd over its UNIX socket exactly as
// a kiosk UI would and measures each figure next to a baseline taken in the same run. Each mode prints its table
// rows (tab-separated, prefixed ROW) on stdout and details on stderr. Never part of `make test`.
//
// Usage: AgentBenchmark MODE --consentd PATH --work DIR [options]
//   protocol                 pipelined session.sync req/s and connect+negotiate+close/s vs a socat echo
//   consent [--count N]      flow.start → flow.complete median, RSS idle / after N and 2N consents, start-up time
//           [--memory-floor-foundation PATH --memory-floor-stdlib PATH]   idle programs whose RSS is the floor
//   ink [--rate HZ] [--frames N] [--latency]
//                            pad frames written into a FIFO → ink.points read on the socket, vs the same FIFO read
//                            without the agent; agent CPU% and dropped points
//   speech [--rounds N]      speech.get → a review section's first audio, uncached, vs the same from the cache

let arguments = Array(CommandLine.arguments.dropFirst())
guard let mode = arguments.first else { fail("usage: AgentBenchmark protocol|consent|ink --consentd PATH --work DIR") }

func option(_ name: String) -> String? {
    guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return nil }
    return arguments[i + 1]
}

guard let consentdPath = option("--consentd"), let workPath = option("--work") else {
    fail("--consentd PATH and --work DIR are required")
}
Settings.consentd = consentdPath
Settings.work = workPath
try? FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
// consentd binds its socket here and refuses a folder other users may enter.
chmod(work, 0o750)
signal(SIGPIPE, SIG_IGN)
// Every mode is bounded: a hung agent (or echo) ends the run instead of stalling `make bench`.
alarm(UInt32(ProcessInfo.processInfo.environment["BENCH_MODE_TIMEOUT"].flatMap(UInt32.init) ?? 300))

switch mode {
case "protocol": runProtocol()
case "consent":
    runConsent(
        count: option("--count").flatMap(Int.init) ?? 100,
        memoryFloors: (option("--memory-floor-foundation"), option("--memory-floor-stdlib")))
case "ink":
    runInk(
        rate: option("--rate").flatMap(Int.init) ?? 1000, frames: option("--frames").flatMap(Int.init) ?? 10_000,
        latencyRow: arguments.contains("--latency"))
case "speech": runSpeech(rounds: option("--rounds").flatMap(Int.init) ?? 3)
default: fail("unknown mode \(mode)")
}
