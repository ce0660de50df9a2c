import ConsentSigning

/// Which record withdraws which, which re-consents replace which, and which changes amend which: what each record's
/// manifest declares (`withdraws`, `previousRecord`, `amends`), read once per record and kept beside the listing of `<state>/records`.
///
/// `records.get`, a withdrawal and a re-consent ask who links to a record. Reading every manifest for each
/// question cost the agent core ~0.3 s per question with 3,000 records, and every other request waited behind it.
/// A record never changes once its directory is in place (the record makers rename a finished directory in), so
/// what its manifest declares is read once; the directory is still listed for every question, so a record that
/// appears or goes by any hand counts from the next question on.
struct RecordLinkIndex: Sendable {
    /// What one record's manifest declares; both nil for a consent that replaces nothing (or an unreadable manifest).
    struct Declared: Sendable, Hashable {
        var withdraws: String?
        var previousRecord: String?
        var amends: String? = nil
    }

    private var declared: [String: Declared] = [:]
    private var withdrawnBy: [String: Set<String>] = [:]
    private var replacedBy: [String: Set<String>] = [:]
    private var amendedBy: [String: Set<String>] = [:]

    /// Brings the index to `ids`, the records on disk now: the links of records gone are dropped, and the
    /// manifests of records not seen before are read with `declaredLinks`.
    mutating func update(ids: [String], declaredLinks: (String) -> Declared) {
        let listed = Set(ids)
        for (id, links) in declared where !listed.contains(id) {
            declared[id] = nil
            if let withdrawn = links.withdraws { withdrawnBy[withdrawn]?.remove(id) }
            if let previous = links.previousRecord { replacedBy[previous]?.remove(id) }
            if let amended = links.amends { amendedBy[amended]?.remove(id) }
        }
        for id in ids where declared[id] == nil {
            let links = declaredLinks(id)
            declared[id] = links
            if let withdrawn = links.withdraws { withdrawnBy[withdrawn, default: []].insert(id) }
            if let previous = links.previousRecord { replacedBy[previous, default: []].insert(id) }
            if let amended = links.amends { amendedBy[amended, default: []].insert(id) }
        }
    }

    /// The record that withdraws `id` (the first by id, should there be two).
    func withdrawal(of id: String) -> String? { withdrawnBy[id]?.min() }

    /// The change that amends `id` (the first by id, should there be two).
    func amendment(of id: String) -> String? { amendedBy[id]?.min() }

    /// The re-consents that replace `id`, sorted.
    func replacements(of id: String) -> [String] { (replacedBy[id] ?? []).sorted() }
}
