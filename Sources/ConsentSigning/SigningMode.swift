/// Which Contract shape a record carries.
public enum SigningMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// FHIR R4 (4.0.1): status executed, R4 code systems, `Signature.who`, the signature image (docs/RECORDS.md).
    case r4
    /// C3-PRO 2.0's exact STU3 Contract (docs/C3PRO.md) for backends that expect it; the sharing value is semantic.
    case stu3
}
