import ArgumentParser
import Foundation

/// `consentctl reload [--socket PATH]`: asks the running consentd to read its studies again (SIGHUP), so a version
/// copied or pulled beside the others is served from the next `flow.start`; flows in progress keep theirs.
///
/// The agent is found by its socket: the kernel names the process at the other end (SO_PEERCRED). Under systemd's
/// socket activation that process is systemd itself, so the command refuses and says to use `systemctl reload
/// consentd` (whose `ExecReload` sends the same signal).
struct Reload: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Make the running consentd read its studies again (SIGHUP), without a restart.",
        discussion: "Exit status: 0 signalled, 1 consentd cannot be reached or is not the socket's process.")

    @Option(help: ArgumentHelp("consentd's socket. Default: $XDG_RUNTIME_DIR/consentd.sock, else ./run/consentd.sock.", valueName: "PATH"))
    var socket: String?

    func run() throws { try Self.signal(socket: socket) }

    static func signal(socket: String?) throws {
        let path = socket ?? Walk.defaultSocketPath()
        let connection: AgentConnection
        do { connection = try AgentConnection(path: path) } catch let error as AgentConnection.ConnectionFailure {
            throw CommandFailure(error.description)
        }
        // `struct ucred { pid_t pid; uid_t uid; gid_t gid; }`: Glibc hides it without _GNU_SOURCE.
        var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout<(Int32, UInt32, UInt32)>.size)
        guard getsockopt(connection.fileDescriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0, credentials.pid > 0 else {
            throw CommandFailure("\(path): cannot tell which process serves the socket")
        }
        let pid = credentials.pid
        let name = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
        guard pid > 1, name == "consentd" else {
            throw CommandFailure(
                "\(path) is served by \(name ?? "process \(pid)"), not consentd itself (systemd's socket activation?); "
                    + "use systemctl reload consentd")
        }
        guard kill(pid, SIGHUP) == 0 else {
            throw CommandFailure("cannot signal consentd (pid \(pid)): \(String(cString: strerror(errno))); run as its user or root")
        }
        print("consentd (pid \(pid)) reloads its studies; see its log for the versions it serves")
    }
}
