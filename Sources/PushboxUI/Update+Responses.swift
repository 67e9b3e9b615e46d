import Foundation
import PushboxPayload

/// Taps, action buttons and the device clock: what the app receives, logged in the trace.
extension InboxState {
    /// The default action's identifier, as `UNNotificationResponse.actionIdentifier` gives it.
    static let defaultActionIdentifier = AppResponse.defaultActionIdentifier

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
        let response = AppResponse(payload: raw, title: title, identifier: identifier, options: options, apnsID: item.apnsID)
        overlay = .response(response)
        card.responses[item.id, default: []].append(response.traceEntry(isTap: identifier == Self.defaultActionIdentifier))
    }
}
