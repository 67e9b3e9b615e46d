import PushboxPayload

/// How the view words the values `update` stores: the footer's notes and the app's response.
extension StatusNote {
    /// The footer's sentence.
    public var text: String {
        switch self {
        case .unavailable(let why): return why.text
        case .preview(let profile): return profile.map { "preview " + $0.summary } ?? "the whole card"
        case .theme(let name): return "theme: \(name)"
        case .filter(let filter): return "filter: \(filter.label)"
        case .language(let tag): return "language: \(LanguageNames.describe(tag))"
        case .notALanguageTag(let text): return "\(DisplayText.clean(text)) is not a language tag (BCP 47, e.g. ja-JP, he-IL, zh-Hant-TW)"
        case .clearAsked(let count): return "press X again to delete all \(count) notifications (any other key keeps them)"
        case .message(let text): return text
        case .device(let name, let language): return "device \(DisplayText.clean(name)) · \(LanguageNames.describe(language))"
        }
    }
}

extension Unavailable {
    /// Why, in the footer's words.
    public var text: String {
        switch self {
        case .noLocalNotifications: return "this pushbox keeps no local notifications"
        case .noActionButtons: return "this notification has no action buttons"
        case .notDelivered: return "only a delivered notification can be tapped"
        case .nothingToTap: return "a background event shows no banner: there is nothing to tap"
        case .threadHeader: return "d deletes one notification: expand the thread (z) and choose one"
        case .nothingDeleted: return "nothing was deleted to bring back"
        case .notFCM: return "not an FCM message: only an iPhone receives an APNs payload"
        case .payloadNotRead: return "the payload is still being read: press again"
        case .noFleet: return "one device: pushbox device add NAME adds another to this inbox"
        }
    }
}

extension AppResponse {
    /// "the app opens", or that it handles the response in the background.
    var opens: String { opensApp ? "the app opens" : "the app handles it in the background" }

    /// The response overlay's lines.
    public var lines: [String] {
        let auth = options.contains(.authenticationRequired) ? "; the device must be unlocked first" : ""
        let request = localRequest.map { "local notification request \($0)" } ?? "remote notification \(apnsID)"
        var lines = [
            "\(title) → the app receives",
            "actionIdentifier: \(identifier)\(options.isEmpty ? "" : " (\(options.map(\.rawValue).joined(separator: ", ")))")",
            "\(opens)\(auth) — userNotificationCenter(_:didReceive:withCompletionHandler:), \(request)",
            "userInfo: \(userInfo)",
        ]
        if let deepLink { lines.append("deep link: \(deepLink)") }
        return lines
    }

    /// The same facts as a `response` entry of the notification's trace.
    func traceEntry(isTap: Bool) -> TraceEntry {
        TraceEntry(
            step: .response, ms: 0, outcome: isTap ? .tap : .action,
            detail: "actionIdentifier \(identifier); \(opens); userInfo \(userInfo)\(deepLink.map { "; deep link \($0)" } ?? "")")
    }
}
