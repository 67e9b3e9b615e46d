import Foundation
import PushboxJSON

/// The alert text a notification shows.
public struct AlertContent: Sendable, Equatable {
    /// The alert's title.
    public var title: String?
    /// The alert's subtitle.
    public var subtitle: String?
    /// The alert's body.
    public var body: String?

    /// The texts a payload's bytes carry as they are, whatever else is wrong with it: `aps.alert`
    /// (its literal fields, or the loc keys themselves), an FCM message's `notification` or its
    /// `apns.payload`. Nil when the bytes are no JSON object or carry no text.
    public static func literal(of bytes: [UInt8]) -> AlertContent? {
        guard let document = try? JSONParser.parse(bytes).objectValue else { return nil }
        let message = document["message"]?.objectValue ?? document
        func alert(_ payload: JSONObject?) -> AlertContent? {
            switch payload?["aps"]?.objectValue?["alert"] {
            case .string(let body)?: return AlertContent(body: body)
            case .object(let a)?:
                return AlertContent(
                    title: a["title"]?.stringValue ?? a["title-loc-key"]?.stringValue,
                    subtitle: a["subtitle"]?.stringValue ?? a["subtitle-loc-key"]?.stringValue,
                    body: a["body"]?.stringValue ?? a["loc-key"]?.stringValue)
            default: return nil
            }
        }
        var content = alert(document) ?? alert(message["apns"]?.objectValue?["payload"]?.objectValue) ?? AlertContent()
        if let n = message["notification"]?.objectValue {
            content.title = content.title ?? n["title"]?.stringValue
            content.body = content.body ?? n["body"]?.stringValue
        }
        return content == AlertContent() ? nil : content
    }

    /// The content as JSON (`{"title", "subtitle", "body"}`, absent ones null).
    public var json: JSONValue {
        .object(JSONObject([("title", .optionalString(title)), ("subtitle", .optionalString(subtitle)), ("body", .optionalString(body))]))
    }

    /// Content read back from its JSON object.
    public init?(json: JSONValue) {
        guard let o = json.objectValue else { return nil }
        self.init(title: o["title"]?.stringValue, subtitle: o["subtitle"]?.stringValue, body: o["body"]?.stringValue)
    }

    /// Alert content.
    public init(title: String? = nil, subtitle: String? = nil, body: String? = nil) {
        self.title = title
        self.subtitle = subtitle
        self.body = body
    }
}
