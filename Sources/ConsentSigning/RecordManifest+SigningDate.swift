import Foundation
import UTCTime

extension RecordManifest {
    /// The signing instant of `signedAt` (a FHIR instant); nil when it is not one, as in a manifest written by hand.
    ///
    /// What a participant is told about the record ("the consent you gave on 27. November 2026") starts here, in
    /// the kiosk's time zone, not from the UTC day the first ten characters of `signedAt` name.
    public var signingDate: Date? { RFC3339.date(from: signedAt) }
}
