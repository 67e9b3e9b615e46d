import Foundation
import PushboxJSON
import PushboxLocalization
import PushboxPayload
import PushboxRendering

/// `pushbox-bench android IOS-APP ANDROID-RES [LANG]`: one FCM message rendered on the Android
/// card from an app's `res/` — cold (a new reader, as one `pushbox render` call), warm (the
/// reader the inbox keeps) and reading every folder (what `lint` does) — against the baseline,
/// one APNs payload localized from an iOS app's `.lproj` folders, cold.
enum AndroidBenchmark {
    static func run(ios: String, res: String, language: String, keys: (ios: [String], android: [String])) {
        let lang = [language]
        let payload = JSONObject([
            (
                "aps",
                .object(JSONObject([("alert", .object(JSONObject([("title-loc-key", .string(keys.ios[0])), ("loc-key", .string(keys.ios[1]))])))]))
            )
        ])
        let raw = RawPayload(bytes: Array(JSONWriter.compact(.object(payload)).utf8), envelope: Envelope(source: .commandLine))
        let notification = JSONObject([("title_loc_key", .string(keys.android[0])), ("body_loc_key", .string(keys.android[1]))])
        guard
            let message = try? FCMMessage(
                JSONObject([("token", .string("bench")), ("android", .object(JSONObject([("notification", .object(notification))])))]))
        else { return }
        print("pushbox-bench android: \(res) against \(ios), device language \(language)")

        var iosTitle: String?
        let iosCold = best(of: 15) {
            let renderer = Renderer(
                context: ValidationContext(), preferredLanguages: lang, localizer: Localizer(app: AppLocalizations(directory: ios)))
            iosTitle = renderer.render(raw).title
        }
        var androidTitle: String?
        let cold = best(of: 15) {
            let renderer = AndroidRenderer(resources: AndroidResources(res: res), profile: AndroidProfile(), appName: "bench")
            androidTitle = renderer.render(message, preferred: lang).title
        }
        let kept = AndroidRenderer(resources: AndroidResources(res: res), profile: AndroidProfile(), appName: "bench")
        _ = kept.render(message, preferred: lang)
        let rounds = 1000
        let warm = best(of: 3) { for _ in 0..<rounds { androidTitle = kept.render(message, preferred: lang).title ?? androidTitle } }
        var folders = 0
        let everything = best(of: 3) { folders = AndroidResources(res: res).folders.count }
        guard iosTitle != nil, androidTitle != nil else {
            print("error: a key was not found (iOS \(String(describing: iosTitle)), Android \(String(describing: androidTitle)))")
            exit(1)
        }
        func row(_ name: String, _ seconds: Double) {
            print(
                name.padding(toLength: 58, withPad: " ", startingAt: 0)
                    + String(format: "%9.2f ms   %6.2f× the iOS render", seconds * 1000, seconds / iosCold))
        }
        row("baseline: iOS render, cold (\(keys.ios.joined(separator: ", ")))", iosCold)
        row("Android render, cold: a new reader (values/ + \(language)'s)", cold)
        row("Android render, warm: the reader the inbox keeps", warm / Double(rounds))
        row("every folder read, as lint does (\(folders) folders)", everything)
        print(
            "goal: warm under 100 ms → \(warm / Double(rounds) < 0.1 ? "met" : "NOT met"); cold within 3× the iOS render → \(cold <= 3 * iosCold ? "met" : "NOT met") (\(String(format: "%.2f", cold / iosCold))×)"
        )
    }
}
