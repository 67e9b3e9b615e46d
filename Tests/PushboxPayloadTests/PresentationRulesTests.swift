import Foundation
import PushboxJSON
import Testing

@testable import PushboxPayload

/// What the app may present, from its declared capabilities (Apple, "UNNotificationInterruptionLevel":
/// time-sensitive needs the Time Sensitive Notifications capability, critical the Critical Alerts
/// entitlement; "UNNotificationSound.defaultCritical" likewise; UNNotificationContent.summaryArgument:
/// "summaryArgument is ignored" since iOS 15).
@Suite("Presentation: what the app may ask of iOS")
struct PresentationRulesTests {
    func codes(_ payload: String, _ capabilities: Set<AppCapability>?) -> [String] {
        var context = ValidationContext()
        context.capabilities = capabilities
        return validate(payload, context: context).warnings.map(\.code.rawValue).filter {
            ["time-sensitive-capability", "critical-alert-entitlement", "summary-arg-ignored"].contains($0)
        }
    }

    @Test(
        "a level or sound the app may not use draws its warning; with the capability, or with capabilities unknown, none does",
        arguments: [
            (#"{"aps":{"alert":"x","interruption-level":"time-sensitive"}}"#, [AppCapability](), ["time-sensitive-capability"]),
            (#"{"aps":{"alert":"x","interruption-level":"time-sensitive"}}"#, [.timeSensitive], []),
            (#"{"aps":{"alert":"x","interruption-level":"critical"}}"#, [.timeSensitive], ["critical-alert-entitlement"]),
            (#"{"aps":{"alert":"x","sound":{"critical":1,"name":"alarm.caf","volume":0.8}}}"#, [], ["critical-alert-entitlement"]),
            (#"{"aps":{"alert":"x","interruption-level":"critical","sound":{"critical":1}}}"#, [.criticalAlerts], []),
            (#"{"aps":{"alert":"x","interruption-level":"passive"}}"#, [], []),
        ] as [(String, [AppCapability], [String])])
    func capabilities(payload: String, capabilities: [AppCapability], expected: [String]) {
        #expect(codes(payload, Set(capabilities)) == expected)
        // A profile that lists no capabilities at all: not judged.
        #expect(codes(payload, nil) == [])
    }

    @Test("summary-arg and summary-arg-count are ignored since iOS 15: a warning each, whatever the app declares")
    func summaryArguments() {
        let payload = #"{"aps":{"alert":{"title":"t","summary-arg":"Shelly","summary-arg-count":2},"thread-id":"chat"}}"#
        #expect(codes(payload, nil) == ["summary-arg-ignored", "summary-arg-ignored"])
    }

    @Test("the level iOS presents at: the one asked when the app may use it, else active")
    func level() throws {
        func level(_ text: String, _ capabilities: Set<AppCapability>?) throws -> String {
            let aps = try #require(try JSONParser.parse(Array(text.utf8)).objectValue)
            return PresentationRules.level(aps, capabilities: capabilities)
        }
        #expect(try level(#"{"interruption-level":"critical"}"#, []) == "active")
        #expect(try level(#"{"interruption-level":"critical"}"#, [.criticalAlerts]) == "critical")
        #expect(try level(#"{"interruption-level":"time-sensitive"}"#, nil) == "time-sensitive")
        #expect(try level(#"{"interruption-level":"time-sensitive"}"#, [.communicationNotifications]) == "active")
        #expect(try level(#"{"interruption-level":"urgent"}"#, nil) == "active")
        #expect(try level("{}", []) == "active")
    }

    @Test("pushbox.json's capabilities: read as a set; an unknown one names its index")
    func profile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pushbox-caps-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try #"{"capabilities": ["time-sensitive", "communication-notifications"]}"#.write(
            toFile: dir + "/pushbox.json", atomically: true, encoding: .utf8)
        #expect(try AppProfile.load(directory: dir).capabilities == [.timeSensitive, .communicationNotifications])
        try #"{"capabilities": ["time-sensitive", "push-to-talk"]}"#.write(toFile: dir + "/pushbox.json", atomically: true, encoding: .utf8)
        #expect(throws: AppProfile.LoadError.self) { try AppProfile.load(directory: dir) }
        do { _ = try AppProfile.load(directory: dir) } catch { #expect(error.path == "capabilities[1]") }
        try #"{"name": "x"}"#.write(toFile: dir + "/pushbox.json", atomically: true, encoding: .utf8)
        #expect(try AppProfile.load(directory: dir).capabilities == nil)
    }
}
