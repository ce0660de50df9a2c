import ConsentAgent
import Foundation
import Testing

/// `staffCountersignature`, `staffFile`, `staffLockoutSeconds`: read by name, checked, merged into `StaffSettings`.
@Suite struct StaffSettingsTests {
    private func parse(_ json: String) throws -> AgentConfigFile {
        try AgentConfigFile.parse(Data(json.utf8), file: "test.json")
    }

    @Test func offByDefaultRequiredWithAFile() throws {
        #expect(try AgentOptions.merge(flags: AgentFlags(), file: AgentConfigFile(), defaultSocketPath: "/run/x.sock").staff == nil)
        let off = try parse(#"{"staffCountersignature": "off", "staffFile": "/x/staff.json"}"#)
        #expect(try AgentOptions.merge(flags: AgentFlags(), file: off, defaultSocketPath: "/run/x.sock").staff == nil)
        let required = try parse(#"{"staffCountersignature": "required", "staffFile": "/x/staff.json", "staffLockoutSeconds": 60}"#)
        let staff = try AgentOptions.merge(flags: AgentFlags(), file: required, defaultSocketPath: "/run/x.sock").staff
        #expect(staff == StaffSettings(file: "/x/staff.json", lockoutSeconds: 60))
        let defaulted = try parse(#"{"staffCountersignature": "required", "staffFile": "/x/staff.json"}"#)
        #expect(try AgentOptions.merge(flags: AgentFlags(), file: defaulted, defaultSocketPath: "/run/x.sock").staff?.lockoutSeconds == 900)
    }

    @Test func badValuesAreRefusedByName() throws {
        #expect { try parse(#"{"staffCountersignature": "yes"}"#) } throws: { "\($0)".contains("staffCountersignature") }
        #expect { try parse(#"{"staffFile": ""}"#) } throws: { "\($0)".contains("staffFile") }
        #expect { try parse(#"{"staffLockoutSeconds": 0}"#) } throws: { "\($0)".contains("staffLockoutSeconds") }
        let noFile = try parse(#"{"staffCountersignature": "required"}"#)
        #expect { try AgentOptions.merge(flags: AgentFlags(), file: noFile, defaultSocketPath: "/run/x.sock") } throws: {
            "\($0)".contains("staffFile")
        }
    }
}
