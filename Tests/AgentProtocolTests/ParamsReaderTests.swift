import AgentProtocol
import Testing

@Suite struct ParamsReaderTests {
    @Test func unknownMembersAreRefusedFirstInSortedOrder() {
        #expect(throws: RPCErrorObject.unknownParameter("b")) {
            _ = try ParamsReader(["z": 1, "b": 2, "flow": "f"], allowed: ["flow"])
        }
    }

    /// An unknown member's name is the client's text; the message never repeats it, and data.field
    /// only when it is a plain member name.
    @Test func unknownMembersAreNamedWithoutEchoingClientText() {
        for (name, field) in [("colour", "colour"), ("Zebulon Quixotic-\u{C5}ngstr\u{F6}m", "params"), ("a\"b", "params")] {
            do {
                _ = try ParamsReader([name: 1], allowed: ["flow"])
                Issue.record("accepted an unknown member")
            } catch {
                #expect(error.details["field"] == .string(field))
                #expect(!error.message.contains(name))
                #expect(error.code == -32602)
            }
        }
    }

    @Test func typesAndRequiredFieldsNameTheField() throws {
        let reader = try ParamsReader(["flow": 3, "answers": [true, nil, "x"]], allowed: ["flow", "answers", "step"])
        do {
            _ = try reader.string("flow")
            Issue.record("accepted a number")
        } catch {
            #expect(error.details["field"] == "flow")
            #expect(error.code == -32602)
        }
        do {
            _ = try reader.optionalBoolArray("answers")
            Issue.record("accepted a string answer")
        } catch {
            #expect(error.details["field"] == "answers[2]")
        }
        do {
            _ = try reader.string("step")
            Issue.record("accepted a missing field")
        } catch {
            #expect(error.details["field"] == "step")
        }
    }

    @Test func nullIsAbsent() throws {
        let reader = try ParamsReader(["pad": nil], allowed: ["pad"])
        #expect(try reader.optionalString("pad") == nil)
    }
}
