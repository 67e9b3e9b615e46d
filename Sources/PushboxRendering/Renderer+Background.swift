import Foundation
import PushboxJSON
import PushboxPayload

extension Renderer {
    /// What a push without a visible alert does: nothing on screen; with content-available the
    /// app is woken in the background.
    func noteBackground(_ out: inout RenderedNotification, aps: JSONObject, payload: JSONObject) {
        guard out.title == nil, out.subtitle == nil, out.body == nil else { return }
        let userInfo = LocalNotificationPayload.userInfo(payload)
        if aps["content-available"]?.intValue == 1 {
            out.trace.append(
                TraceEntry(
                    step: .background, ms: 0, outcome: .woken,
                    detail:
                        "content-available 1 and no alert: nothing is shown; iOS wakes the app in the background to run application(_:didReceiveRemoteNotification:fetchCompletionHandler:) with userInfo \(JSONWriter.compact(.object(userInfo))); iOS's background budget (throttling, about 30 s of run time, Low Power Mode) is not modelled"
                ))
        } else {
            let what = [aps["badge"] != nil ? "the badge" : nil, aps["sound"] != nil ? "the sound" : nil].compactMap { $0 }
            out.trace.append(
                TraceEntry(
                    step: .background, ms: 0, outcome: .noBanner,
                    detail: what.isEmpty
                        ? "no alert, badge, sound or content-available: the device shows nothing and the app is not woken"
                        : "no alert: the device only updates \(what.joined(separator: " and ")); the app is not woken"))
        }
    }
}
