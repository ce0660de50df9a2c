import Foundation
import Glibc

// Small POSIX helpers for the benchmark driver: a line-oriented UNIX socket client, /proc readers, statistics.
// Nothing here is used by the agent; the driver speaks the protocol exactly as a kiosk UI would.

/// The driver's command line: set once in main.swift before any measurement starts.
enum Settings {
    nonisolated(unsafe) static var consentd = ""
    nonisolated(unsafe) static var work = ""
}

var work: String { Settings.work }

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("AgentBenchmark: \(message)\n".utf8))
    exit(2)
}

func note(_ message: String) {
    FileHandle.standardError.write(Data("  \(message)\n".utf8))
}

/// Monotonic nanoseconds (CLOCK_MONOTONIC, as ContinuousClock on Linux), cheap enough to stamp every event.
@inline(__always)
func nowNanoseconds() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
}

func threadCPUNanoseconds() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
}

/// Sleeps until the absolute monotonic instant `deadline` (ns).
func sleep(untilNanoseconds deadline: Int64) {
    var ts = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
    while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    guard !sorted.isEmpty else { return .nan }
    return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
}

func median(_ values: [Double]) -> Double { percentile(values.sorted(), 0.5) }

/// A new UNIX stream socket and `path`'s address, handed to `call` (connect or bind); the socket, or nil when
/// `call` fails.
private func unixSocket(_ path: String, _ call: (Int32, UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32? {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { return nil }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { fail("socket path too long: \(path)") }
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        raw.copyBytes(from: bytes)
        raw[bytes.count] = 0
    }
    let rc = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { call(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    if rc != 0 {
        close(fd)
        return nil
    }
    return fd
}

func connectUnix(_ path: String) -> Int32? { unixSocket(path) { Glibc.connect($0, $1, $2) } }

/// A socket listening on `path` for one connection at a time; nil when it cannot bind or listen.
func listenUnix(_ path: String) -> Int32? {
    unixSocket(path) { fd, address, length in bind(fd, address, length) == 0 ? listen(fd, 1) : -1 }
}

func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
    var offset = 0
    while offset < bytes.count {
        let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
        if n < 0 {
            if errno == EINTR { continue }
            return false
        }
        offset += n
    }
    return true
}

func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool { bytes.withUnsafeBytes { writeAll(fd, $0) } }
func writeAll(_ fd: Int32, _ string: String) -> Bool { writeAll(fd, Array(string.utf8)) }

/// A blocking, buffered line reader on one descriptor.
final class LineReader {
    let fd: Int32
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    private var start = 0
    private var end = 0

    init(fd: Int32) { self.fd = fd }

    /// Calls `body` with the next line (without its newline); nil at end of stream.
    func next<T>(_ body: (UnsafeRawBufferPointer) -> T) -> T? {
        while true {
            if let newline = buffer[start..<end].firstIndex(of: UInt8(ascii: "\n")) {
                let result = buffer.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[start..<newline])) }
                start = newline + 1
                return result
            }
            if start > 0 {
                buffer.withUnsafeMutableBytes { raw in
                    let count = end - start
                    if count > 0 { memmove(raw.baseAddress!, raw.baseAddress! + start, count) }
                }
                end -= start
                start = 0
            }
            if end == buffer.count { buffer += [UInt8](repeating: 0, count: buffer.count) }
            let n = buffer.withUnsafeMutableBytes { raw in read(fd, raw.baseAddress! + end, raw.count - end) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { return nil }
            end += n
        }
    }

    func line() -> String? { next { String(decoding: $0, as: UTF8.self) } }
}

/// One protocol client: hello, negotiate, then request/reply calls (events, if subscribed, are skipped).
final class AgentClient {
    let fd: Int32
    let reader: LineReader
    private var nextID = 1

    init?(path: String) {
        guard let fd = connectUnix(path) else { return nil }
        self.fd = fd
        reader = LineReader(fd: fd)
    }

    deinit { close(fd) }

