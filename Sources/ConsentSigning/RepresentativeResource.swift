import ConsentCore

/// The legally authorized representative who consented for the participant, as a contained FHIR `RelatedPerson`:
/// the relationship (a v3 RoleCode from the study's options) is recorded there, since `Contract.signer` has no
/// place for it.
///
/// Each resource that names the representative (Contract, Consent, Provenance) contains its own copy, because a
/// reference `#representative` resolves only inside the resource that holds it.
struct RepresentativeResource {
    static let id = "representative"

    var representative: ConsentRepresentative
    var patientReference: String
    /// False in de-identified records: the relationship stays, the name goes.
    var includesName: Bool

    var resource: JSONValue {
        let relationship = representative.relationship
        var members: [String: JSONValue] = [
            "resourceType": "RelatedPerson",
            "id": .string(Self.id),
            "patient": ["reference": .string(patientReference)],
            "relationship": [
                [
                    "coding": [
                        [
                            "system": .string(relationship.system), "code": .string(relationship.code),
                            "display": .string(relationship.display),
                        ]
                    ],
                    "text": .string(relationship.display),
                ]
            ],
        ]
        if includesName {
            members["name"] = [
                ["use": "official", "given": [.string(representative.givenName)], "family": .string(representative.familyName)]
            ]
        }
        return .object(members)
    }

    /// `#representative`, with the name as display unless de-identified.
    var reference: JSONValue {
        let display = includesName ? representative.friendlyName : SignerRole.legallyAuthorizedRepresentative.signerType.display
        return ["reference": .string("#\(Self.id)"), "type": "RelatedPerson", "display": .string(display)]
    }

    /// `members` with the RelatedPerson appended to its `contained`.
    func containing(in members: inout [String: JSONValue]) {
        let existing = members["contained"]?.arrayValue ?? []
        members["contained"] = .array(existing + [resource])
    }
}
