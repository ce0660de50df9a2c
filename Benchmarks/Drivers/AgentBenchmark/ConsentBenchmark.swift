import AuditTrail
import FileBytes
import Foundation
import Glibc

/// A pad-like signature in the stroke format: 3 strokes of 100 points (≈ 1.5 s at 200 Hz) with pressure.
let signatureJSON: String = {
    var strokes: [String] = []
    for s in 0..<3 {
        var points: [String] = []
        for i in 0..<100 {
            let u = Double(i) / 99
            let x = 0.05 + 0.3 * Double(s) + 0.28 * u
            let y = 0.5 + 0.3 * sin(u * 6 * .pi + Double(s))
            points.append("[\(f(x, 4)),\(f(y, 4)),\(f(Double(s * 600 + i * 5), 1)),\(f(0.3 + 0.4 * u, 3))]")
        }
        strokes.append("[" + points.joined(separator: ",") + "]")
    }
    return "{\"strokes\":[\(strokes.joined(separator: ","))],\"widthMM\":120,\"heightMM\":40}"
}()

/// One complete consent of the sample study, scripted as a UI would: returns (wall ms, record directory).
func completeConsent(_ client: AgentClient) -> (Double, String) {
    let start = nowNanoseconds()
    let call = flowAtSignaturePage(client)
    _ = call("signature.submit", "\"strokes\":\(signatureJSON)")
    let reply = call("flow.complete", "")
    let elapsed = Double(nowNanoseconds() - start) / 1e6
    guard stringValue("step", in: reply) == "completed", let directory = stringValue("directory", in: reply) else {
        fail("flow.complete: \(reply)")
    }
    return (elapsed, directory)
}

/// The durability floor of one consent without the agent: every file `flow.complete` makes durable, written with
/// the primitive the agent writes with (FileBytes' DurableWrite), and nothing else. In the agent's order: the
/// completion journal's entry (created, then replaced to name the record), the record's files (each fsynced, the
/// directory fsynced, renamed into place, the parent fsynced), the flow's audit lines appended and fsynced once,
/// the journal entry removed (the directory fsynced). The benchmark's agent uploads nothing, so no queue entry.
func durableFloor(record directory: String, auditBytes: Int, into parent: String, audit: Int32, index: Int) -> Double {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: directory).sorted()) ?? []
    let contents = files.map { (try? Data(FileBytes.read("\(directory)/\($0)"))) ?? Data() }
    let auditLines = Array(repeating: UInt8(ascii: "x"), count: max(auditBytes - 1, 0)) + [UInt8(ascii: "\n")]
    let journal = "\(parent)/journal/f-\(index)"
    let start = nowNanoseconds()
    let temporary = "\(parent)/.tmp-\(index)"
    do {
        try DurableWrite.replace(journal, contents: [UInt8]())
        try DurableWrite.replace(journal, contents: Array("record-\(index)".utf8))
        mkdir(temporary, 0o700)
        for (name, data) in zip(files, contents) { try DurableWrite.createNew("\(temporary)/\(name)", contents: data) }
        try DurableWrite.syncDirectory(temporary)
        try DurableWrite.renameNoReplace(temporary, to: "\(parent)/record-\(index)")
        try DurableWrite.syncDirectory(parent)
        try DurableWrite.writeAll(audit, auditLines)
        try DurableWrite.sync(audit)
        try DurableWrite.remove(journal)
    } catch {
        fail("the durable floor's write failed: \(error)")
    }
    return Double(nowNanoseconds() - start) / 1e6
}

