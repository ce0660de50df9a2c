import AsyncHTTPClient
import ConsentSigning
import FileBytes
import Foundation
import NIOCore
import NIOSSL

/// `consentctl study pull`'s GET of a package: HTTPS only, no redirects, at most `StudyPackage.maximumEncodedBytes`,
/// and bounded in time as a whole. AsyncHTTPClient's deadline covers the response head only, so a server that
/// sends the head and then stalls (or trickles a byte at a time) would hold the pull, and the systemd timer's next
/// run behind it, forever: a watchdog beside the read ends the transfer at the deadline, or as soon as a window
/// after the head brought fewer bytes than the minimum rate.
struct PackageDownload {
    /// The whole transfer's bounds (`--timeout`, `--minimum-rate`, `--rate-window`).
    struct Limits: Sendable {
        static let defaultTimeoutSeconds = 900
        static let defaultMinimumRate = 16 << 10
        static let defaultRateWindowSeconds = 10
        /// The response head's own bound, inside the whole transfer's.
        static let headSeconds = 60
        /// The flags' bounds: 366 days, 1 GiB a second.
        static let maximumSeconds = 31_622_400
        static let maximumRate = 1 << 30

        /// Seconds for connecting, the head and the body together.
        var timeoutSeconds = defaultTimeoutSeconds
        /// Bytes per second each window after the head must average; 0: no minimum.
        var minimumRate = defaultMinimumRate
        var windowSeconds = defaultRateWindowSeconds

        var timeout: Duration { .seconds(timeoutSeconds) }
        var window: Duration { .seconds(windowSeconds) }
    }

    /// A download that brought more than a package may hold: a refusal of the package, as `StudyApprovalError`s are.
    struct TooLarge: Error {
        var maximum: Int
    }

    let url: URL
    let caFile: String?
    let limits: Limits

    /// The package's bytes.
    ///
    /// - Throws: `CommandFailure` (a download error: TLS, HTTP status, the deadline, the minimum rate), `TooLarge`.
    func run() async throws -> Data {
        var tls = TLSConfiguration.makeClientConfiguration()
        // A server that stalls does not answer the TLS close either: without this the pull would wait NIOSSL's
        // default 5 s for it after giving up.
        tls.shutdownTimeout = .seconds(1)
        if let caFile {
            guard FileStatus.of(caFile) != nil else { throw CommandFailure("\(caFile): no such CA file") }
            tls.trustRoots = .file(caFile)
        }
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        configuration.redirectConfiguration = .disallow
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        let progress = Progress()
        let limits = self.limits, address = url.absoluteString
        do {
            let data = try await withThrowingTaskGroup(of: Data?.self) { group in
                group.addTask {
                    // Past the whole transfer's deadline, the head's would race the watchdog's: a second later, so
                    // the watchdog's reason (`--timeout`) is the one given.
                    let head = limits.timeoutSeconds <= Limits.headSeconds ? limits.timeoutSeconds + 1 : Limits.headSeconds
                    let response = try await client.execute(HTTPClientRequest(url: address), timeout: .seconds(Int64(head)))
                    guard response.status == .ok else {
                        throw CommandFailure("\(address): the server answered HTTP \(response.status.code)")
                    }
                    let maximum = StudyPackage.maximumEncodedBytes
                    if let length = response.headers.first(name: "content-length").flatMap(Int.init), length > maximum {
                        throw TooLarge(maximum: maximum)
                    }
                    progress.headArrived()
                    var body = ByteBuffer()
                    for try await chunk in response.body {
                        guard body.readableBytes + chunk.readableBytes <= maximum else { throw TooLarge(maximum: maximum) }
                        body.writeImmutableBuffer(chunk)
                        progress.received(chunk.readableBytes)
                    }
                    return Data(body.readableBytesView)
                }
                group.addTask {
                    try await Self.watch(progress, limits: limits, url: address)
                    return nil
                }
                // The read's bytes, or the watchdog's failure, whichever comes first; the other is cancelled (the
                // body's iterator ends the request when its task is).
                defer { group.cancelAll() }
                while let result = try await group.next() {
                    if let data = result { return data }
                }
                throw CommandFailure("\(address): the download ended without a body")
            }
            try await client.shutdown()
            return data
        } catch let failure as CommandFailure {
            try? await client.shutdown()
            throw failure
        } catch let tooLarge as TooLarge {
            try? await client.shutdown()
            throw tooLarge
        } catch {
            try? await client.shutdown()
            throw CommandFailure("\(address): cannot download the package (\(error))")
        }
    }

    /// Returns only when cancelled (the read finished); throws when the transfer passes its deadline or a window
    /// after the head brings fewer than `minimumRate` bytes a second.
    static func watch(_ progress: Progress, limits: Limits, url: String) async throws {
        let clock = ContinuousClock()
        let start = clock.now
        let tick = min(limits.window / 4, .milliseconds(250))
        var windowStart: (time: ContinuousClock.Instant, bytes: Int)?
        while true {
            try await Task.sleep(for: tick)
            let now = clock.now
            let (headArrived, bytes) = progress.state
            if now - start >= limits.timeout {
                throw CommandFailure(
                    "\(url): the download did not finish within \(limits.timeoutSeconds) s (--timeout); "
                        + "\(bytes) bytes arrived; nothing was written")
            }
            guard headArrived, limits.minimumRate > 0 else { continue }
            guard let started = windowStart else {
                windowStart = (now, bytes)
                continue
            }
            guard now - started.time >= limits.window else { continue }
            if bytes - started.bytes < limits.minimumRate * limits.windowSeconds {
                throw CommandFailure(
                    "\(url): the server sent \(bytes - started.bytes) bytes in \(limits.windowSeconds) s, less than "
                        + "the --minimum-rate of \(limits.minimumRate) bytes/s; giving up; nothing was written")
            }
            windowStart = (now, bytes)
        }
    }

    /// What the read has received, for the watchdog.
    final class Progress: @unchecked Sendable {
        // An NSLock (a pthread mutex): the read and the watchdog run on different threads.
        private let lock = NSLock()
        private var head = false
        private var bytes = 0

        func headArrived() { lock.withLock { head = true } }
        func received(_ count: Int) { lock.withLock { bytes += count } }
        var state: (headArrived: Bool, bytes: Int) { lock.withLock { (head, bytes) } }
    }
}
