/// The IRB approval a consent was given under, as a record's manifest binds it and its FHIR Consent names it
/// (docs/RECORDS.md, "The study's approval"). The agent sets it on the study a flow runs once the study's
/// `approval.json` verified against `approvalKeys`; nil when the kiosk checks no approvals.
public struct StudyApprovalBinding: Sendable, Hashable, Codable {
    /// SHA-256 (hex) of the exact bytes of `approval.json`: the approval itself, signature included.
    public var sha256: String
    /// `SHA256:<hex>` of the approving key's SubjectPublicKeyInfo (DER).
    public var keyFingerprint: String
    /// The first and the last day the approval covers (`YYYY-MM-DD`).
    public var approved: String
    public var expires: String
    /// The site the approval is for; nil: any site.
    public var site: String?
    /// The IRB's reference ("IRB #2026-0042"), when the approval gives one.
    public var reference: String?
    /// SHA-256 (hex) of the review pack's `pack.json` the approval binds, and the screens it approved
    /// (`ScreensDigest`), which the kiosk checked when it loaded the study; nil for an approval sealed without a pack.
    public var reviewPack: String?
    public var screensDigest: String?

    public init(
        sha256: String, keyFingerprint: String, approved: String, expires: String, site: String? = nil,
        reference: String? = nil, reviewPack: String? = nil, screensDigest: String? = nil
    ) {
        self.sha256 = sha256
        self.keyFingerprint = keyFingerprint
        self.approved = approved
        self.expires = expires
        self.site = site
        self.reference = reference
        self.reviewPack = reviewPack
        self.screensDigest = screensDigest
    }

    /// The URN the FHIR Consent's `policy` names the approval by.
    public var policyURI: String { "urn:consent-kiosk:approval:sha256:\(sha256)" }
    /// The approving key, as the `policy`'s `authority`.
    public var authorityURI: String { "urn:consent-kiosk:approval-key:\(keyFingerprint)" }
}