    func negotiate() {
        guard let hello = reader.line(), hello.contains("\"hello\"") else { fail("no hello from the agent") }
        let reply = call("session.negotiate", #"{"client":"AgentBenchmark","version":1}"#)
        guard reply.contains("\"session\"") else { fail("negotiation failed: \(reply)") }
    }

    /// Sends one request and returns its reply line (events before it are dropped).
    @discardableResult
    func call(_ method: String, _ params: String = "{}") -> String {
        let id = nextID
        nextID += 1
        guard writeAll(fd, "{\"jsonrpc\":\"2.0\",\"id\":\(id),\"method\":\"\(method)\",\"params\":\(params)}\n") else {
            fail("write to the agent failed (\(method))")
        }
        let marker = "\"id\":\(id),"
        let marker2 = "\"id\":\(id)}"
        while let line = reader.line() {
            if line.hasPrefix("{\"jsonrpc\":\"2.0\",\"method\"") { continue }  // an event
            if line.contains(marker) || line.contains(marker2) { return line }
        }
        fail("the agent closed the connection during \(method)")
    }
}

/// The string value of the first `"key":"…"` in a JSON line (enough for ids and steps, which are never escaped).
func stringValue(_ key: String, in line: String) -> String? {
    guard let range = line.range(of: "\"\(key)\":\"") else { return nil }
    let rest = line[range.upperBound...]
    guard let close = rest.firstIndex(of: "\"") else { return nil }
    return String(rest[..<close])
}

// MARK: /proc

struct MemoryFigures {
    var rssKB: Int
    var pssKB: Int
    var ussKB: Int
}

func memory(of pid: Int32) -> MemoryFigures? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/smaps_rollup", encoding: .utf8) else { return nil }
    var values: [String: Int] = [:]
    for line in text.split(separator: "\n") {
        let parts = line.split(separator: " ", omittingEmptySubsequences: true)
        if parts.count >= 2, parts[0].hasSuffix(":"), let v = Int(parts[1]) { values[String(parts[0].dropLast())] = v }
    }
    guard let rss = values["Rss"] else { return nil }
    return MemoryFigures(
        rssKB: rss, pssKB: values["Pss"] ?? 0, ussKB: (values["Private_Clean"] ?? 0) + (values["Private_Dirty"] ?? 0))
}

/// CPU time of every thread of `pid` (ns), from /proc/PID/task/*/schedstat (nanosecond resolution).
func processCPUNanoseconds(_ pid: Int32) -> Int64 {
    guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else { return 0 }
    var total: Int64 = 0
    for task in tasks {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/schedstat", encoding: .utf8),
            let first = text.split(separator: " ").first, let ns = Int64(first)
        else { continue }
        total += ns
    }
    return total
}

/// User and system CPU time of `pid` in clock ticks (/proc/PID/stat fields 14 and 15).
func userSystemTicks(_ pid: Int32) -> (user: Int, system: Int) {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = text.lastIndex(of: ")")
    else { return (0, 0) }
    let fields = text[text.index(after: close)...].split(separator: " ")
    // fields[0] is the state (field 3), so utime (14) and stime (15) are at 11 and 12.
    guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return (0, 0) }
    return (user, system)
}

func loadAverage() -> String {
    ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?").split(separator: " ").prefix(3)
        .joined(separator: " ")
}

// MARK: Processes

/// A child process (the agent or socat), stopped with SIGTERM on `stop()`.
final class Child {
    let process = Process()
    let startNanoseconds: Int64

    init(_ executable: String, _ arguments: [String], log: String) {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        FileManager.default.createFile(atPath: log, contents: nil)
        let handle = FileHandle(forWritingAtPath: log)
        process.standardError = handle
        process.standardOutput = handle
        startNanoseconds = nowNanoseconds()
        do { try process.run() } catch { fail("cannot start \(executable): \(error)") }
    }

    var pid: Int32 { process.processIdentifier }

    /// Waits until `socket` accepts a connection; returns the time from spawn to ready (ms), nil on timeout.
    func waitReady(socket: String, timeout: Double = 10) -> Double? {
        let deadline = nowNanoseconds() + Int64(timeout * 1e9)
        while nowNanoseconds() < deadline {
            if let fd = connectUnix(socket) {
                let ready = nowNanoseconds()
                close(fd)
                return Double(ready - startNanoseconds) / 1e6
            }
            if !process.isRunning { return nil }
            usleep(200)
        }
        return nil
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }
}

func which(_ name: String) -> String? {
    for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
        let path = "\(dir)/\(name)"
        if access(path, X_OK) == 0 { return path }
    }
    return nil
}

// MARK: Output

/// One row of the table, tab-separated on stdout: metric, ours, baseline, ratio, goal, met.
func row(_ metric: String, _ ours: String, _ baseline: String, _ ratio: String, _ goal: String, _ met: Bool?) {
    let verdict = met.map { $0 ? "yes" : "NO" } ?? "n/a"
    print(["ROW", metric, ours, baseline, ratio, goal, verdict].joined(separator: "\t"))
    fflush(nil)
}

