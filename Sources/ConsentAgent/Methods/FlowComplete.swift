import AgentProtocol
import ConsentCore
import ConsentPDF
import ConsentSigning
import FileBytes
import Foundation
import Logging

/// `flow.complete {flow, patient?, deidentify?, location?}`: the patient and the location are checked as FHIR here,
/// so bad input is `InvalidParams` naming the member, never `RecordFailed` ("try again").
struct FlowCompleteParams {
    var flow: String
    var options = CompletionOptions()

    init(_ params: [String: RPCValue]) throws {
        let reader = try ParamsReader(params, allowed: ["flow", "patient", "deidentify", "location"])
        flow = try reader.string("flow")
        if let patient = reader.optionalValue("patient") {
            guard case .object = patient else {
                throw RPCErrorObject.invalidParams(field: "patient", "patient must be a FHIR Patient object")
            }
            let json = patient
            do { try FHIRInputCheck.patient(json, today: Date()) } catch let error as FHIRInputCheck.Fault {
                throw Self.refusal(error)
            }
            options.patient = json
        }
        options.deidentify = try reader.optionalBool("deidentify") ?? false
        if let location = reader.optionalValue("location") {
            guard case .object = location else {
                throw RPCErrorObject.invalidParams(field: "location", "location must be a FHIR Address object")
            }
            let json = location
            do { try FHIRInputCheck.address(json) } catch let error as FHIRInputCheck.Fault {
                throw Self.refusal(error)
            }
            options.location = json
        }
    }

    /// A wrong shape is `InvalidParams`; text the rule of typed text refuses (a control or bidi character, a name's
    /// character) is `InvalidField`, as it is for the names a flow's steps take; both name the member in `data.field`.
    static func refusal(_ fault: FHIRInputCheck.Fault) -> RPCErrorObject {
        guard fault.isText else { return .invalidParams(field: fault.field, "\(fault.field) \(fault.message)") }
        return .domain(.invalidField, "\(fault.field) \(fault.message)", details: ["field": .string(fault.field)])
    }
}

/// The handler, `complete`, is in `Completion/FlowCompletion.swift`: the pipeline as one sequence of named steps.
extension CompletionContext {
    /// A signing error that says the client's patient or location is unusable, as the params error it is.
    static func refusedInput(_ error: any Error) -> RPCErrorObject? {
        guard let error = error as? ConsentSigningError else { return nil }
        switch error.code {
        case .notAPatient, .invalidPatient, .invalidBirthDate:
            return .invalidParams(field: "patient", "patient is not a usable FHIR Patient")
        case .invalidLocation:
            return .invalidParams(field: "location", "location is not a usable FHIR Address")
        default:
            return nil
        }
    }

    /// The errno under a storage fault, for the log (ENOSPC, EROFS, EMFILE, EIO say what to fix).
    static func storageErrno(of error: any Error) -> POSIXErrorCode? {
        if let posix = error as? POSIXError { return posix.code }
        if let failure = error as? FileBytes.Failure { return POSIXErrorCode(rawValue: failure.errno) }
        if let signing = error as? ConsentSigningError, let cause = signing.cause { return storageErrno(of: cause) }
        return nil
    }
}
