/// The APNs environment a device token belongs to (`aps-environment`): `development` for a
/// debug build from Xcode, `production` for TestFlight and the App Store. APNs answers a token
/// sent to the other environment's host `400 BadDeviceToken` ("…and that the token matches the
/// environment", Apple, Handling notification responses from APNs).
public enum APNsEnvironment: String, Sendable, Equatable, CaseIterable {
    case development, production

    /// The environment of an APNs host (`api.push.apple.com` is production; `api.sandbox…` and
    /// `api.development…` development), in any letter case, a port after it ignored; nil for any
    /// other host. Asked of every push: it compares bytes in place, as `localhost:2197` (how a
    /// backend tries pushbox's port) is answered without a copy of the name.
    public static func of(host: String) -> APNsEnvironment? {
        let name = host.utf8.prefix { $0 != UInt8(ascii: ":") }
        for (known, environment) in hosts where known.utf8.count == name.count {
            // Host names are ASCII: folding A–Z is the whole of lower-casing them.
            let same = zip(known.utf8, name).allSatisfy { k, c in k == ((c >= 0x41 && c <= 0x5A) ? c | 0x20 : c) }
            if same { return environment }
        }
        return nil
    }

    /// The hosts of APNs' two environments, lower case.
    private static let hosts: [(String, APNsEnvironment)] = [
        ("api.push.apple.com", .production), ("api.sandbox.push.apple.com", .development), ("api.development.push.apple.com", .development),
    ]

    /// The host a backend sends this environment's pushes to.
    public var host: String { self == .production ? "api.push.apple.com" : "api.sandbox.push.apple.com" }
}
