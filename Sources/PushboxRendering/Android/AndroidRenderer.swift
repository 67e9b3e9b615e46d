import Foundation
import PushboxFetch
import PushboxJSON
import PushboxLocalization
import PushboxPayload

/// Builds an FCM message's Android notification the way the FCM Android SDK does in the
/// background case (§1.3 of pushbox's platform notes): `android.notification` over the
/// top-level `notification`, literal text before loc keys, loc keys through the app's
/// `strings.xml` for the device's locales, args formatted as `java.util.Formatter` does.
public struct AndroidRenderer: Sendable {
    /// The app's Android resources (nil: none found; loc keys then find nothing).
    public var resources: AndroidResources?
    /// The `android` section of the app's profile.
    public var profile: AndroidProfile
    /// The app's name for the header.
    public var appName: String

    /// A renderer for one app.
    public init(resources: AndroidResources?, profile: AndroidProfile, appName: String) {
        self.resources = resources
        self.profile = profile
        self.appName = appName
    }

    /// The locale step 1 configures for the device's `preferred` tags, and why.
    public func configuredLocale(_ preferred: [String]) -> (AndroidLocale?, String) {
        let device = preferred.compactMap(AndroidLocale.init(tag:))
        let claimed = profile.apkLocales.map { $0.compactMap(AndroidLocale.init(tag:)) } ?? resources?.locales ?? []
        return AndroidLocaleResolver.configuredLocale(preferred: device, claimed: claimed)
    }

    /// Android's limits on a notification's image (`ImageDownload`): 1 MiB, 5 seconds.
    public static let imageLimitBytes = 1_048_576
    public static let imageTimeoutMs = 5000

