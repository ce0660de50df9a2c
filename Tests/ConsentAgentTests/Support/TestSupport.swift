import AgentProtocol
import ConsentCore
import ConsentRecords
import ConsentSigning
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
import SampleStudy

@testable import ConsentAgent

/// A monotonic clock the test moves by hand.
final class ManualClock: Sendable {
    private let value = NIOLockedValueBox<Duration>(.zero)
    var now: Duration { value.withLockedValue { $0 } }
    func advance(by d: Duration) { value.withLockedValue { $0 += d } }
}

enum TestSupport {
    /// The sample study's comprehension questions answered right, as `comprehension.answer` params (without the
    /// flow): what every test that walks the sample study past the review document sends after `review.agree`.
    static let sampleComprehensionAnswers: [[String: RPCValue]] = [1, 1, 0].enumerated().map { question, choice in
        ["question": .integer(Int64(question)), "choice": .integer(Int64(choice))]
    }

    static func sampleStudy() throws -> Study {
        guard let folder = SampleStudy.folder else { throw CocoaError(.fileNoSuchFile) }
        return try Study.load(from: folder)
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("consent-agent-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The real record maker, with a kiosk key made in the test's state directory.
    static func recordMaker(state: URL) throws -> SignedRecordMaker {
        let kiosk = try KioskIdentity.loadOrCreate(id: "test-kiosk", stateDirectory: state)
        return SignedRecordMaker(
            composer: ConsentRecordComposer(signer: ConsentSigner(kiosk: kiosk)), stateDirectory: state,
            logger: Logger(label: "test"))
    }

    static func core(clock: ManualClock, state: URL) throws -> AgentCore {
        AgentCore(
            studies: [try sampleStudy()], settings: .init(stateDirectory: state), hub: EventHub(),
            recordMaker: try recordMaker(state: state), logger: Logger(label: "test"),
            now: { clock.now })
    }

    /// A connected channel with the agent's pipeline; the hello greeting is already written.
    static func channel(
        core: AgentCore, maximumLineBytes: Int = 256, killTimeout: TimeAmount = .seconds(10), id: UInt64 = 1
    ) async throws -> NIOAsyncTestingChannel {
        let environment = ConnectionEnvironment(
            core: core, hub: core.hub,
            limits: .init(maximumInFlight: 16, queue: .init(maximumMessages: 100, maximumBytes: 1 << 20)),
            maximumLineBytes: maximumLineBytes, clientKillTimeout: killTimeout,
            hello: AgentConfiguration(socketPath: "/x", stateDirectory: URL(fileURLWithPath: "/x")).hello,
            discoverDocument: { DiscoverDocument.shared }, logger: Logger(label: "test"))
        let channel = try await NIOAsyncTestingChannel { channel in
            try channel.pipeline.syncOperations.addHandler(
                ByteToMessageHandler(JSONLineFrameDecoder(maximumLineBytes: maximumLineBytes)))
            try channel.pipeline.syncOperations.addHandler(RPCConnectionHandler(connectionID: id, environment: environment))
        }
        try await channel.connect(to: SocketAddress(unixDomainSocketPath: "/tmp/x.sock")).get()
        return channel
    }
}

extension NIOAsyncTestingChannel {
    /// Closes the connection unless it is closed already. A test ends every connection it opens: the core holds an
    /// open connection's handle, the handle its handler and the handler the core, so a connection left open keeps
    /// the whole core alive past its test (LeakSanitizer reports that cycle at the runner's exit). The agent drops a
    /// connection's handle when it closes.
    func end() async {
        try? await close()
    }

    func send(_ line: String) async throws {
        try await writeInbound(ByteBuffer(string: line + "\n"))
    }

    /// The next line the handler wrote, parsed.
    func nextMessage() async throws -> RPCValue {
        let buffer = try await waitForOutboundWrite(as: ByteBuffer.self)
        return try RPCValue.parse(buffer.readableBytesView)
    }
}
