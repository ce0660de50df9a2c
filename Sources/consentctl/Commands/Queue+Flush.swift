import ArgumentParser
import Foundation
import UploadQueue

extension Queue {
    /// Delivers the queue now, in order, until it is empty or an attempt fails; refused while consentd delivers it.
    struct Flush: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Deliver pending entries now, in order, stopping at the first failure.",
            discussion: """
                Backoff and halts are ignored: every entry is attempted once, from the head. Refused while consentd \
                holds the queue. Exit status: 0 when the queue is empty afterwards, 1 otherwise.
                """)

        @OptionGroup var options: StateOptions

        @Option(help: ArgumentHelp("The FHIR R4 base URL transaction Bundles are POSTed to.", valueName: "URL"))
        var endpoint: String?

        @Option(help: ArgumentHelp("The C3-PRO encrypted base URL; envelopes are POSTed to <URL>/Bundle.", valueName: "URL"))
        var encryptedEndpoint: String?

        @Option(help: ArgumentHelp("The receiver's RSA public key (PEM) or certificate (PEM or DER).", valueName: "FILE"))
        var publicKey: String?

        @Option(help: ArgumentHelp("The key_id sent in each envelope.", valueName: "ID"))
        var keyID = ""

        @Flag(help: "Send envelopes with C3's zero IV (no iv member), for consumers that cannot read iv.")
        var zeroIV = false

        @Option(help: ArgumentHelp("Seconds one request may take.", valueName: "SECONDS"))
        var timeout: Double = 30

        func validate() throws {
            switch (endpoint, encryptedEndpoint) {
            case (nil, nil), (.some, .some):
                throw ValidationError("Please provide exactly one of --endpoint and --encrypted-endpoint.")
            case (nil, .some) where publicKey == nil:
                throw ValidationError("Please provide --public-key FILE with --encrypted-endpoint.")
            default:
                break
            }
            // A day at most: beyond, the conversion to a Duration below would trap (as consentd's did, SettingSeconds).
            guard timeout > 0, timeout <= 86_400 else {
                throw ValidationError("Please provide a --timeout above 0 and at most 86400 seconds (a day).")
            }
        }

        func run() async throws {
            let destination: UploadConfiguration.Destination
            if let endpoint {
                destination = .fhir(baseURL: try Self.url(endpoint))
            } else {
                destination = .encrypted(
                    .init(baseURL: try Self.url(encryptedEndpoint ?? ""), publicKeyFile: publicKey ?? "", keyID: keyID, zeroIV: zeroIV))
            }
            let configuration = UploadConfiguration(
                destination: destination, requestTimeout: .milliseconds(Int64(timeout * 1000)))
            let report: FlushReport
            do {
                let service = try UploadService(stateDirectory: URL(fileURLWithPath: options.stateDir), configuration: configuration)
                report = try await service.flush()
            } catch let error as UploadQueueError {
                throw CommandFailure(error.description)
            }
            for recordID in report.delivered {
                print("delivered \(recordID)")
            }
            guard let stopped = report.stoppedAt else {
                print("queue empty: \(report.delivered.count) record(s) delivered")
                return
            }
            let reason = stopped.lastError.map { "\($0.code): \($0.message)" } ?? "unknown"
            print("stopped at \(stopped.recordID) (entry \(stopped.sequence)): \(reason)")
            throw ExitCode.failure
        }

        private static func url(_ text: String) throws -> URL {
            guard let url = URL(string: text), url.scheme != nil else {
                throw ValidationError("Please provide an absolute http(s) URL, not '\(text)'.")
            }
            return url
        }
    }
}
