import ArgumentParser
import Foundation
import UploadQueue

/// `consentctl queue`: what the upload queue holds, and the operator's levers on it.
///
/// ```
/// consentctl queue [list] [--state-dir DIR] [--json]
/// consentctl queue retry [RECORD_ID] [--state-dir DIR]
/// consentctl queue park RECORD_ID [--state-dir DIR]
/// consentctl queue unpark RECORD_ID [--state-dir DIR]
/// consentctl queue flush (--endpoint URL | --encrypted-endpoint URL --public-key FILE) [--state-dir DIR]
/// ```
struct Queue: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the records waiting for upload, and retry, park or deliver them.",
        discussion: "The queue is <state-dir>/queue; see docs/UPLOAD.md.",
        subcommands: [List.self, Retry.self, Park.self, Unpark.self, Flush.self],
        defaultSubcommand: List.self)

    struct StateOptions: ParsableArguments {
        @Option(help: ArgumentHelp("The agent's state directory; the queue is queue/ there.", valueName: "DIR"))
        var stateDir = "./state"

        var store: QueueStore { QueueStore(stateDirectory: URL(fileURLWithPath: stateDir)) }
    }
}

extension Queue {
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List pending entries in delivery order: record id, attempts, next attempt, last error.",
            discussion: "Exit status: 0 when nothing is halted, 3 when the queue is halted at a refused record.")

        /// The documented status for a halted queue, so monitoring can alert on it.
        static let haltedExitCode: Int32 = 3

        @OptionGroup var options: StateOptions

        @Flag(help: "Print the status as JSON (entries, parked, halted, nextAttemptAt, lastError).")
        var json = false

        func run() throws {
            let status: QueueStatus
            do {
                status = try options.store.status()
            } catch let error as UploadQueueError {
                throw CommandFailure(error.description)
            }
            let store = options.store
            if !json && !FileManager.default.fileExists(atPath: store.directory.path) {
                // Most likely a mistyped --state-dir: say so rather than report an empty queue.
                print("no upload queue at \(store.directory.path): nothing was ever queued there; check --state-dir")
                return
            }
            print(json ? try QueueStatusText.json(status) : QueueStatusText.table(status), terminator: "")
            if status.isHalted { throw ExitCode(Self.haltedExitCode) }
        }
    }

    struct Retry: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make the head entry (or RECORD_ID's) due now and lift a halt.",
            discussion: "A running consentd notices within its recheck interval (60 s by default).")

        @OptionGroup var options: StateOptions

        @Argument(help: ArgumentHelp("The record to re-arm; default: the head of the queue.", valueName: "RECORD_ID"))
        var recordID: String?

        func run() throws {
            do {
                let entry = try options.store.rearm(recordID: recordID)
                print("re-armed \(entry.recordID) (entry \(entry.sequence)); it is attempted next")
            } catch let error as UploadQueueError {
                throw CommandFailure(error.description)
            }
        }
    }

    struct Park: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set a pending entry aside (queue/parked/) so the entries after it are delivered.",
            discussion: "The entry is kept, never deleted: the record has not reached the server. `unpark` queues it again.")

        @OptionGroup var options: StateOptions

        @Argument(help: ArgumentHelp("The record whose entry to park.", valueName: "RECORD_ID"))
        var recordID: String

        func run() throws {
            do {
                let entry = try options.store.park(recordID: recordID)
                print("parked \(entry.recordID) (entry \(entry.sequence)) in \(options.store.directory.path)/parked")
            } catch let error as UploadQueueError {
                throw CommandFailure(error.description)
            }
        }
    }

    struct Unpark: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Queue a parked entry again, at the tail, due now.")

        @OptionGroup var options: StateOptions

        @Argument(help: ArgumentHelp("The record whose parked entry to queue again.", valueName: "RECORD_ID"))
        var recordID: String

        func run() throws {
            do {
                let entry = try options.store.unpark(recordID: recordID)
                print("queued \(entry.recordID) again as entry \(entry.sequence), at the tail")
            } catch let error as UploadQueueError {
                throw CommandFailure(error.description)
            }
        }
    }
}
