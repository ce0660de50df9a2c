// swift-tools-version:6.1
//
// consent-kiosk: a kiosk agent that runs a research consent (FHIR Contract → eligibility → sections →
// sharing → review → signature) for any kiosk UI over a UNIX socket.
//
// Module rules (style.md §2): the core modules (ConsentCore, ConsentSigning, ConsentPDF, SignaturePad) know
// nothing of sockets; C interop lives in the thin shim targets (CUdev, CEvdev, CCairoPango, CXML2, CUMockdev, CSystemd,
// CSignalPipe, CEspeakNG);
// ConsentAgent wires everything together.
import PackageDescription

let swiftSettings: [SwiftSetting] = []

// `scripts/fuzz` sets CONSENT_FUZZ_SCOPED=1 for the targets that link much they do not drive (all but FuzzPadEvents),
// in its own build path: then only the modules that target drives carry libFuzzer's coverage, given here, and every
// other module only ASan. Instrumenting every dependency (NIO, BoringSSL, AsyncHTTPClient: ~800,000 counters) makes
// libFuzzer scan and clear all of them after each input, which costs more than the input itself (docs/RELIABILITY.md,
// "FuzzRequest").
let fuzzScoped = Context.environment["CONSENT_FUZZ_SCOPED"] == "1"
let fuzzCoverage: [SwiftSetting] =
    fuzzScoped ? [.unsafeFlags(["-sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp"])] : []

