import Foundation
import PushboxJSON
import Testing

@testable import PushboxPayload

/// FCM's 400 INVALID_ARGUMENT for a bad `android` block, with the field at fault.
@Suite("FCM's checks of the android block")
struct FCMAndroidValidationTests {
    func rejection(_ android: String) -> Rejection? {
        let text = #"{"message":{"topic":"NewsApp","android":"# + android + "}}"
        return Validator.validate(RawPayload(bytes: Array(text.utf8), envelope: Envelope(source: .fcm))).rejection
    }

    @Test("each bad field is refused with FCM's reason and the field's path; a good block passes")
    func fields() {
        let cases: [(String, String)] = [
            (#"{"data":{"n":1}}"#, "message.android.data[0].value"),
            (#"{"priority":"URGENT"}"#, "message.android.priority"),
            (#"{"ttl":"3 days"}"#, "message.android.ttl"),
            (#"{"notification":{"color":"red"}}"#, "message.android.notification.color"),
            (#"{"notification":{"visibility":"HIDDEN"}}"#, "message.android.notification.visibility"),
            (#"{"notification":{"notification_priority":"LOUD"}}"#, "message.android.notification.notification_priority"),
            (#"{"notification":{"body_loc_args":["a",2]}}"#, "message.android.notification.body_loc_args[1]"),
            (#"{"notification":{"sticky":"yes"}}"#, "message.android.notification.sticky"),
            (#"{"notification":{"notification_count":"three"}}"#, "message.android.notification.notification_count"),
            (#"{"notification":{"light_settings":{"color":{"red":1}}}}"#, "message.android.notification.light_settings.light_on_duration"),
            (
                #"{"notification":{"light_settings":{"color":{"red":1},"light_on_duration":"x","light_off_duration":"1s"}}}"#,
                "message.android.notification.light_settings.light_on_duration"
            ),
            (#"{"notification":{"body_loc_args":["a"]}}"#, "message.android.notification.body_loc_args"),
            (#"{"notification":{"image":"not a url"}}"#, "message.android.notification.image"),
            (#"{"notification":{"event_time":"yesterday"}}"#, "message.android.notification.event_time"),
            (#"{"notification":{"vibrate_timings":[]}}"#, "message.android.notification.vibrate_timings"),
        ]
        for (android, field) in cases {
            let r = rejection(android)
            #expect(r?.reason == .invalidArgument, "\(android)")
            #expect(r?.field == field, "\(android): \(String(describing: r?.field))")
        }
        // The Admin SDKs' own words where they check before sending.
        #expect(rejection(#"{"notification":{"color":"red"}}"#)?.detail == "android.notification.color must be in the form #RRGGBB")
        #expect(
            rejection(#"{"notification":{"body_loc_args":["a"]}}"#)?.detail
                == "android.notification.bodyLocKey is required when specifying bodyLocArgs")
        #expect(
            rejection(
                ##"{"priority":"high","ttl":"3600s","notification":{"title":"t","color":"#112233","visibility":"PUBLIC","body_loc_key":"k","body_loc_args":["a"],"image":"https://example.com/a.png","event_time":"2026-12-01T10:00:00.5Z","vibrate_timings":["0.5s","1s"]}}"##
            )
                == nil)
    }
}
