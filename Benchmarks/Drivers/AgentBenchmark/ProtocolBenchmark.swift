import Foundation
import Glibc

/// Pipelined requests on one connection: a writer thread sends `count` lines while this thread reads `count` lines.
func pipelined(_ socket: String, negotiate: Bool, count: Int) -> Double {
    guard let client = AgentClient(path: socket) else { fail("cannot connect to \(socket)") }
    if negotiate { client.negotiate() }
    var requests: [UInt8] = []
    requests.reserveCapacity(count * 56)
    for id in 1...count {
        requests += Array("{\"jsonrpc\":\"2.0\",\"id\":\(id),\"method\":\"session.sync\"}\n".utf8)
    }
    let fd = client.fd
    let bytes = requests
    let start = nowNanoseconds()
    let writer = Thread { _ = writeAll(fd, bytes) }
    writer.start()
    var received = 0
    while received < count, client.reader.next({ _ in () }) != nil { received += 1 }
    let elapsed = Double(nowNanoseconds() - start) / 1e9
    guard received == count else { fail("only \(received) of \(count) replies from \(socket)") }
    return Double(count) / elapsed
}

/// Connect, (hello +) one request/reply, close, as often as possible for `seconds`.
func connectRate(_ socket: String, agent: Bool, seconds: Double) -> Double {
    let negotiate = Array(#"{"jsonrpc":"2.0","id":1,"method":"session.negotiate","params":{"client":"bench","version":1}}"#.utf8) + [10]
    let start = nowNanoseconds()
    let end = start + Int64(seconds * 1e9)
    var count = 0
    while nowNanoseconds() < end {
        guard let fd = connectUnix(socket) else { fail("connect to \(socket) failed after \(count) connections") }
        let reader = LineReader(fd: fd)
        if agent { guard reader.next({ _ in () }) != nil else { fail("no hello") } }
        guard writeAll(fd, negotiate), reader.next({ _ in () }) != nil else { fail("no reply from \(socket)") }
        close(fd)
        count += 1
    }
    return Double(count) / (Double(nowNanoseconds() - start) / 1e9)
}

func runProtocol() {
    let (agent, socket, _) = startAgent("protocol")
    let (echo, echoSocket) = startEcho("echo")
    let (pipeEcho, pipeSocket) = startEcho("pipe-echo", pipe: true)
    defer {
        agent.stop()
        echo.stop()
        pipeEcho.stop()
    }
    let count = 100_000
    // Warm both up, then best of 3 each, interleaved so a burst of load from other builds hits both alike.
    _ = pipelined(socket, negotiate: true, count: 10_000)
    _ = pipelined(echoSocket, negotiate: false, count: 10_000)
    var ours: [Double] = []
    var theirs: [Double] = []
    for _ in 0..<3 {
        ours.append(pipelined(socket, negotiate: true, count: count))
        theirs.append(pipelined(echoSocket, negotiate: false, count: count))
    }
    note("pipelined session.sync req/s: agent \(ours.map { Int($0) }), socat echo \(theirs.map { Int($0) })")
    let best = ours.max()!, echoBest = theirs.max()!
    row(
        "Protocol: pipelined session.sync, 1 connection (best of 3 × 100k)", "\(Int(best)) req/s",
        "\(Int(echoBest)) lines/s (socat echo via cat)", "\(f(best / echoBest))×", "≥ 50000 req/s", best >= 50_000)

    var connects: [Double] = []
    var echoConnects: [Double] = []
    for _ in 0..<3 {
        connects.append(connectRate(socket, agent: true, seconds: 1))
        echoConnects.append(connectRate(pipeSocket, agent: false, seconds: 1))
    }
    note("connect+negotiate+close/s: agent \(connects.map { Int($0) }), socat echo (fork per connection) \(echoConnects.map { Int($0) })")
    let c = connects.max()!, e = echoConnects.max()!
    row(
        "Protocol: connect + hello + negotiate + close", "\(Int(c))/s", "\(Int(e))/s (socat PIPE echo: connect + 1 line + close)",
        "\(f(c / e))×", "—", nil)
    if let rss = memory(of: agent.pid) { note("agent after the protocol runs: RSS \(rss.rssKB) kB") }
}
