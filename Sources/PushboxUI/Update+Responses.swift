import Foundation
import PushboxJSON
import PushboxPayload

/// Taps, action buttons and the device clock: what the app receives, logged in the trace.
extension InboxState {
    /// The default action's identifier, as `UNNotificationResponse.actionIdentifier` gives it.
    static let defaultActionIdentifier = "com.apple.UNNotificationDefaultActionIdentifier"

    /// Shows what the app receives when the next action button of the card is chosen.
    mutating func pressAction() -> [Command] {
        guard let item = selectedItem, let r = renders[item.id], !r.actions.isEmpty else {
            status = .unavailable(.noActionButtons)
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
            status = .unavailable(.notDelivered)
            return []
        }
        guard item.kind != .background else {
            status = .unavailable(.nothingToTap)
            return []
        }
        respond(item, title: "Tap", identifier: Self.defaultActionIdentifier, options: [.foreground])
        return []
    }

    /// The response overlay, and the same facts as a trace entry of the notification.
    private mutating func respond(_ item: InboxItem, title: String, identifier: String, options: [ActionOption]) {
        // What the app receives comes from the payload: the Raw tab's text once read (it may begin
        // with the request's line and headers; the payload follows a blank line), else the bytes an
        // arrival keeps; never a guess from neither.
        guard let raw = list.rawTexts[item.id] ?? (item.payloadText.isEmpty ? nil : item.payloadText) ?? (item.rawText.isEmpty ? nil : item.rawText)
        else {
            status = .unavailable(.payloadNotRead)
            return
        }
        let json = raw.hasPrefix("{") ? raw : raw.range(of: "\n\n").map { String(raw[$0.upperBound...]) } ?? raw
        let payload = try? JSONParser.parse(Array(json.utf8)).objectValue
        let userInfo = payload.map { LocalNotificationPayload.userInfo($0) } ?? JSONObject()
        let response = AppResponse(
            title: title, identifier: identifier, options: options, userInfo: JSONWriter.compact(.object(userInfo)),
            deepLink: Self.firstDeepLink(in: .object(userInfo)),
            localRequest: payload.flatMap { LocalNotificationPayload.info($0)?["identifier"]?.stringValue },
            apnsID: item.apnsID)
        overlay = .response(response)
        card.responses[item.id, default: []].append(response.traceEntry(isTap: identifier == Self.defaultActionIdentifier))
    }

    static func firstDeepLink(in value: JSONValue) -> String? {
        switch value {
        case .string(let s): return s.contains("://") ? s : nil
        case .object(let o): return o.entries.lazy.compactMap { firstDeepLink(in: $0.value) }.first
        case .array(let a): return a.lazy.compactMap { firstDeepLink(in: $0) }.first
        default: return nil
        }
    }
}
