import ConsentAgent
import Foundation

/// One input as consentd's config file (`--config`): `AgentConfigFile.parse` (JSON, every key's type and range, the
/// `upload`, `allowedPeers`, `recordEncryption` and `biometricEscrow` objects, locale and time zone), then what
/// consentd makes of an accepted file: `AgentOptions.merge` without flags, and with each seconds and count flag set
/// from the file's own value, so a value the file accepts is also tried as a flag; and the upload settings'
/// `validate()`. Nothing touches the disk, a socket or a device: a config file that loads must start the agent
/// or be refused by name, never trap (a seconds value of 1e300 did, `SettingSeconds`).
struct ConfigFuzzer: Sendable {
    func run(_ input: [UInt8]) {
        guard let file = try? AgentConfigFile.parse(Data(input), file: "fuzz.json") else { return }
        _ = try? AgentOptions.merge(flags: AgentFlags(), file: file, defaultSocketPath: "/run/fuzz.sock")
        var flags = AgentFlags()
        flags.inactivityTimeout = file.inactivityTimeoutSeconds?.seconds
        flags.clientKillTimeout = file.clientKillTimeoutSeconds?.seconds
        flags.shutdownTimeout = file.negotiationTimeoutSeconds?.seconds
        flags.maxLineBytes = file.maxLineBytes?.value
        flags.outboundQueueMessages = file.outboundQueueMessages?.value
        flags.logLevel = file.logLevel?.rawValue
        flags.pad = file.pad
        flags.studies = file.studies ?? []
        _ = try? AgentOptions.merge(flags: flags, file: AgentConfigFile(), defaultSocketPath: "/run/fuzz.sock")
        try? file.upload?.validate()
    }
}
