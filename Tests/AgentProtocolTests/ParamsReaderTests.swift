import AgentProtocol
import Testing

@Suite struct ParamsReaderTests {
    @Test func unknownMembersAreRefusedFirstInSortedOrder() {
        #expect(throws: RPCErrorObject.invalidParams(field: "b", "unknown parameter \"b\"")) {
            _ = try ParamsReader(["z": 1, "b": 2, "flow": "f"], allowed: ["flow"])
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
