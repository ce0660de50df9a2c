import ConsentCore

/// The earlier record's Consent, sent again in a change's Bundle with `status: inactive` (docs/RECORDS.md,
/// "Changes of answers"): the new record's Consent carries every answer as it now stands, so the earlier one no
/// longer applies, and a server that keeps the earlier one must learn that from the same transaction.
///
/// The kiosk never learns the server ids of what it uploaded, so the entry is a conditional update by the record
/// id the Consent carries as its `identifier` (`PUT Consent?identifier=urn:consent-kiosk:record-id|<id>`). A
/// Consent signed before it carried one is given it here; a server that finds no match creates it, inactive.
/// References into the earlier record's own Bundle (`urn:uuid:`) would resolve against nothing in this one and fail
/// the whole transaction, so they are made logical: the Contract by the same identifier, the PDF's attachment
/// without its `url` (its hash, size and title still pin it).
enum AmendedConsent {
    static func entry(_ consent: JSONValue, recordID: String) -> TransactionBundleBuilder.Entry {
        let identifier: JSONValue = ["system": .string(FHIRCodes.recordIdentifierSystem), "value": .string(recordID)]
        var resource = consent
        resource.set("status", "inactive")
        resource.set("identifier", [identifier])
        if let reference = resource["sourceReference"]?["reference"]?.stringValue, reference.hasPrefix("urn:") {
            resource.set(
                "sourceReference",
                ["type": "Contract", "identifier": identifier, "display": .string("Contract of consent record \(recordID)")])
        }
        if var attachment = resource["sourceAttachment"], attachment["url"]?.stringValue?.hasPrefix("urn:") == true {
            attachment.set("url", nil)
            resource.set("sourceAttachment", attachment)
        }
        let query = "identifier=\(FHIRCodes.recordIdentifierSystem)|\(recordID)"
        return .init(resource: resource, uuid: nil, conditionalURL: "Consent?\(query)")
    }
}