    /// `message` on a device whose languages are `preferred`; `ios` is the iPhone's rendering
    /// of the same message, to name where the two differ; `fetchImage` downloads the image
    /// (nil: not downloaded).
    public func render(
        _ message: FCMMessage, preferred: [String], ios: RenderedNotification? = nil,
        fetchImage: ((String) -> Result<RenderedAttachment, AttachmentFailure>)? = nil
    ) -> AndroidRendering {
        let android = message.android
        let n = android?["notification"]?.objectValue ?? JSONObject()
        func string(_ key: String) -> String? { n[key]?.stringValue }
        // Channel: the message's when the app created it, else the manifest's default, else FCM's fallback.
        var channel = AndroidProfile.fallbackChannel
        var channelSource = AndroidRendering.Source.fallback
        var findings: [Diagnostic] = []
        if let id = string("channel_id") ?? string("channelId"), let c = profile.channels.first(where: { $0.id == id }) {
            (channel, channelSource) = (c, .message)
        } else {
            if let id = string("channel_id") ?? string("channelId") {
                findings.append(
                    Diagnostic(
                        .androidUnknownChannel,
                        "channel \(id) is not one the app creates: \(profile.defaultChannel.map { "the default channel \($0)" } ?? "FCM's fallback channel") is used",
                        field: "android.notification.channel_id"))
            }
            if let d = profile.defaultChannel, let c = profile.channels.first(where: { $0.id == d }) { (channel, channelSource) = (c, .appDefault) }
        }
        let iconName = string("icon")
        let icon = iconName ?? profile.defaultIcon ?? "launcher icon"
        let iconSource: AndroidRendering.Source = iconName != nil ? .message : profile.defaultIcon != nil ? .appDefault : .fallback
        var out = AndroidRendering(
            appName: appName, delivered: .shown, channel: channel, channelSource: channelSource, icon: icon, iconSource: iconSource)
        out.warnings = findings
        let (locale, rule) = configuredLocale(preferred)
        out.locale = locale?.description
        out.localeRule = rule
        // Colour: the message's when Color.parseColor takes it, else the manifest's.
        if let c = string("color"), AndroidProfile.isColor(c) { out.color = c } else { out.color = profile.defaultColor }
        out.image = string("image") ?? message.notificationImage
        out.tag = string("tag")
        if let count = n["notification_count"]?.intValue ?? n["notificationCount"]?.intValue, count >= 0 { out.notificationCount = count }
        out.sticky = n["sticky"] == .bool(true)
        let visibility = (string("visibility") ?? "PRIVATE").lowercased()
        out.visibility = ["public", "secret"].contains(visibility) ? visibility : "private"
        out.eventTime = string("event_time") ?? string("eventTime")
        out.clickAction = string("click_action") ?? string("clickAction")
        let data = android?["data"]?.objectValue ?? message.data ?? JSONObject()
        out.extras = data.entries.compactMap { e in e.value.stringValue.map { (e.key, $0) } }

        let hasNotification =
            message.notificationTitle != nil || message.notificationBody != nil || android?["notification"] != nil || message.notificationImage != nil
        // A data message, or any message while the app is in the foreground: onMessageReceived.
        if !hasNotification {
            return toApp(
                out, reason: "data-message",
                trace: "a data message: onMessageReceived gets it; nothing is shown unless the app's code builds a notification",
                finding: "a data message: Android shows nothing of its own; the app's onMessageReceived decides")
        }
        if profile.foreground {
            return toApp(
                out, reason: "foreground", trace: "the app is in the foreground: onMessageReceived gets the notification; the tray shows nothing",
                finding: "the app is in the foreground: the notification goes to onMessageReceived and is not shown")
        }
        var folders: [String] = []
        for (field, literal) in [("title", string("title") ?? message.notificationTitle), ("body", string("body") ?? message.notificationBody)] {
            switch text(field, literal: literal, n: n, locale: locale) {
            case .literal(let t): if field == "title" { out.title = t } else { out.body = t }
            case .localized(let t, let folder, let why):
                if field == "title" { out.title = t } else { out.body = t }
                folders.append(folder)
                out.trace.append(
                    TraceEntry(step: .localize, ms: 0, outcome: .localized, detail: "\(field): \(field)_loc_key from \(folder) (\(why))"))
            case .none(let finding):
                if let finding { out.warnings.append(finding) }
                out.trace.append(TraceEntry(step: .localize, ms: 0, outcome: .missingKeys, detail: "\(field): \(finding?.message ?? "none")"))
            case .thrown(let exception, let finding):
                out.warnings.append(finding)
                out.delivered = .rejected
                out.reason = exception.name
                out.trace.append(
                    TraceEntry(step: .android, ms: 0, outcome: .failed, detail: "the app throws \(exception) building the \(field): nothing is shown")
                )
                return out
            }
        }
        out.language = folders.last ?? (folders.isEmpty ? nil : "values")
        if let url = out.image, let fetchImage {
            switch fetchImage(url) {
            case .success(let a) where a.bytes > Self.imageLimitBytes:
                out.warnings.append(
                    Diagnostic(
                        .androidImage, "the image is \(a.bytes) bytes, over Android's 1 MiB: the notification shows without it",
                        field: "android.notification.image"))
            case .success(let a):
                out.imageAttachment = a
                out.trace.append(
                    TraceEntry(step: .attach, ms: 0, outcome: .attached, detail: "image \(a.type), \(a.bytes) bytes: large icon and BigPicture"))
            case .failure(.tooLarge), .failure(.download(.tooLarge)):
                // The download stopped at the iPhone's cap for images, far over Android's own.
                out.warnings.append(
                    Diagnostic(
                        .androidImage, "the image is over Android's 1 MiB: the notification shows without it", field: "android.notification.image"))
            case .failure(let why):
                out.warnings.append(
                    Diagnostic(
                        .androidImage, "the image could not be shown (\(why)): the notification shows without it", field: "android.notification.image"
                    ))
            }
        }
        // private (the default) shows "Contents hidden" on a secure lock screen; the card says so.
        if out.visibility == "secret" {
            out.warnings.append(
                Diagnostic(
                    .androidLockScreen, "visibility secret: nothing of it shows on a secure lock screen", field: "android.notification.visibility"))
        }
        out.trace.append(
            TraceEntry(
                step: .android, ms: 0, outcome: .shown,
                detail:
                    "shown on channel \(out.channel.id) (\(out.channelSource.rawValue), importance \(out.channel.importance)), icon \(out.icon)\(out.tag.map { ", tag \($0) (replaces the notification under it)" } ?? "")"
            ))
        if let ios { out.warnings += divergences(ios: ios, android: out, message: message) }
        return out
    }

