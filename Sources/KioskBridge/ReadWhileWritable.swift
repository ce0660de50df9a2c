import NIOCore

/// Reads from a connection only while that connection can take what answering may write.
///
/// Without it, a client that pipelines requests and never reads what comes back grew consentweb by about 80 MiB a
/// second: every request read was answered, every answer queued in the channel, and the request deadline never
/// fired because each request came whole. With it, once the channel's outbound buffer passes its high water mark
/// (`writeBufferWaterMark`, set where the server is bootstrapped) the bridge stops asking the kernel for more, the
/// client's own socket buffer fills, and its writes block: the client pays for its backlog, not the bridge.
///
/// It sits first in the pipeline (nearest the socket), so every `read()` any later handler asks for passes through
/// it; it holds one back while the channel is unwritable and lets it go when the channel drains.
final class ReadWhileWritable: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    static let name = "consentweb-read-while-writable"

    private var heldRead = false

    func read(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            context.read()
        } else {
            heldRead = true
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable, heldRead {
            heldRead = false
            context.read()
        }
        context.fireChannelWritabilityChanged()
    }
}