func runConsent(count: Int, memoryFloors: (foundation: String?, stdlib: String?) = (nil, nil)) {
    // Start-up: spawn → socket accepting. The first start makes the kiosk key and the audit log; a kiosk restarts
    // with its state in place, so the figure is the median of 5 warm starts (state kept), against socat's.
    let state = "\(work)/consent-state"
    try? FileManager.default.removeItem(atPath: state)
    let (first, _, firstReady) = startAgent("startup", state: state)
    first.stop()
    var readies: [Double] = []
    for _ in 0..<5 {
        let (agent, _, ready) = startAgent("startup", state: state)
        readies.append(ready)
        agent.stop()
    }
    var echoReadies: [Double] = []
    for _ in 0..<5 {
        guard let socat = which("socat") else { fail("socat missing") }
        let socket = "\(work)/echo-startup.sock"
        unlink(socket)
        let echo = Child(socat, ["UNIX-LISTEN:\(socket),fork", "PIPE"], log: "\(work)/echo-startup.log")
        if let ready = echo.waitReady(socket: socket) { echoReadies.append(ready) }
        echo.stop()
    }
    note("start to socket ready (ms): first start \(f(firstReady, 1)), warm starts \(readies.map { f($0, 1) }), socat \(echoReadies.map { f($0, 1) })")
    let ready = median(readies), echoReady = median(echoReadies)
    let (longLogBytes, longLogReady) = startUpAfterMonths()

    // Consents on one connection; RSS idle, after `count` and after 2 × `count`.
    try? FileManager.default.removeItem(atPath: state)
    let (agent, socket, _) = startAgent("consent", state: state)
    defer { agent.stop() }
    usleep(500_000)
    guard let idle = memory(of: agent.pid) else { fail("cannot read /proc/\(agent.pid)/smaps_rollup") }
    guard let client = AgentClient(path: socket) else { fail("cannot connect") }
    client.negotiate()
    var times: [Double] = []
    var lastDirectory = ""
    for _ in 0..<count {
        let (ms, directory) = completeConsent(client)
        times.append(ms)
        lastDirectory = directory
    }
    usleep(200_000)
    let afterFirst = memory(of: agent.pid)!
    var laterTimes: [Double] = []
    for _ in 0..<count {
        let (ms, directory) = completeConsent(client)
        laterTimes.append(ms)
        lastDirectory = directory
    }
    usleep(200_000)
    let afterSecond = memory(of: agent.pid)!
    let sorted = (times + laterTimes).sorted()
    note("complete consent over \(sorted.count): median \(f(percentile(sorted, 0.5))) ms, p90 \(f(percentile(sorted, 0.9))) ms, min \(f(sorted[0])) ms, max \(f(sorted.last!)) ms (first: \(f(times[0])) ms)")

    let floorParent = "\(work)/floor-records"
    try? FileManager.default.removeItem(atPath: floorParent)
    try? FileManager.default.createDirectory(atPath: "\(floorParent)/journal", withIntermediateDirectories: true)
    // What one consent adds to the audit log, on average: its flow's lines (the log holds nothing else here but
    // the start-up lines).
    let auditLog = "\(StateLayout(root: state).audit)/audit.log"
    let auditBytes = ((try? FileBytes.read(auditLog).count) ?? 0) / sorted.count
    let audit = open("\(floorParent)/audit.log", O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
    guard audit >= 0 else { fail("cannot open the floor's audit log") }
    defer { close(audit) }
    let floor = median((0..<20).map {
        durableFloor(record: lastDirectory, auditBytes: auditBytes, into: floorParent, audit: audit, index: $0)
    })
    let size = ((try? FileManager.default.contentsOfDirectory(atPath: lastDirectory)) ?? []).reduce(0) {
        $0 + (FileStatus.of("\(lastDirectory)/\($1)")?.size ?? 0)
    }
    note("record: \(size) bytes in \(lastDirectory), \(auditBytes) audit bytes per consent; the same durable writes without the agent (journal, record, audit): median \(f(floor)) ms")

    let consentMedian = percentile(sorted, 0.5)
    row(
        "Complete consent: flow.start → flow.complete (sign + PDF + fsync), median of \(sorted.count)",
        "\(f(consentMedian, 1)) ms", "\(f(floor, 1)) ms (the same durable writes: journal entry, record files, audit lines)",
        "\(f(consentMedian / floor, 1))×", "≤ 150 ms and ≤ 4× floor", consentMedian <= 150 && consentMedian <= 4 * floor)

    func mb(_ kb: Int) -> String { f(Double(kb) / 1024, 1) }
    let foundationFloor = memoryFloors.foundation.flatMap(idleRSS), stdlibFloor = memoryFloors.stdlib.flatMap(idleRSS)
    row(
        "Memory: idle RSS (PSS / USS)", "\(mb(idle.rssKB)) MB (\(mb(idle.pssKB)) / \(mb(idle.ussKB)))",
        foundationFloor.map { floor in
            "\(mb(floor)) MB: a Swift program linking Foundation, idle"
                + (stdlibFloor.map { " (\(mb($0)) MB with the standard library alone)" } ?? "")
        } ?? "—",
        foundationFloor.map { "\(f(Double(idle.rssKB) / Double($0), 1))×" } ?? "—",
        "≤ 50 MB", Double(idle.rssKB) / 1024 <= 50)
    let growth = afterSecond.rssKB - afterFirst.rssKB
    row(
        "Memory: RSS after \(count) / \(2 * count) consents (PSS, USS after \(2 * count))",
        "\(mb(afterFirst.rssKB)) / \(mb(afterSecond.rssKB)) MB (\(mb(afterSecond.pssKB)), \(mb(afterSecond.ussKB)))",
        "\(mb(idle.rssKB)) MB idle", "+\(mb(growth)) MB from \(count) to \(2 * count)", "no growth",
        growth < 1024)
    row(
        "Start-up: spawn → socket accepting (median of 5 warm starts)", "\(f(ready, 1)) ms",
        "\(f(echoReady, 1)) ms (socat listening)", "\(f(ready / echoReady, 1))×", "≤ 30 ms", ready <= 30)
    row(
        "Start-up after months of use: the last start at the top of a \(mb(longLogBytes / 1024)) MB audit.log (median of 5)",
        "\(f(longLogReady, 1)) ms", "\(f(ready, 1)) ms (the warm start above)", "\(f(longLogReady / ready, 2))×", "≤ 30 ms",
        longLogReady <= 30)
}

/// The RSS of the program at `path` 0.5 s after it started (as the agent's idle figure), in KB.
func idleRSS(_ path: String) -> Int? {
    let program = Child(path, [], log: "\(work)/memory-floor.log")
    defer { program.stop() }
    usleep(500_000)
    return memory(of: program.pid)?.rssKB
}

/// Start-up of a kiosk that ran for months since its last start: that start's lines at the top of an audit.log
/// that flows have filled to near its rotation size (8 MB), as the agent finds it after a power cut. The agent
/// reads back through them for its last configuration; each of the 5 starts gets the same log again.
///
/// - Returns: the log's size in bytes and the median time from spawn to socket accepting, in ms.
func startUpAfterMonths() -> (Int, Double) {
    let state = "\(work)/months-state"
    try? FileManager.default.removeItem(atPath: state)
    let (first, _, _) = startAgent("months", state: state)
    first.stop()
    let auditLog = "\(StateLayout(root: state).audit)/audit.log"
    let template = "\(work)/months-audit.log"
    do {
        let log = try AuditLog(stateDirectory: URL(fileURLWithPath: state), kiosk: try AuditIdentifier("bench-kiosk"))
        let study = AuditStudy(id: try AuditIdentifier("sample"), version: AuditDigest(sha256Of: Data("sample".utf8)))
        // 7 MB, below the rotation at 8 MB: about 3,500 consents' lines.
        while (FileStatus.of(auditLog)?.size ?? 0) < 7 << 20 {
            let flow = AuditIdentifier(UUID())
            try log.append(.flowStarted(flow: flow, study: study))
            try log.append(.eligibilityResult(flow: flow, study: study, eligible: true, answered: 4, questions: 4))
            for scene in 0..<3 { try log.append(.stepReached(flow: flow, study: study, step: .visual, index: scene)) }
            try log.append(.signatureCaptured(flow: flow, study: study, signer: .participant, strokes: 3, points: 300))
            try log.append(.completed(flow: flow, study: study, record: AuditIdentifier(UUID())))
        }
        try log.close()
        try DurableWrite.replace(template, contents: FileBytes.read(auditLog, limit: .max))
    } catch {
        fail("cannot write the months-long audit log: \(error)")
    }
    var readies: [Double] = []
    for _ in 0..<5 {
        do {
            try DurableWrite.replace(auditLog, contents: FileBytes.read(template, limit: .max))
        } catch {
            fail("cannot restore the months-long audit log: \(error)")
        }
        let (agent, _, ready) = startAgent("months", state: state)
        readies.append(ready)
        agent.stop()
    }
    let bytes = FileStatus.of(template)?.size ?? 0
    note("start to socket ready after months (ms, \(bytes) bytes of audit.log since the last start): \(readies.map { f($0, 1) })")
    return (bytes, median(readies))
}
