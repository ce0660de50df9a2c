import LocalSocket
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// systemd socket activation (sd_listen_fds(3)): a listening socket handed to consentd by its `.socket` unit.
///
/// systemd (or `systemd-socket-activate`) opens the socket, then starts the service with the sockets as fds 3, 4, …
/// and the environment below. Only a process whose pid is `LISTEN_PID` may use them, so a variable inherited from
/// a parent by accident is ignored:
///
/// ```
/// LISTEN_PID=<our pid>   LISTEN_FDS=<n ≥ 1>   LISTEN_FDNAMES=<name:name:…> (optional)
///   fd 3 = SD_LISTEN_FDS_START, the first socket; consentd serves that one.
/// ```
public enum SocketActivation {
    /// The first inherited fd (`SD_LISTEN_FDS_START`).
    public static let firstDescriptor: CInt = 3

    /// The environment variables of the protocol, removed once read so children never inherit them.
    public static let variables = ["LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"]

    /// What the environment says about inherited sockets.
    public enum Environment: Equatable, Sendable {
        /// No socket activation: consentd binds its own socket.
        case notActivated
        /// `count` sockets from fd 3 on, for this process.
        case activated(count: Int)
        /// The variables are set but unusable (not a number, no fds); the message names the variable.
        case invalid(String)
    }

    /// Parses `LISTEN_PID` and `LISTEN_FDS` the way sd_listen_fds(3) does.
    ///
    /// A `LISTEN_PID` of another process means the variables were inherited by accident: not activated.
    public static func parse(_ environment: [String: String], pid: Int32) -> Environment {
        guard let pidText = environment["LISTEN_PID"] else {
            return environment["LISTEN_FDS"] == nil ? .notActivated : .invalid("LISTEN_FDS is set without LISTEN_PID")
        }
        guard let listenPID = Int32(pidText.trimmingCharacters(in: .whitespaces)), listenPID > 0 else {
            return .invalid("LISTEN_PID \"\(pidText)\" is not a process id")
        }
        guard listenPID == pid else { return .notActivated }
        guard let fdsText = environment["LISTEN_FDS"] else { return .invalid("LISTEN_PID is set without LISTEN_FDS") }
        guard let count = Int(fdsText.trimmingCharacters(in: .whitespaces)), count >= 0 else {
            return .invalid("LISTEN_FDS \"\(fdsText)\" is not a number of descriptors")
        }
        guard count >= 1 else { return .invalid("LISTEN_FDS is 0: systemd passed no socket") }
        return .activated(count: count)
    }

    /// The listening socket systemd passed to this process, if any; removes the LISTEN_* variables either way.
    ///
    /// Marks the fd close-on-exec (systemd passes it inheritable) and checks that it is a listening stream socket.
    /// - Throws: `AgentError(.invalidConfiguration)` when the variables or the fd are unusable.
    public static func takeInheritedSocket(
        environment: [String: String] = ProcessInfo.processInfo.environment, pid: Int32 = getpid()
    ) throws -> InheritedSocket? {
        let parsed = parse(environment, pid: pid)
        for name in variables { unsetenv(name) }
        switch parsed {
        case .notActivated:
            return nil
        case .invalid(let message):
            throw AgentError(.invalidConfiguration, "socket activation: \(message)")
        case .activated(let count):
            let fd = firstDescriptor
            let flags = fcntl(fd, F_GETFD)
            guard flags >= 0 else {
                throw AgentError(.invalidConfiguration, "socket activation: fd 3 is not open although LISTEN_FDS=\(count)")
            }
            _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC)
            var type: CInt = 0
            var listening: CInt = 0
            var length = socklen_t(MemoryLayout<CInt>.size)
            guard getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &length) == 0, type == CInt(SOCK_STREAM.rawValue) else {
                throw AgentError(.invalidConfiguration, "socket activation: fd 3 is not a stream socket; use ListenStream=")
            }
            length = socklen_t(MemoryLayout<CInt>.size)
            guard getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &length) == 0, listening != 0 else {
                throw AgentError(.invalidConfiguration, "socket activation: fd 3 is not listening; use Accept=no")
            }
            return InheritedSocket(descriptor: fd, count: count, path: LocalSocket.boundPath(of: fd))
        }
    }
}

/// A listening socket inherited from systemd: consentd serves it but neither creates, chmods nor removes its path.
public struct InheritedSocket: Sendable, Hashable {
    /// The fd (3).
    public var descriptor: CInt
    /// How many sockets systemd passed; consentd uses the first.
    public var count: Int
    /// The path it is bound to, for logs; nil when unknown.
    public var path: String?

    public init(descriptor: CInt, count: Int = 1, path: String? = nil) {
        self.descriptor = descriptor
        self.count = count
        self.path = path
    }
}
