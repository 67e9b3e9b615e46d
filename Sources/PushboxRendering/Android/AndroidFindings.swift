import PushboxJSON
import PushboxLocalization
import PushboxPayload

extension AndroidRenderer {
    /// Where the two phones show one message differently: a title or body, and a communication
    /// card the Android SDK cannot make.
    func divergences(ios: RenderedNotification, android: AndroidRendering, message: FCMMessage) -> [Diagnostic] {
        var out: [Diagnostic] = []
        let n = message.android?["notification"]?.objectValue ?? JSONObject()
        let alert = message.apnsPayload?["aps"]?.objectValue?["alert"]?.objectValue
        for (field, a, i) in [("title", android.title, ios.title), ("body", android.body, ios.body)] where a != i {
            let literal = n[field]?.stringValue ?? (field == "title" ? message.notificationTitle : message.notificationBody)
            let iosLocalized = alert?[field == "title" ? "title-loc-key" : "loc-key"] != nil
            let why: String
            if let literal, a == literal, iosLocalized {
                why =
                    "Android shows the literal \(field) \"\(literal)\" (a literal beats a loc key there); iOS shows the localized one \(i.map { "\"\($0)\"" } ?? "(none)")"
            } else if a == nil {
                why = "Android shows no \(field); iOS shows \(i.map { "\"\($0)\"" } ?? "none")"
            } else if i == nil {
                why = "Android shows \"\(a!)\"; iOS shows no \(field)"
            } else {
                why = "Android shows \"\(a!)\"; iOS shows \"\(i!)\""
            }
            out.append(Diagnostic(.platformDivergence, why, field: field))
        }
        if let sender = ios.communication?.sender, android.delivered == .shown {
            // The FCM SDK builds a notification message with NotificationCompat.Builder: no MessagingStyle.
            out.append(
                Diagnostic(
                    .androidConversation,
                    "the iPhone shows a communication card from \(sender) (avatar, sender as title); Android shows the message's own title and body with the app's small icon and no avatar: the FCM SDK builds notification messages without MessagingStyle (a conversation needs a data message the app builds itself)",
                    field: "notification"))
        }
        return out
    }
}
