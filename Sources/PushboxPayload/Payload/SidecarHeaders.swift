import Foundation

/// The request headers stored beside a payload file: `NAME.headers` next to `NAME.json` or
/// `NAME.apns`, one `name: value` per line, `#` starting a comment. The pseudo-header
/// `device-token` gives the token of `/3/device/<token>`.
public struct SidecarHeaders: Sendable, Equatable {
    /// The sidecar line that gives the device token instead of a header.
    public static let tokenName = "device-token"

    /// The headers the sidecar file gives.
    public var headers = PushHeaders()
    /// The device token it gives.
    public var deviceToken: String?

    /// No headers and no token.
    public init() {}

    /// Parses the text of a `.headers` file.
    public init(text: String) {
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty, !trimmed.hasPrefix("#"), let (name, value) = PushHeaders.parseField(trimmed) else { continue }
            if name.lowercased() == Self.tokenName { deviceToken = value } else { headers.add(name, value) }
        }
    }

    /// The sidecar of a payload file, or nil when it has none.
    public static func beside(_ payloadPath: String) -> SidecarHeaders? {
        let path = (payloadPath as NSString).deletingPathExtension + ".headers"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        return SidecarHeaders(text: text)
    }
}
