import FileBytes
import Foundation

// The test runner reads logs, state files and /proc through FileBytes, not Foundation: `String(contentsOf:)` and
// `Data(contentsOf:)` leak a 4 KiB buffer for every file that is empty when read (a fresh log, and every /proc file,
// which stats as empty), which LeakSanitizer reports at the runner's exit (scripts/sanitize address).

/// The text of the file at `path`, nil when it cannot be read.
public func fileText(_ path: String) -> String? {
    (try? FileBytes.read(path)).map { String(decoding: $0, as: UTF8.self) }
}

/// The bytes of the file at `url`, nil when it cannot be read.
public func fileBytes(_ url: URL) -> Data? {
    try? Data(FileBytes.read(url.path))
}