let package = Package(
    name: "consent-kiosk",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "consentd", targets: ["consentd"]),
        .executable(name: "consentctl", targets: ["consentctl"]),
        .executable(name: "consentweb", targets: ["consentweb"]),
        .library(name: "ConsentCore", targets: ["ConsentCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // The upload queue's HTTP client: URLSession on Linux leaks on every request (docs/RELIABILITY.md).
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // `consentctl study pull --ca-file`: the trust roots of a clinic's own CA (AsyncHTTPClient's TLS settings).
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    ],
    targets: [
        // MARK: C shims (system libraries from Debian)
        .systemLibrary(name: "CUdev", pkgConfig: "libudev", providers: [.apt(["libudev-dev"])]),
        .systemLibrary(name: "CEvdev", pkgConfig: "libevdev", providers: [.apt(["libevdev-dev"])]),
        // cairo and Pango (libpango1.0-dev, libcairo2-dev): opened on first use, not linked (its header says why),
        // so a C target of ours rather than a system library with pkgConfig, which SwiftPM would link.
        // Tests/CCairoPangoCheck holds its declarations to the real headers.
        .target(name: "CCairoPango"),
        .systemLibrary(name: "CXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CUMockdev", pkgConfig: "umockdev-1.0", providers: [.apt(["libumockdev-dev"])]),
        // sd_notify (READY=1, STOPPING=1, WATCHDOG=1) for the systemd unit; only ConsentAgent uses it.
        // Not linked (no pkgConfig, whose libs SwiftPM would link): the shim opens libsystemd on the first sd_notify.
        .systemLibrary(name: "CSystemd", providers: [.apt(["libsystemd-dev"])]),
        // Printing the participant's copy (docs/OPERATIONS.md, "Printing the participant's copy"): libcups talks IPP to
        // CUPS (not linked: the shim opens it on the first exchange); libqrencode and poppler-glib make the copy's
        // verification mark.
        .systemLibrary(name: "CCups", providers: [.apt(["libcups2-dev"])]),
        .systemLibrary(name: "CQREncode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        // Not linked (no pkgConfig, whose libs SwiftPM would link): the shim opens poppler-glib when a copy is stamped.
        .systemLibrary(name: "CPoppler", providers: [.apt(["libpoppler-glib-dev"])]),
        // Read-aloud: eSpeak NG synthesises the kiosk's speech (Speech); its voices are Debian's espeak-ng-data. Not
        // linked (no pkgConfig, whose libs SwiftPM would link): the shim opens the library on the first synthesis.
        .systemLibrary(name: "CEspeakNG", providers: [.apt(["libespeak-ng-dev", "espeak-ng-data"])]),
        // The self-pipe trick's signal handler (consentweb's SIGTERM and SIGINT): plain C, no library.
        .target(name: "CSignalPipe"),

        // MARK: Core modules (no sockets)
        // Whole-file reads with plain POSIX calls (no Foundation: it leaks per empty file); the one home for them.
        .target(name: "FileBytes", swiftSettings: swiftSettings),
        // Paused flows (flow.pause): each one's state sealed under the kiosk's pause key, found by its resume code.
        .target(
            name: "PausedFlows",
            dependencies: ["FileBytes", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: swiftSettings),
        // Bytes as lowercase hexadecimal (digests, tokens); the one home for it.
        .target(name: "HexText", swiftSettings: swiftSettings),
        // An instant as UTC fields and RFC 3339 text without a formatter; the one home for it.
        .target(name: "UTCTime", swiftSettings: swiftSettings),
        // What a person may type into a name, a note or a reason (no control or bidi characters), and its bounds in
        // characters and bytes; the one home for that rule.
        .target(name: "EnteredText", swiftSettings: swiftSettings + fuzzCoverage),
        // JSON for every layer: the one value type (`JSONValue`, the wire's `RPCValue`), the one parser and the one
        // writer (the wire's form and the records' form), and Codable types read and written through them
        // (`JSONValueDecoder`, `JSONValueEncoder`); no Foundation, no NIO.
        .target(name: "JSON", swiftSettings: swiftSettings + fuzzCoverage),
        // Foundation's `Data`, `URL`, `Decimal` and `Date` for the JSON module's Codable bridge, as `JSONDecoder` and
        // `JSONEncoder` read and wrote them: one mapping for the files and the wire.
        .target(name: "JSONFoundation", dependencies: ["JSON"], swiftSettings: swiftSettings + fuzzCoverage),
        .target(
            name: "ConsentCore",
            dependencies: [
                "FileBytes", "HexText", "JSON", "EnteredText",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings + fuzzCoverage),
        .target(
            name: "SampleStudy",
            resources: [.copy("sample")],
            swiftSettings: swiftSettings),
        // ISO/IEC 19794-7:2014 signature time series: writer and reader (docs/RECORDS.md).
        .target(name: "SignatureInterchange", dependencies: ["ConsentCore"], swiftSettings: swiftSettings + fuzzCoverage),
        .target(
            name: "ConsentSigning",
            dependencies: [
                "ConsentCore", "SignatureInterchange", "FileBytes", "HexText", "JSONFoundation", "UTCTime", "EnteredText",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: swiftSettings + fuzzCoverage),
        .target(
            name: "ConsentPDF",
            dependencies: [
                "ConsentCore", "CCairoPango", "CXML2", "CQREncode", "CPoppler", "FileBytes", "UTCTime",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings + fuzzCoverage),
        // Signing and the PDF composed into one record; what consentd and `consentctl sign` both call.
        .target(
            name: "ConsentRecords",
            dependencies: ["ConsentCore", "ConsentSigning", "ConsentPDF"],
            swiftSettings: swiftSettings + fuzzCoverage),
        // The participant's copy handed to CUPS from memory (no file of ours in any spool), and the printer's state.
        .target(
            name: "CopyPrinting", dependencies: ["CCups", .product(name: "NIOConcurrencyHelpers", package: "swift-nio")],
            swiftSettings: swiftSettings),
        // The person obtaining consent's credentials (config staffFile: PBKDF2 hashes of staff PINs), the lock-out
        // after wrong PINs, and the one rule of counting a try before its slow hash (`AttemptLimiter`, also the
        // withdrawal passcode's); read by consentd's staff.unlock, written by `consentctl staff`.
        .target(
            name: "StaffCredentials",
            dependencies: [
                "FileBytes", "JSON", "EnteredText", "UTCTime", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings),
        .target(name: "SignaturePad", swiftSettings: swiftSettings + fuzzCoverage),
        // Text to speech (eSpeak NG) on one thread of its own, as cached WAV audio; knows nothing of consents.
        .target(
            name: "Speech",
            dependencies: ["CEspeakNG", .product(name: "NIOConcurrencyHelpers", package: "swift-nio")],
            swiftSettings: swiftSettings),
        // Study HTML made safe and well-formed for kiosk UIs (libxml2 parses; an allowlist writes it out again).
        .target(name: "HTMLSanitizer", dependencies: ["CXML2"], swiftSettings: swiftSettings),
        // Hash-chained audit log; knows nothing of consents or sockets, so the agent types its events.
        .target(
            name: "AuditTrail",
            dependencies: [
                "FileBytes", "HexText", "JSON", "UTCTime", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings + fuzzCoverage),
        .target(
            name: "UploadQueue",
            dependencies: [
                "ConsentCore", "ConsentSigning", "FileBytes", "JSON", "JSONFoundation",
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            swiftSettings: swiftSettings),
        .target(
            name: "SignaturePadLinux",
            dependencies: [
                "SignaturePad", "CUdev", "CEvdev", "FileBytes", .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings),

        // MARK: The agent
        // consentd's UNIX socket address: its default path and `sockaddr_un`, for every executable.
        .target(name: "LocalSocket", swiftSettings: swiftSettings),
        .target(
            name: "AgentProtocol",
            dependencies: ["JSON", "JSONFoundation", .product(name: "NIOCore", package: "swift-nio")],
            swiftSettings: swiftSettings + fuzzCoverage),
        .target(
            name: "ConsentAgent",
            dependencies: [
                "ConsentCore", "ConsentSigning", "ConsentPDF", "ConsentRecords", "SignaturePad", "SignaturePadLinux",
                "AgentProtocol", "AuditTrail", "UploadQueue", "SampleStudy", "CSystemd", "HTMLSanitizer", "FileBytes",
                "UTCTime", "CopyPrinting", "LocalSocket", "StaffCredentials", "Speech", "EnteredText", "PausedFlows",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // SIGHUP reloads the studies (StudyReloadService).
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings + fuzzCoverage),

        // MARK: The kiosk display: the reference UI and its loopback WebSocket bridge (docs/UI-DEVELOPERS.md)
        // UI/app is plain HTML, CSS and ES modules, served as they are; this target only bundles them.
        .target(name: "KioskUI", path: "UI", exclude: ["README.md"], resources: [.copy("app")], swiftSettings: swiftSettings),
        .target(
            name: "KioskBridge",
            dependencies: [
                "AgentProtocol", "FileBytes", "HexText",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings + fuzzCoverage),

        // MARK: Executables
        .executableTarget(
            name: "consentweb",
            dependencies: [
                "KioskBridge", "KioskUI", "CSignalPipe", "FileBytes", "LocalSocket",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings),
        .executableTarget(
            name: "consentd",
            dependencies: [
                "ConsentAgent",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings),
        // Not run by `make test`: Benchmarks/pdf-vs-weasyprint.sh builds it in release mode.
        .executableTarget(
            name: "PDFBenchmark",
            dependencies: ["ConsentPDF", "ConsentCore", "SampleStudy"],
            path: "Benchmarks/Drivers/PDFBenchmark",
            swiftSettings: swiftSettings),
        .executableTarget(
            name: "consentctl",
            dependencies: [
                "ConsentCore", "ConsentSigning", "ConsentPDF", "ConsentRecords", "SignaturePad", "SignaturePadLinux", "SampleStudy",
                "AuditTrail", "SignatureInterchange", "FileBytes", "LocalSocket",
                "UploadQueue", "StaffCredentials", "JSON", "JSONFoundation", "UTCTime", "PausedFlows", "Speech",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: swiftSettings),

        .executableTarget(
            name: "PadBenchmark",
            dependencies: ["SignaturePad"],
            path: "Benchmarks/Drivers/PadBenchmark",
            swiftSettings: swiftSettings),
        // `make bench` (Benchmarks/run): drives a release consentd over its socket; never part of `make test`.
        .executableTarget(
            name: "AgentBenchmark",
            dependencies: ["SignaturePad", "FileBytes", "AuditTrail", "ConsentCore"],
            path: "Benchmarks/Drivers/AgentBenchmark",
            swiftSettings: swiftSettings),

        // MARK: Fuzz targets (docs/RELIABILITY.md; run with scripts/fuzz)
        // Built by scripts/fuzz with ASan and -DFUZZING, libFuzzer owns `main`; in any other build each is a small
        // replay tool (`swift run FuzzHTML file...`), so a plain `swift build` always compiles and links them.
        // FuzzSupport is what their entry points share.
        .target(name: "FuzzSupport", dependencies: ["FileBytes"], path: "Fuzz/Targets/FuzzSupport", swiftSettings: swiftSettings),
        // A study as the harnesses that keep one hold it (made on one thread, so LeakSanitizer's pause covers it).
        .target(name: "FuzzStudy", dependencies: ["ConsentCore"], path: "Fuzz/Targets/FuzzStudy", swiftSettings: swiftSettings),
        .executableTarget(
            name: "FuzzProtocol",
            dependencies: [
                "FuzzSupport", "FuzzStudy", "ConsentAgent", "AgentProtocol", "ConsentCore", "SampleStudy",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Fuzz/Targets/FuzzProtocol",
            swiftSettings: swiftSettings + fuzzCoverage,
            // The scoped build compiles no module with -sanitize=fuzzer, so the link asks for libFuzzer's runtime.
            linkerSettings: fuzzScoped ? [.unsafeFlags(["-sanitize=fuzzer"])] : []),
        .executableTarget(
            name: "FuzzContract", dependencies: ["FuzzSupport", "FuzzStudy", "ConsentCore", "SampleStudy"],
            path: "Fuzz/Targets/FuzzContract",
            swiftSettings: swiftSettings + fuzzCoverage,
            linkerSettings: fuzzScoped ? [.unsafeFlags(["-sanitize=fuzzer"])] : []),
        .executableTarget(
            name: "FuzzHTML", dependencies: ["FuzzSupport", "FuzzStudy", "ConsentPDF", "ConsentCore", "SampleStudy"],
            path: "Fuzz/Targets/FuzzHTML",
            swiftSettings: swiftSettings + fuzzCoverage,
            linkerSettings: fuzzScoped ? [.unsafeFlags(["-sanitize=fuzzer"])] : []),
        // The raw bytes of a broken or hostile pad through SignaturePad's capture chain; pure Swift, so it is fast.
        .executableTarget(name: "FuzzPadEvents", dependencies: ["FuzzSupport", "SignaturePad"], path: "Fuzz/Targets/FuzzPadEvents", swiftSettings: swiftSettings),
        // One request up to its params (framing, JSON, envelope, each method's params type), without the core; fast.
        .executableTarget(
            name: "FuzzRequest",
            dependencies: [
                "FuzzSupport", "ConsentAgent", "AgentProtocol", "ConsentCore", "ConsentRecords", "SignaturePad", "EnteredText",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Fuzz/Targets/FuzzRequest",
            swiftSettings: swiftSettings + fuzzCoverage,
            // The scoped build compiles no module with -sanitize=fuzzer, so the link asks for libFuzzer's runtime.
            linkerSettings: fuzzScoped ? [.unsafeFlags(["-sanitize=fuzzer"])] : []),
        // The ConsentSession state machine alone, driven by a byte-coded action sequence; pure Swift, so it is fast.
        .executableTarget(
            name: "FuzzConsentSession", dependencies: ["FuzzSupport", "FuzzStudy", "ConsentCore", "SampleStudy"],
            path: "Fuzz/Targets/FuzzConsentSession",
            swiftSettings: swiftSettings + fuzzCoverage,
            linkerSettings: fuzzScoped ? [.unsafeFlags(["-sanitize=fuzzer"])] : []),

        // One connection's state machine alone, driven by a byte-coded sequence of what happens to a connection; fast.
        .executableTarget(
            name: "FuzzConnection",
            dependencies: [
                "FuzzSupport", "ConsentAgent", "AgentProtocol", "ConsentCore",
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Fuzz/Targets/FuzzConnection",
            swiftSettings: swiftSettings + fuzzCoverage,
            linkerSettings: fuzzScoped ? [.unsafeFlags(["-sanitize=fuzzer"])] : []),

        // consentd's config file, read and merged as at start-up, without starting anything; fast.
        .executableTarget(
            name: "FuzzConfig", dependencies: ["FuzzSupport", "ConsentAgent"],
            path: "Fuzz/Targets/FuzzConfig",
            swiftSettings: swiftSettings + fuzzCoverage,
            linkerSettings: fuzzScoped ? [.unsafeFlags(["-sanitize=fuzzer"])] : []),

        // The record and audit verifiers (`consentctl verify`, `consentctl audit verify`) over tampered files in memory.
        .executableTarget(
            name: "FuzzVerifiers",
            dependencies: [
                "FuzzSupport", "ConsentSigning", "ConsentCore", "AuditTrail", "SampleStudy",
                .product(name: "Crypto", package: "swift-crypto"), .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            path: "Fuzz/Targets/FuzzVerifiers",
            swiftSettings: swiftSettings + fuzzCoverage,
            linkerSettings: fuzzScoped ? [.unsafeFlags(["-sanitize=fuzzer"])] : []),

        // A signature's strokes and sizes through what the record composer makes of them: the PNG's size, the PNG
        // (cairo), the PDF's signer block.
        .executableTarget(
            name: "FuzzRecord",
            dependencies: ["FuzzSupport", "FuzzStudy", "ConsentRecords", "ConsentPDF", "ConsentCore", "SampleStudy"],
            path: "Fuzz/Targets/FuzzRecord",
            swiftSettings: swiftSettings + fuzzCoverage,
            linkerSettings: fuzzScoped ? [.unsafeFlags(["-sanitize=fuzzer"])] : []),

        // A signature-<role>.iso19794-7 file's bytes through the 19794-7 reader (either layout) and back; pure Swift, fast.
        .executableTarget(
            name: "FuzzISO19794", dependencies: ["FuzzSupport", "SignatureInterchange", "ConsentCore"],
            path: "Fuzz/Targets/FuzzISO19794",
            swiftSettings: swiftSettings + fuzzCoverage,
            linkerSettings: fuzzScoped ? [.unsafeFlags(["-sanitize=fuzzer"])] : []),

        // consentweb's pipeline for one browser connection (HTTP requests, WebSocket frames, the agent's lines) on
        // embedded channels, in process.
        .executableTarget(
            name: "FuzzBridge",
            dependencies: [
                "FuzzSupport", "KioskBridge", "AgentProtocol",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Fuzz/Targets/FuzzBridge",
            swiftSettings: swiftSettings + fuzzCoverage,
            linkerSettings: fuzzScoped ? [.unsafeFlags(["-sanitize=fuzzer"])] : []),

        // MARK: Tests
        // A seeded generator and random edits of JSON documents, for the tests that compare two readers or writers.
        .target(name: "JSONTestSupport", dependencies: ["JSON"], path: "Tests/JSONTestSupport", swiftSettings: swiftSettings),
        .testTarget(
            name: "ConsentCoreTests",
            dependencies: ["ConsentCore", "JSONFoundation", "JSONTestSupport", "SampleStudy"],
            resources: [.copy("Fixtures")]),
        .testTarget(
            name: "ConsentSigningTests",
            dependencies: [
                "ConsentSigning", "ConsentCore", "JSONFoundation", "JSONTestSupport", "SampleStudy", "SignatureInterchange",
                "FileBytes",
            ],
            exclude: ["validate_fhir.py"],
            resources: [.copy("Fixtures")]),
        // Compiles CCairoPango's shim after Pango's and GLib's real headers (found through pkg-config here, in a test
        // target only) and fails the build if one of its declarations is not theirs.
        .systemLibrary(name: "CCairoPangoHeaders", path: "Tests/CCairoPangoCheck/Headers", pkgConfig: "pangocairo"),
        .target(name: "CCairoPangoCheck", dependencies: ["CCairoPangoHeaders"], path: "Tests/CCairoPangoCheck/Check"),
        .testTarget(
            name: "ConsentPDFTests",
            dependencies: ["ConsentPDF", "ConsentCore", "SampleStudy", "CCairoPangoCheck"],
            resources: [.copy("Fixtures")]),
        .testTarget(
            name: "ConsentRecordsTests",
            dependencies: ["ConsentRecords", "ConsentSigning", "ConsentCore", "SampleStudy", .product(name: "Crypto", package: "swift-crypto")]),
        .testTarget(name: "SignaturePadTests", dependencies: ["SignaturePad"]),
        .testTarget(name: "HexTextTests", dependencies: ["HexText"]),
        .testTarget(name: "EnteredTextTests", dependencies: ["EnteredText"]),
        .testTarget(name: "StaffCredentialsTests", dependencies: ["StaffCredentials", "JSON"]),
        .testTarget(name: "UTCTimeTests", dependencies: ["UTCTime"]),
        .testTarget(name: "JSONTests", dependencies: ["JSON", "JSONFoundation", "JSONTestSupport", "SampleStudy"]),
        .testTarget(name: "FileBytesTests", dependencies: ["FileBytes"]),
        .testTarget(name: "PausedFlowsTests", dependencies: ["PausedFlows", "FileBytes"]),
        .testTarget(name: "HTMLSanitizerTests", dependencies: ["HTMLSanitizer", "ConsentCore", "SampleStudy"]),
        .testTarget(name: "SpeechTests", dependencies: ["Speech"]),
        .testTarget(name: "LocalSocketTests", dependencies: ["LocalSocket"]),
        .testTarget(
            name: "KioskBridgeTests",
            dependencies: [
                "KioskBridge", "AgentProtocol",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ]),
        .testTarget(name: "AuditTrailTests", dependencies: ["AuditTrail", "FileBytes", "ConsentCore", "ConsentSigning", "SampleStudy"]),
        .testTarget(
            name: "SignaturePadLinuxTests",
            dependencies: ["SignaturePadLinux", "SignaturePad", "CUMockdev", .product(name: "NIOConcurrencyHelpers", package: "swift-nio")],
            // Read from the source tree (MockTestbed.swift's #filePath) by umockdev, not from a bundle.
            exclude: ["Fixtures"]),
        .testTarget(
            name: "AgentProtocolTests",
            dependencies: [
                "AgentProtocol",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOTestUtils", package: "swift-nio"),
            ]),
        .testTarget(
            name: "ConsentAgentTests",
            dependencies: [
                "ConsentAgent", "AgentProtocol", "AuditTrail", "ConsentCore", "ConsentRecords", "ConsentSigning",
                "CopyPrinting", "SampleStudy", "SignaturePad", "SignaturePadLinux", "Speech", "StaffCredentials",
                "UploadQueue",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(
            name: "UploadQueueTests",
            dependencies: [
                "UploadQueue", "ConsentSigning", "ConsentCore", "SampleStudy",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]),
        // What both integration targets need to run and read child processes: file reads, ending a child, whether
        // ASan is in (Tests/IntegrationSupport).
        .target(name: "IntegrationSupport", dependencies: ["FileBytes"], path: "Tests/IntegrationSupport"),
        // NIOConcurrencyHelpers only for its lock (ThreadSanitizer understands it, unlike `Mutex`).
        .testTarget(
            name: "ConsentdIntegrationTests",
            // CUMockdev: the pad-unplug test owns a umockdev testbed and runs consentd inside it (PadUnplugTests.swift).
            dependencies: ["CUMockdev", "IntegrationSupport", .product(name: "NIOConcurrencyHelpers", package: "swift-nio")],
            exclude: ["fhir_server.py", "pty_dialogue.py", "fake_newer_agent.py", "Fixtures"]),
        // Runs the built consentweb and consentd over real sockets: the bridge's refusals and its relay.
        .testTarget(
            name: "ConsentwebIntegrationTests",
            dependencies: ["IntegrationSupport"]),
        // Runs the built consentctl as a coordinator would; imports none of our modules.
        .testTarget(name: "ConsentctlTests", dependencies: []),
    ],
    swiftLanguageModes: [.v6]
)
