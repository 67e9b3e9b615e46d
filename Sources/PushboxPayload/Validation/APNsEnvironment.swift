/// The APNs environment a device token belongs to (`aps-environment`): `development` for a
/// debug build from Xcode, `production` for TestFlight and the App Store. APNs answers a token
/// sent to the other environment's host `400 BadDeviceToken` ("…and that the token matches the
/// environment", Apple, Handling notification responses from APNs).
public enum APNsEnvironment: String, Sendable, Equatable, CaseIterable {
    case development, production

    /// The environment of an APNs host (`api.push.apple.com` is production; `api.sandbox…` and
    /// `api.development…` development), a port after it ignored; nil for any other host.
    public static func of(host: String) -> APNsEnvironment? {
        // A request's host arrives lower case and without its port: named as it is, no copies.
        if let known = named(host) { return known }
        return named((host.split(separator: ":").first.map(String.init) ?? host).lowercased())
    }

    private static func named(_ name: String) -> APNsEnvironment? {
        switch name {
        case "api.push.apple.com": return .production
        case "api.sandbox.push.apple.com", "api.development.push.apple.com": return .development
        default: return nil
        }
    }

    /// The host a backend sends this environment's pushes to.
    public var host: String { self == .production ? "api.push.apple.com" : "api.sandbox.push.apple.com" }
}
