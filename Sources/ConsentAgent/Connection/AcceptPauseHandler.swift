import Foundation
import Logging
import NIOCore

/// The listening socket's guard against running out of descriptors: when `accept` fails with
/// EMFILE, ENFILE, ENOBUFS or ENOMEM it stops accepting for `pause`, logs the errno once per pause, and accepts
/// again. The pending connections wait in the backlog meanwhile.
///
/// NIO's own `AcceptBackoffHandler` cannot do this here: an accept that fails before any succeeded leaves the
/// server channel's read pending and its socket registered for reading, so the event loop is woken again at once
/// and never asks the pipeline for the next read the backoff would delay (the agent spun at 100 % CPU). Turning
/// `autoRead` off unregisters the socket; turning it on again registers it.
final class AcceptPauseHandler: ChannelInboundHandler {
    typealias InboundIn = Channel

    static let recoverable: Set<CInt> = [EMFILE, ENFILE, ENOBUFS, ENOMEM]

    private let pause: TimeAmount
    private let logger: Logger
    private var resume: Scheduled<Void>?

    init(pause: TimeAmount = .seconds(1), logger: Logger) {
        self.pause = pause
        self.logger = logger
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let error = error as? IOError, Self.recoverable.contains(error.errnoCode) else {
            context.fireErrorCaught(error)
            return
        }
        guard resume == nil else { return }
        let name = POSIXErrorCode(rawValue: error.errnoCode).map { "\($0)" } ?? "?"
        logger.warning(
            "cannot accept a connection; trying again in \(pause.nanoseconds / 1_000_000) ms",
            metadata: ["errno": "\(error.errnoCode)", "error": "\(name)"])
        try? context.channel.syncOptions?.setOption(.autoRead, value: false)
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        let channel = context.channel
        resume = context.eventLoop.scheduleTask(in: pause) {
            handler.value.resume = nil
            try? channel.syncOptions?.setOption(.autoRead, value: true)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        resume?.cancel()
        resume = nil
        context.fireChannelInactive()
    }
}

@available(*, unavailable)
extension AcceptPauseHandler: Sendable {}