    /// `out` handed to the app instead of the tray.
    func toApp(_ out: AndroidRendering, reason: String, trace: String, finding: String) -> AndroidRendering {
        var out = out
        out.delivered = .app
        out.reason = reason
        out.trace.append(TraceEntry(step: .android, ms: 0, outcome: .toApp, detail: trace))
        out.warnings.append(Diagnostic(.androidNotShown, finding))
        return out
    }

    enum Text {
        case literal(String)
        case localized(String, folder: String, why: String)
        case none(Diagnostic?)
        case thrown(JavaFormat.Exception, Diagnostic)
    }

    /// `getPossiblyLocalizedString`: the literal when non-empty, else the loc key's string
    /// formatted with the loc args (all strings), else nothing.
    func text(_ field: String, literal: String?, n: JSONObject, locale: AndroidLocale?) -> Text {
        if let literal, !literal.isEmpty { return .literal(literal) }
        let keyField = "\(field)_loc_key"
        guard let key = n[keyField]?.stringValue ?? n[field == "title" ? "titleLocKey" : "bodyLocKey"]?.stringValue else { return .none(nil) }
        let args =
            (n["\(field)_loc_args"] ?? n[field == "title" ? "titleLocArgs" : "bodyLocArgs"])?.arrayValue?.map {
                $0.stringValue ?? JSONWriter.compact($0)
            } ?? []
        let path = "android.notification.\(keyField)"
        guard let resources else {
            return .none(
                Diagnostic(
                    .androidMissingResource, "no Android resources found for the app: Android shows no \(field) for \(keyField) \(key)", key: key,
                    field: path))
        }
        guard let found = resources.string(key, locale: locale) else {
            if resources.unreachable.contains(key) {
                return .none(
                    Diagnostic(
                        .androidUnreachableResource,
                        "\(key) is a <plurals> or <string-array>: loc keys reach <string> resources only; Android shows no \(field)", key: key,
                        field: path))
            }
            if let only = resources.withoutDefault[key] {
                return .none(
                    Diagnostic(
                        .androidNoDefault,
                        "\(key) exists only in \(only.map(\.name).sorted().joined(separator: ", ")), not values/: the build removes it and Android shows no \(field)",
                        key: key, field: path))
            }
            return .none(Diagnostic(.androidMissingResource, "no resource \(key) in values/: Android shows no \(field)", key: key, field: path))
        }
        let javaLocale = Locale(identifier: locale?.description ?? "en")
        guard !args.isEmpty || n["\(field)_loc_args"] != nil else { return .localized(found.text, folder: found.folder.name, why: found.rule) }
        switch JavaFormat.format(found.text, args, locale: javaLocale) {
        case .success(let t): return .localized(t, folder: found.folder.name, why: found.rule)
        case .failure(let e) where e.caughtByFCM:
            return .none(
                Diagnostic(
                    .androidMissingArgument,
                    "\(key) in \(found.folder.name) needs more loc args than \(args.count): the SDK catches \(e.name) and shows no \(field)",
                    key: key, language: found.folder.name, field: path))
        case .failure(let e):
            return .thrown(
                e,
                Diagnostic(
                    .androidFormatException,
                    "\(key) in \(found.folder.name) (\"\(found.text)\") cannot take string loc args: the app throws \(e) and shows nothing",
                    severity: .error,
                    key: key, language: found.folder.name, field: path))
        }
    }

}
