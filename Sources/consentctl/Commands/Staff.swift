import ArgumentParser
import FileBytes
import Foundation
import JSON
import StaffCredentials

#if canImport(Glibc)
import Glibc
#endif

/// `consentctl staff add|list|remove`: the credentials of the people who obtain consent (`staffCountersignature`).
/// The file is consentd's `staffFile`; consentd reads it on every unlock, so changes need no restart.
struct Staff: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Manage the staff credentials of the person obtaining consent (config staffFile).",
        subcommands: [Add.self, List.self, Remove.self])

    /// Where the credentials are: `--file`, else the consentd config's `staffFile`.
    struct FileOptions: ParsableArguments {
        @Option(help: ArgumentHelp("The staff credential file. Default: the config's staffFile.", valueName: "PATH"))
        var file: String?

        @Option(help: ArgumentHelp("The consentd config file whose staffFile is used.", valueName: "FILE"))
        var config = "/etc/consentd/consentd.json"

        func path() throws -> String {
            if let file { return file }
            guard let bytes = try? FileBytes.read(config, limit: 16 << 20),
                let object = try? JSONValue.parseDocument(bytes), object.objectValue != nil
            else {
                throw CommandFailure("cannot read the config \(config); pass --file PATH or --config FILE")
            }
            guard let path = object["staffFile"]?.stringValue, !path.isEmpty else {
                throw CommandFailure("\(config) has no staffFile; set it, or pass --file PATH")
            }
            return path
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a staff member; reads their PIN twice.",
            discussion: """
                The PIN (6 to 12 digits) is read twice from the terminal without echo, or as two lines on standard \
                input when that is not a terminal; never from the command line. Only a salted PBKDF2-SHA256 hash is \
                stored; the file is written 0600, atomically. Run it as the user consentd runs as, so consentd can \
                read the file. To change a PIN, remove the id and add it again.
                """)

        @Argument(help: ArgumentHelp("The staff id: 1 to 64 letters, digits, '.', '_' or '-'.", valueName: "ID"))
        var id: String

        @Option(help: ArgumentHelp("The staff member's printed name, as the consent PDF shows it.", valueName: "NAME"))
        var name: String

        @OptionGroup var location: FileOptions

        func run() throws {
            let path = try location.path()
            do {
                try StaffCredential.checkID(id)
                var file = try StaffFile.load(path)
                guard !file.staff.contains(where: { $0.id == StaffCredential.normalizedID(id) }) else {
                    throw CommandFailure("staff id \(id) exists already; remove it first to set a new PIN")
                }
                let pin = try PINReader.readTwice()
                try file.add(StaffCredential(id: id, name: name, pin: pin))
                try file.save(path)
                print("added staff \(StaffCredential.normalizedID(id)) to \(path)")
            } catch let error as StaffCredentialError {
                throw CommandFailure(error.message)
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the staff ids and names (never a PIN or hash).")

        @OptionGroup var location: FileOptions

        func run() throws {
            let path = try location.path()
            do {
                let file = try StaffFile.load(path)
                if file.staff.isEmpty { print("no staff in \(path)") }
                for credential in file.staff {
                    print("\(credential.id)\t\(credential.name)\tadded \(credential.added)")
                }
            } catch let error as StaffCredentialError {
                throw CommandFailure(error.message)
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a staff member's credential.")

        @Argument(help: ArgumentHelp("The staff id.", valueName: "ID"))
        var id: String

        @OptionGroup var location: FileOptions

        func run() throws {
            let path = try location.path()
            do {
                var file = try StaffFile.load(path)
                try file.remove(id)
                try file.save(path)
                print("removed staff \(id) from \(path)")
            } catch let error as StaffCredentialError {
                throw CommandFailure(error.message)
            }
        }
    }
}

/// Reads a PIN twice: from the terminal with echo off, or two lines of standard input when it is not a terminal.
enum PINReader {
    static func readTwice() throws -> String {
        let terminal = isatty(STDIN_FILENO) == 1
        let first = try read(prompt: "PIN (6 to 12 digits): ", terminal: terminal)
        let second = try read(prompt: "PIN again: ", terminal: terminal)
        guard first == second else { throw CommandFailure("the two PINs differ; nothing was changed") }
        try StaffCredential.checkPIN(first)
        return first
    }

    private static func read(prompt: String, terminal: Bool) throws -> String {
        guard terminal else {
            guard let line = readLine(strippingNewline: true) else {
                throw CommandFailure("standard input ended before two PIN lines were read")
            }
            return line
        }
        FileHandle.standardError.write(Data(prompt.utf8))
        var saved = termios()
        tcgetattr(STDIN_FILENO, &saved)
        var silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
            FileHandle.standardError.write(Data("\n".utf8))
        }
        guard let line = readLine(strippingNewline: true) else { throw CommandFailure("no PIN was typed") }
        return line
    }
}
