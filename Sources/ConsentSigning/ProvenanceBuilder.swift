import ConsentCore
import Foundation

/// The R4 `Provenance` of a signing: it targets the Contract and the Consent, names the participant, the kiosk and
/// any witness as agents, and carries every handwritten signature (with its image when the record may hold one).
struct ProvenanceBuilder {
    var ids: RecordIdentifiers
    var patientReference: String
    var kioskID: String
    var signedAt: Date
    var policyURI: String
    var participantSignature: JSONValue
    /// Each other signer's agent role and Signature, in signer order.
    var additional: [(role: SignerRole, who: JSONValue, signature: JSONValue)]
    var hasPDF: Bool
    /// Set when a representative signed for the participant: they, not the participant, are the author.
    var representative: RepresentativeResource? = nil
    /// The earlier record this signing withdraws or replaces.
    var link: RecordLink? = nil

    func make() -> JSONValue {
        let patient: JSONValue = ["reference": .string(patientReference)]
        var author: [String: JSONValue] = ["type": Self.agentType("author", "Author"), "who": patient]
        if let representative {
            author["who"] = representative.reference
            author["onBehalfOf"] = patient
        }
        var agents: [JSONValue] = [
            .object(author),
            [
                "type": Self.agentType("assembler", "Assembler"),
                "who": [
                    "type": "Device",
                    "identifier": ["system": .string(FHIRCodes.kioskIdentifierSystem), "value": .string(kioskID)],
                    "display": .string("consent kiosk \(kioskID)"),
                ],
            ],
        ]
        for other in additional {
            var agent: [String: JSONValue] = ["type": Self.agentType(for: other.role), "who": other.who]
            if other.role.signsOnBehalfOfParticipant { agent["onBehalfOf"] = patient }
            agents.append(.object(agent))
        }
        var provenance: [String: JSONValue] = [
            "resourceType": "Provenance",
            "id": .string(ids.provenance),
            "target": [
                ["reference": .string(RecordIdentifiers.urn(ids.contract)), "type": "Contract"],
                ["reference": .string(RecordIdentifiers.urn(ids.consent)), "type": "Consent"],
            ],
            "recorded": .string(FHIRTime.instant(signedAt)),
            "policy": [.string(policyURI)],
            "activity": [
                "coding": [["system": .string(FHIRCodes.dataOperationSystem), "code": "CREATE", "display": "create"]]
            ],
            "agent": .array(agents),
            "signature": .array([participantSignature] + additional.map(\.signature)),
        ]
        if let representative {
            provenance["contained"] = [representative.resource]
        }
        var entities: [JSONValue] = []
        if hasPDF {
            entities.append([
                "role": "source",
                "what": ["reference": .string(RecordIdentifiers.urn(ids.documentReference)), "type": "DocumentReference"],
            ])
        }
        if let link {
            entities += Self.linkEntities(link)
            if let reason = link.reason { provenance["reason"] = [["text": .string(reason)]] }
        }
        if !entities.isEmpty { provenance["entity"] = .array(entities) }
        return .object(provenance)
    }

    /// The earlier record's Contract and Consent as entities: `removal` for a withdrawal (the consent is taken
    /// back), `revision` for a re-consent (a newer version replaces it). They are logical references (the record
    /// id as identifier): the earlier resources got server ids when they were uploaded, which the kiosk never
    /// learns, and a literal reference a server cannot resolve would fail the whole transaction.
    static func linkEntities(_ link: RecordLink) -> [JSONValue] {
        let role: JSONValue = link.kind == .withdrawal ? "removal" : "revision"
        let identifier: JSONValue = ["system": .string(FHIRCodes.recordIdentifierSystem), "value": .string(link.recordID)]
        return ["Contract", "Consent"].map { (type: String) -> JSONValue in
            [
                "role": role,
                "what": [
                    "type": .string(type), "identifier": identifier,
                    "display": .string("\(type) of consent record \(link.recordID)"),
                ],
            ]
        }
    }

    static func agentType(for role: SignerRole) -> JSONValue {
        switch role {
        case .witness: return agentType("attester", "Attester")
        case .interpreter: return agentType("performer", "Performer")
        case .legallyAuthorizedRepresentative: return agentType("legal", "Legal Authenticator")
        case .personObtainingConsent: return agentType("verifier", "Verifier")
        }
    }

    static func agentType(_ code: String, _ display: String) -> JSONValue {
        ["coding": [["system": .string(FHIRCodes.provenanceParticipantTypeSystem), "code": .string(code), "display": .string(display)]]]
    }
}
