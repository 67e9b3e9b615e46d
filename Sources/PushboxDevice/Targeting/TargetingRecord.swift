import PushboxJSON
import PushboxPayload

/// FCM's targeting of a message as judged when it arrived, kept with the stored row: the
/// device's topics and own tokens change (subscriptions through the API, `pushbox device`),
/// and a message rendered again later must not be judged against the new ones.
public struct TargetingRecord: Sendable, Equatable {
    /// Whether it reached the device.
    public var targeted: Bool
    /// Why (or why not), in words.
    public var detail: String?
    /// To whom it was addressed (`ValidationReport.addressee`).
    public var addressee: String?

    /// The targeting of an accepted FCM message's report; nil for any other report.
    public init?(_ report: ValidationReport) {
        // An FCM message's targeting; an APNs push's only where the fleet said which device took it.
        guard report.ok, report.validated?.fcm != nil || report.targetDescription != nil else { return nil }
        switch report.targeting {
        case .device: (targeted, detail) = (true, report.targetDescription)
        case .notTargeted(let why): (targeted, detail) = (false, why)
        }
        addressee = report.addressee
    }

    /// The record as the row keeps it.
    public var json: JSONValue {
        .object(JSONObject([("targeted", .bool(targeted)), ("detail", .optionalString(detail)), ("addressee", .optionalString(addressee))]))
    }

    /// A record read back from its JSON; nil when it is not one.
    public init?(json: JSONValue) {
        guard let o = json.objectValue, o["targeted"] == .bool(true) || o["targeted"] == .bool(false) else { return nil }
        targeted = o["targeted"] == .bool(true)
        detail = o["detail"]?.stringValue
        addressee = o["addressee"]?.stringValue
    }

    /// `report` (a validation of the same payload made later) with the targeting judged at arrival.
    public func applied(to report: ValidationReport) -> ValidationReport {
        guard report.ok else { return report }
        guard report.validated?.fcm != nil else {
            var out = report
            out.targetDescription = detail
            return out
        }
        var out = report
        out.targeting = targeted ? .device : .notTargeted(detail ?? "")
        out.targetDescription = targeted ? detail : nil
        out.addressee = addressee
        return out
    }
}
