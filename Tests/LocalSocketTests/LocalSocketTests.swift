import Foundation
import Glibc
import LocalSocket
import Testing

/// consentd's socket address as consentd, consentctl and consentweb build and read it, on real kernel sockets.
@Suite struct LocalSocketTests {
    /// A fresh directory under /tmp whose paths can be padded to any length up to the address's.
    static func directory() throws -> String {
        let path = "/tmp/ls-\(UInt32.random(in: .min ... .max))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        return path
    }

    static func streamSocket() throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        return fd
    }

    @Test func theLongestPathAnAddressHoldsIsBoundConnectedAndReadBack() throws {
        #expect(LocalSocket.maximumPathBytes == 107)
        let folder = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/" + String(repeating: "s", count: LocalSocket.maximumPathBytes - folder.utf8.count - 1)
        #expect(path.utf8.count == LocalSocket.maximumPathBytes)
        let server = try Self.streamSocket()
        defer { close(server) }
        var address = try #require(LocalSocket.address(path))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(server, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0 && listen(server, 1) == 0)
        #expect(LocalSocket.boundPath(of: server) == path)
        let client = try Self.streamSocket()
        defer { close(client) }
        #expect(LocalSocket.connect(client, to: path) == 0)
    }

    @Test func aPathOneByteTooLongIsRefusedBeforeTheKernel() throws {
        let path = "/tmp/" + String(repeating: "x", count: LocalSocket.maximumPathBytes - 4)
        #expect(path.utf8.count == LocalSocket.maximumPathBytes + 1)
        #expect(LocalSocket.address(path) == nil)
        let client = try Self.streamSocket()
        defer { close(client) }
        #expect(LocalSocket.connect(client, to: path) == ENAMETOOLONG)
        #expect(LocalSocket.connect(client, to: "/tmp/no-such-dir-\(UInt32.random(in: .min ... .max))/consentd.sock") == ENOENT)
    }

    @Test func unnamedAbstractAndOtherSocketsReadAsTheyAre() throws {
        let unnamed = try Self.streamSocket()
        defer { close(unnamed) }
        #expect(LocalSocket.boundPath(of: unnamed) == nil)
        let abstract = try Self.streamSocket()
        defer { close(abstract) }
        let name = "consent-test-\(UInt32.random(in: .min ... .max))"
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = [0] + Array(name.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(abstract, $0, length) } }
        try #require(bound == 0)
        #expect(LocalSocket.boundPath(of: abstract) == "@" + name)
        let inet = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(inet) }
        #expect(LocalSocket.boundPath(of: inet) == nil)
    }

    @Test func theDefaultPathIsInTheRuntimeDirectoryWhenThereIsOne() {
        #expect(LocalSocket.defaultAgentPath(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"]) == "/run/user/1000/consentd.sock")
        #expect(LocalSocket.defaultAgentPath(environment: ["XDG_RUNTIME_DIR": ""]) == "./run/consentd.sock")
        #expect(LocalSocket.defaultAgentPath(environment: [:]) == "./run/consentd.sock")
    }
}
