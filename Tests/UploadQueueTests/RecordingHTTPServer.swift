import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// A FHIR server stand-in on 127.0.0.1 (port chosen by the kernel) that records every request it receives and
/// answers from a script: a status, a body, and an optional delay before answering (to make the client time out).
final class RecordingHTTPServer: Sendable {
    struct Request: Sendable {
        var method: String
        var uri: String
        var headers: [(String, String)]
        var body: Data

        func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
        var bundleID: String? { TestRecord.bundleID(in: body) }
    }

    struct Reply: Sendable {
        var status: Int
        var body: String
        var delay: Duration = .zero
        /// A `Location` header (for redirects).
        var location: String? = nil

        static let transactionResponse = Reply(status: 200, body: TestRecord.transactionResponseBodyText)
        static func status(_ status: Int, delay: Duration = .zero) -> Reply { Reply(status: status, body: "", delay: delay) }
    }

    private struct State {
        var requests: [Request] = []
        var script: [Reply]
    }

    private let state: NIOLockedValueBox<State>
    private let fallback: Reply
    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel

    /// Starts listening; answers `script` in order, then `fallback`.
    init(script: [Reply] = [], fallback: Reply = .transactionResponse) async throws {
        state = NIOLockedValueBox(State(script: script))
        self.fallback = fallback
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let box = Box()
        channel = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(Handler(server: box))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        box.server.withLockedValue { $0 = self }
    }

    var port: Int { channel.localAddress?.port ?? 0 }
    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/fhir")! }
    var requests: [Request] { state.withLockedValue { $0.requests } }
    var bundleIDs: [String] { requests.compactMap(\.bundleID) }

    func shutdown() async throws {
        try await channel.close()
        try await group.shutdownGracefully()
    }

    fileprivate func receive(_ request: Request) -> Reply {
        state.withLockedValue { state in
            state.requests.append(request)
            return state.script.isEmpty ? fallback : state.script.removeFirst()
        }
    }

    /// Lets the handlers reach the server, which exists only after the bind.
    fileprivate final class Box: Sendable {
        let server = NIOLockedValueBox<RecordingHTTPServer?>(nil)
    }

    /// Collects one request (head, body, end) and answers it, possibly later. Confined to its event loop.
    private final class Handler: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        private let server: Box
        private var head: HTTPRequestHead?
        private var body = Data()

        init(server: Box) { self.server = server }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                self.head = head
                body = Data()
            case .body(var buffer):
                body.append(contentsOf: buffer.readBytes(length: buffer.readableBytes) ?? [])
            case .end:
                guard let head, let server = server.server.withLockedValue({ $0 }) else { return }
                let reply = server.receive(
                    Request(method: head.method.rawValue, uri: head.uri, headers: head.headers.map { ($0.name, $0.value) }, body: body))
                let respond = { [self] in self.respond(reply, context: context) }
                if reply.delay > .zero {
                    let nanos = reply.delay.components.seconds * 1_000_000_000 + reply.delay.components.attoseconds / 1_000_000_000
                    context.eventLoop.assumeIsolated().scheduleTask(in: .nanoseconds(nanos)) { respond() }
                } else {
                    respond()
                }
            }
        }

        private func respond(_ reply: Reply, context: ChannelHandlerContext) {
            guard context.channel.isActive else { return }  // the client gave up (timeout)
            var headers = HTTPHeaders()
            headers.add(name: "Content-Type", value: "application/fhir+json")
            headers.add(name: "Content-Length", value: String(reply.body.utf8.count))
            if let location = reply.location { headers.add(name: "Location", value: location) }
            let head = HTTPResponseHead(version: .http1_1, status: .init(statusCode: reply.status), headers: headers)
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: reply.body)))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }
}