func f(_ v: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", v) }

// MARK: The processes under test

/// Starts a consentd with a fresh socket (and the given state directory) and waits until it accepts. BENCH_STUDY,
/// when set, is the study it runs instead of the bundled sample (a copy of it with more languages, say).
func startAgent(_ name: String, state: String? = nil, extra: [String] = []) -> (Child, String, Double) {
    let socket = "\(work)/\(name).sock"
    unlink(socket)
    let study = ProcessInfo.processInfo.environment["BENCH_STUDY"].flatMap { $0.isEmpty ? nil : ["--study", $0] } ?? []
    let agent = Child(
        Settings.consentd,
        ["--socket", socket, "--state-dir", state ?? "\(work)/\(name)-state", "--log-level", "warning"] + study + extra,
        log: "\(work)/\(name).log")
    let timeout = ProcessInfo.processInfo.environment["BENCH_READY_TIMEOUT"].flatMap(Double.init) ?? 10
    guard let ready = agent.waitReady(socket: socket, timeout: timeout) else {
        let log = (try? String(contentsOfFile: "\(work)/\(name).log", encoding: .utf8)) ?? ""
        fail("consentd did not become ready; its log:\n\(log)")
    }
    return (agent, socket, ready)
}

/// A socat line echo on a UNIX socket. `cat` (a process per connection) for streams: socat's own `PIPE` echo
/// deadlocks once more than a pipe's worth of bytes is in flight. `PIPE` for one-line connections (no exec).
func startEcho(_ name: String, pipe: Bool = false) -> (Child, String) {
    guard let socat = which("socat") else { fail("socat is not installed (scripts/ensure-deps installs it)") }
    let socket = "\(work)/\(name).sock"
    unlink(socket)
    let echo = Child(socat, ["UNIX-LISTEN:\(socket),fork", pipe ? "PIPE" : "EXEC:cat"], log: "\(work)/\(name).log")
    guard echo.waitReady(socket: socket) != nil else { fail("socat did not start") }
    return (echo, socket)
}

/// Starts a flow of the sample study (`start`: `flow.start`'s params) and scripts it, as a UI would, through
/// eligibility and the visual scenes to the sharing page: returns its id and a `call` that sends a method with the
/// flow's id (and `params`, JSON members), failing on an error.
func flowAtSharing(_ client: AgentClient, start: String = "{}") -> (flow: String, call: (String, String) -> String) {
    let started = client.call("flow.start", start)
    guard let flow = stringValue("flow", in: started) else { fail("flow.start: \(started)") }
    let call = { (method: String, params: String) -> String in
        let reply = client.call(method, "{\"flow\":\"\(flow)\"\(params.isEmpty ? "" : "," + params)}")
        if reply.contains("\"error\"") { fail("\(method): \(reply)") }
        return reply
    }
    _ = call("eligibility.answer", #""answers":[true,true,false,true]"#)
    var reply = call("flow.next", #""step":"eligibility""#)
    // The sample study begins with its key information.
    if stringValue("step", in: reply) == "keyInformation" { reply = call("flow.next", #""step":"keyInformation""#) }
    while stringValue("step", in: reply) == "visual" { reply = call("flow.next", #""step":"visual""#) }
    return (flow, call)
}

/// A flow of the sample study scripted to the participant's signature page (`flowAtSharing`, then sharing, the
/// review, the comprehension questions and the name): returns its `call`.
/// The params of `optional.answer` that answer the sample study's two optional elements.
let sampleOptionalAnswers = #""answers":{"future-research":true,"contact-other-studies":false}"#

func flowAtSignaturePage(_ client: AgentClient) -> (String, String) -> String {
    let call = flowAtSharing(client).call
    _ = call("sharing.choose", #""shareWidely":true"#)
    _ = call("optional.answer", sampleOptionalAnswers)
    _ = call("review.agree", "")
    answerSampleComprehension(call)
    _ = call("participant.setName", #""given":"Ada","family":"Lovelace""#)
    return call
}

/// The sample study's comprehension questions answered right (Sources/SampleStudy/sample/contract.json), as a
/// participant who understood does between Agree and the name.
func answerSampleComprehension(_ call: (String, String) -> String) {
    for (question, choice) in [1, 1, 0].enumerated() {
        _ = call("comprehension.answer", "\"question\":\(question),\"choice\":\(choice)")
    }
}
