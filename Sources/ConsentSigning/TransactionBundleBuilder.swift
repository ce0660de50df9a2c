import ConsentCore

/// The transaction `Bundle` that uploads a record in one request.
///
/// The Patient is PUT under its id (C3-PRO's server flow, docs/C3PRO.md); everything else is POSTed under a
/// `urn:uuid:` fullUrl, which the server rewrites in the references between them. POSTed copies carry no `id`:
/// the signed Contract keeps its template's id, and servers such as HAPI refuse a create
/// that brings one.
enum TransactionBundleBuilder {
    struct Entry {
        var resource: JSONValue
        /// The minted uuid for POSTed resources; nil for the Patient, which is PUT.
        var uuid: String?
        /// A conditional update's URL (`Consent?identifier=…`): the resource is PUT there, under no id of its own
        /// (a change's earlier Consent, `AmendedConsent`).
        var conditionalURL: String? = nil
    }

    static func make(id: String, entries: [Entry]) -> JSONValue {
        let items: [JSONValue] = entries.map { entry in
            let type = entry.resource["resourceType"]?.stringValue ?? "Resource"
            if let url = entry.conditionalURL {
                var resource = entry.resource
                resource.set("id", nil)
                return ["resource": resource, "request": ["method": "PUT", "url": .string(url)]]
            }
            if let uuid = entry.uuid {
                var resource = entry.resource
                resource.set("id", nil)
                return [
                    "fullUrl": .string(RecordIdentifiers.urn(uuid)),
                    "resource": resource,
                    "request": ["method": "POST", "url": .string(type)],
                ]
            }
            let resourceID = entry.resource["id"]?.stringValue ?? ""
            return [
                "resource": entry.resource,
                "request": ["method": "PUT", "url": .string("\(type)/\(resourceID)")],
            ]
        }
        return ["resourceType": "Bundle", "id": .string(id), "type": "transaction", "entry": .array(items)]
    }
}
