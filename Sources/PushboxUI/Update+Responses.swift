import Foundation
import PushboxCore
import PushboxText

/// Taps, action buttons and the device clock: what the app receives, logged in the trace.
extension InboxState {
    /// The default action's identifier, as `UNNotificationResponse.actionIdentifier` gives it.
    static let defaultActionIdentifier = "com.apple.UNNotificationDefaultActionIdentifier"

    /// Shows what the app receives when the next action button of the card is chosen.
    mutating func pressAction() -> [Command] {
        guard let item = selectedItem, let r = renders[item.id], !r.actions.isEmpty else {
            status = "this notification has no action buttons"
            return []
        }
        let index = ((card.pressedAction ?? -1) + 1) % r.actions.count
        card.pressedAction = index
        let action = r.actions[index]
        respond(item, title: action.title, identifier: action.identifier, options: action.options)
        return []
    }

    /// Shows what the app receives when the notification itself is tapped.
    mutating func tap() -> [Command] {
        guard let item = selectedItem, !item.isRejected, renders[item.id]?.delivered != .rejected else {
            status = "only a delivered notification can be tapped"
            return []
        }
        guard item.kind != .background else {
            status = "a background event shows no banner: there is nothing to tap"
            return []
        }
        respond(item, title: "Tap", identifier: Self.defaultActionIdentifier, options: [.foreground])
        return []
    }

    /// The response overlay, and the same facts as a trace entry of the notification.
    private mutating func respond(_ item: InboxItem, title: String, identifier: String, options: [ActionOption]) {
        let payload = try? JSONParser.parse(Array(item.rawText.utf8)).objectValue
        let userInfo = payload.map { LocalDelivery.userInfo($0) } ?? JSONObject()
        let userInfoText = JSONWriter.compact(.object(userInfo))
        let link = Self.firstDeepLink(in: .object(userInfo))
        let local = payload.flatMap { LocalDelivery.info($0)?["identifier"]?.stringValue }
        let request = local.map { "local notification request \($0)" } ?? "remote notification \(item.apnsID)"
        let opens = options.contains(.foreground) ? "the app opens" : "the app handles it in the background"
        let auth = options.contains(.authenticationRequired) ? "; the device must be unlocked first" : ""
        overlay = .actionResult(
            """
            \(title) → the app receives
            actionIdentifier: \(identifier)\(options.isEmpty ? "" : " (\(options.map(\.rawValue).joined(separator: ", ")))")
            \(opens)\(auth) — userNotificationCenter(_:didReceive:withCompletionHandler:), \(request)
            userInfo: \(userInfoText)\(link.map { "\ndeep link: \($0)" } ?? "")
            """)
        let entry = TraceEntry(
            step: .response, ms: 0, outcome: identifier == Self.defaultActionIdentifier ? .tap : .action,
            detail: "actionIdentifier \(identifier); \(opens); userInfo \(userInfoText)\(link.map { "; deep link \($0)" } ?? "")")
        card.responses[item.id, default: []].append(entry)
    }

    static func firstDeepLink(in value: JSONValue) -> String? {
        switch value {
        case .string(let s): return s.contains("://") ? s : nil
        case .object(let o): return o.entries.lazy.compactMap { firstDeepLink(in: $0.value) }.first
        case .array(let a): return a.lazy.compactMap { firstDeepLink(in: $0) }.first
        default: return nil
        }
    }

    /// `+` and `>`: the device clock's commands, when local notifications are kept.
    func clockKey(_ key: Key) -> [Command]? {
        switch Keymap.action(for: key, in: Keymap.inbox) {
        case .fastForward?: return scheduled == nil ? [] : [.advanceClock(seconds: 60)]
        case .jumpClock?: return scheduled == nil ? [] : [.jumpClock]
        default: return nil
        }
    }
}
