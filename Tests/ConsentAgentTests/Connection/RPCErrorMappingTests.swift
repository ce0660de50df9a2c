import AgentProtocol
import ConsentCore
import Logging
import Testing

@testable import ConsentAgent

@Suite struct RPCErrorMappingTests {
    let logger = Logger(label: "test")

    @Test(arguments: [
        (ConsentCoreError.Code.stepMismatch, RPCErrorType.stepMismatch),
        (.invalidAction, .invalidAction), (.invalidAnswers, .invalidAnswers), (.notEligible, .notEligible),
        (.missingName, .missingName), (.missingSignature, .missingSignature), (.invalidPasscode, .invalidPasscode),
        (.flowFinished, .flowFinished), (.invalidField, .invalidField),
    ])
    func coreCodes(_ code: ConsentCoreError.Code, _ type: RPCErrorType) {
        let wire = RPCErrorMapping.wireError(for: ConsentCoreError(code, "m"), requestID: .integer(1), logger: logger)
        #expect(wire.code == -32000)
        #expect(wire.type == type)
    }

    @Test func finishedBecauseExpiredSaysFlowExpired() {
        let wire = RPCErrorMapping.wireError(
            for: ConsentCoreError(.flowFinished, "m"), step: .expired, requestID: .integer(1), logger: logger)
        #expect(wire.type == .flowExpired)
    }

    @Test func agentCodesAndUnknownErrors() {
        #expect(RPCErrorMapping.wireError(for: AgentError(.noPad, "m"), requestID: .integer(1), logger: logger).type == .noPad)
        #expect(RPCErrorMapping.wireError(for: AgentError(.signatureTooShort, "m"), requestID: .integer(1), logger: logger).type == .signatureTooShort)
        struct Strange: Error {}
        let unknown = RPCErrorMapping.wireError(for: Strange(), requestID: .integer(1), logger: logger)
        #expect(unknown.code == -32603)
        #expect(unknown.type == .internalError)
    }
}
