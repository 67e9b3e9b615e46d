import PushboxJSON

/// A capability or entitlement the app declares in `pushbox.json` (`"capabilities"`), as Xcode's
/// Signing & Capabilities adds them.
public enum AppCapability: String, Sendable, CaseIterable {
    /// Communication Notifications (`com.apple.developer.usernotifications.communication`).
    case communicationNotifications = "communication-notifications"
    /// Time Sensitive Notifications (`com.apple.developer.usernotifications.time-sensitive`).
    case timeSensitive = "time-sensitive"
    /// Critical Alerts (`com.apple.developer.usernotifications.critical-alerts`), which Apple grants on request.
    case criticalAlerts = "critical-alerts"
}

extension Diagnostic.Code {
    public static let timeSensitiveCapability = Self(
        "time-sensitive-capability", .warning,
        "`interruption-level: time-sensitive` from an app without the Time Sensitive Notifications capability.")
    public static let criticalAlertEntitlement = Self(
        "critical-alert-entitlement", .warning,
        "A critical alert (`interruption-level: critical` or `sound.critical: 1`) from an app without the " + "entitlement.")
    public static let summaryArgIgnored = Self(
        "summary-arg-ignored", .warning,
        "`summary-arg` / `summary-arg-count`, which iOS ignores since iOS 15.")
}

/// How iOS presents a notification given what the app may do: its interruption level as
/// delivered, and the warnings for what the app asked and may not have.
///
/// Apple, UNNotificationInterruptionLevel: `timeSensitive` needs the Time Sensitive
/// Notifications capability; `critical` needs the Critical Alerts entitlement
/// (`com.apple.developer.usernotifications.critical-alerts`), as does a sound with `critical: 1`
/// (UNNotificationSound.defaultCritical). What iOS does with a level the app may not use is not
/// documented (unconfirmed): pushbox delivers it as `active` with a normal sound, and says so.
/// Apple's header for UNNotificationContent.summaryArgument: "summaryArgument is ignored" (iOS 15).
public enum PresentationRules {
    /// The level iOS presents at: the one asked for when the app may use it (or when its
    /// capabilities are not known), else `active`.
    public static func level(_ aps: JSONObject, capabilities: Set<AppCapability>?) -> String {
        let asked = aps["interruption-level"]?.stringValue ?? "active"
        guard PayloadRules.interruptionLevels.contains(asked) else { return "active" }
        guard let capabilities else { return asked }
        if asked == "critical", !capabilities.contains(.criticalAlerts) { return "active" }
        if asked == "time-sensitive", !capabilities.contains(.timeSensitive) { return "active" }
        return asked
    }

    /// Whether the sound asks to be critical (`{"critical": 1}`).
    static func criticalSound(_ aps: JSONObject) -> Bool { aps["sound"]?.objectValue?["critical"]?.intValue == 1 }

    /// The warnings for what the payload asks and the app may not do; the summary arguments iOS ignores.
    static func warnings(_ aps: JSONObject, capabilities: Set<AppCapability>?) -> [Diagnostic] {
        var out: [Diagnostic] = []
        let alert = aps["alert"]?.objectValue
        for key in ["summary-arg", "summary-arg-count"] where alert?[key] != nil {
            out.append(
                Diagnostic(
                    .summaryArgIgnored,
                    "aps.alert.\(key) is ignored since iOS 15 (UNNotificationContent.summaryArgument: \"summaryArgument is ignored\"); a stack's summary comes from its category's categorySummaryFormat",
                    field: "aps.alert.\(key)"))
        }
        guard let capabilities else { return out }
        let level = aps["interruption-level"]?.stringValue
        if level == "time-sensitive", !capabilities.contains(.timeSensitive) {
            out.append(
                Diagnostic(
                    .timeSensitiveCapability,
                    "interruption-level time-sensitive needs the app's Time Sensitive Notifications capability, which pushbox.json's capabilities do not list; iOS's behaviour without it is unconfirmed: pushbox delivers it as active, so it does not break through Focus or the scheduled summary",
                    field: "aps.interruption-level"))
        }
        if level == "critical" || criticalSound(aps), !capabilities.contains(.criticalAlerts) {
            out.append(
                Diagnostic(
                    .criticalAlertEntitlement,
                    "a critical alert needs the com.apple.developer.usernotifications.critical-alerts entitlement (granted by Apple on request), which pushbox.json's capabilities do not list; without it (unconfirmed) pushbox delivers it as active with a normal sound, silenced by the ring switch and Focus",
                    field: level == "critical" ? "aps.interruption-level" : "aps.sound.critical"))
        }
        return out
    }
}
