import Foundation
import PushboxDevice
import PushboxJSON
import PushboxLocalization
import PushboxPayload
import PushboxStore

/// What went wrong for one device of the fleet in one campaign: it got the campaign twice, got
/// none of it while other devices did, or was shown a message in a language other than its own.
public struct FleetFinding: Sendable, Equatable {
    /// The kinds, as `--fail-on` and `list --json` name them.
    public enum Kind: String, Sendable, CaseIterable {
        /// The device got two or more notifications of one campaign (two language topics matched it).
        case duplicate
        /// The device got none of a campaign that reached other devices of its platform.
        case missed
        /// The device showed a message in another language than its own.
        case wrongLanguage = "wrong-language"
    }

    /// Why a message is in the wrong language, as a stable code.
    public enum Cause: String, Sendable {
        /// It was addressed to another language's topic (`LangJaJP` on a ko-KR phone).
        case languageTopic = "language-topic"
        /// Its `loc-key` was localized in another language: the app has no localization in the device's.
        case localizationFallback = "localization-fallback"
        /// Its `loc-key` is missing in the device's localization: the key itself is shown.
        case missingKey = "missing-key"
        /// Its literal text is written in a script the device's language does not use.
        case script
    }

    /// Which.
    public var kind: Kind
    /// The device it concerns.
    public var device: String
    /// The campaign: the id of its first row.
    public var campaign: Int64
    /// The rows concerned (the duplicates; the message in the wrong language; none for a miss).
    public var ids: [Int64]
    /// For a wrong language, why.
    public var cause: Cause?
    /// In a sentence, for people.
    public var detail: String
}

/// A device of the fleet as findings see it.
public struct FleetMember: Sendable, Equatable {
    /// Its name (`phone` for the default device).
    public var name: String
    /// Android devices are not reached by APNs, so they cannot miss an APNs campaign; nil: both
    /// (the default device takes APNs pushes and FCM messages).
    public var platform: DevicePlatform?
    /// Its preferred languages.
    public var languages: [String]
    /// Whether its app is installed (an uninstalled app misses nothing a backend could fix).
    public var installed: Bool

    /// A member.
    public init(name: String, platform: DevicePlatform?, languages: [String], installed: Bool) {
        self.name = name
        self.platform = platform
        self.languages = languages
        self.installed = installed
    }

    /// The inbox's devices: the default one (its `languages`) and those added beside it.
    public static func fleet(_ registration: DeviceRegistration, languages: [String]) -> [FleetMember] {
        [FleetMember(name: FleetDevice.defaultName, platform: nil, languages: languages, installed: registration.installed)]
            + registration.devices.map {
                FleetMember(name: $0.name, platform: $0.platform, languages: $0.languages ?? languages, installed: $0.state.installed)
            }
    }
}

/// Findings across the fleet: a backend's pushes (from the socket, the port and FCM — not files,
/// replays or local notifications) grouped into campaigns, each device's share of each campaign
/// judged. A campaign is the pushes of one shape (the same keys, loc-keys and category; texts and
/// targets may differ, as one message per language topic or per user does) in one burst: less
/// than `campaignGap` apart, or `exec`'s whole run. Made only when the inbox has more than one device.
public enum FleetFindings {
    /// Pushes further apart than this start a new campaign.
    public static let campaignGap: TimeInterval = 10

    /// The findings of `rows` (any order) for `members`; `rendering` gives a row's rendering in
    /// its device's languages (nil when it has none). `oneCampaign`: every row is one campaign.
    public static func findings(
        _ rows: [StoredNotification], members: [FleetMember], oneCampaign: Bool = false,
        rendering: (StoredNotification) -> RenderedNotification?
    ) -> [FleetFinding] {
        guard members.count > 1 else { return [] }
        var out: [FleetFinding] = []
        for campaign in campaigns(rows.filter { backendSources.contains($0.source) }, oneCampaign: oneCampaign) {
            out += judge(campaign, members: members, rendering: rendering)
        }
        return out
    }

    /// Where a backend's pushes come from.
    static let backendSources: Set<PayloadSource> = [.socket, .tls, .fcm, .send]

    /// Rows in arrival order, cut into bursts where requests are more than `campaignGap` apart
    /// (never, with `oneCampaign`), each burst's rows grouped by shape; every campaign in order
    /// of its first row.
    static func campaigns(_ rows: [StoredNotification], oneCampaign: Bool) -> [[StoredNotification]] {
        var bursts: [[StoredNotification]] = []
        var last: Date?
        for row in rows.sorted(by: { $0.id < $1.id }) {
            if bursts.isEmpty || (!oneCampaign && last.map { row.receivedAt.timeIntervalSince($0) > campaignGap } == true) {
                bursts.append([])
            }
            bursts[bursts.count - 1].append(row)
            last = row.receivedAt
        }
        return bursts.flatMap { burst in
            var order: [String] = []
            var byShape: [String: [StoredNotification]] = [:]
            for row in burst {
                let key = shape(of: row)
                if byShape[key] == nil { order.append(key) }
                byShape[key, default: []].append(row)
            }
            return order.map { byShape[$0]! }
        }
    }

    /// A push's shape: its key paths (a target's and every text's value left out) with the
    /// values of its loc-keys and category, so one message per language or per user has one
    /// shape and two different messages have two.
    static func shape(of row: StoredNotification) -> String {
        guard let document = try? JSONParser.parse(row.raw) else { return "unreadable" }
        var paths: [String] = []
        func walk(_ value: JSONValue, _ path: String) {
            switch value {
            case .object(let o):
                for (key, child) in o.entries where !targetKeys.contains(key) { walk(child, path.isEmpty ? key : path + "." + key) }
            case .array(let items):
                for item in items { walk(item, path + "[]") }
            case .string(let text) where valuedKeys.contains { path.hasSuffix($0) }:
                paths.append(path + "=" + text)
            default:
                paths.append(path)
            }
        }
        walk(document, "")
        return Set(paths).sorted().joined(separator: "\n")
    }

    /// Keys that address a message rather than shape it.
    private static let targetKeys: Set<String> = ["token", "topic", "condition", "fid", "validate_only"]
    /// Keys whose values are part of a push's shape: what it says, not how it says it.
    private static let valuedKeys = ["loc-key", "loc_key", "category", "click_action", "channel_id", "thread-id"]

    /// Whether a row is a notification its device got (or will get from storage): accepted,
    /// meant for it, not thrown away by the push service.
    static func received(_ row: StoredNotification) -> Bool {
        guard row.status == 200, row.targeting?.targeted ?? true else { return false }
        switch row.delivery?.state {
        case .discardedExpired?, .discardedReplaced?: return false
        default: return true
        }
    }

    private static func judge(
        _ campaign: [StoredNotification], members: [FleetMember], rendering: (StoredNotification) -> RenderedNotification?
    ) -> [FleetFinding] {
        let first = campaign[0].id
        let got = campaign.filter(received)
        guard !got.isEmpty else { return [] }
        let usesFCM = campaign.contains { $0.source == .fcm }
        var out: [FleetFinding] = []
        for member in members {
            let mine = got.filter { ($0.device ?? FleetDevice.defaultName) == member.name }
            // Shown notifications only: a collapse id replaces, it does not add.
            var seen = Set<String>()
            let shown = mine.filter { row in row.collapseID.map { seen.insert($0).inserted } ?? true }
            if shown.count > 1 {
                out.append(
                    FleetFinding(
                        kind: .duplicate, device: member.name, campaign: first, ids: shown.map(\.id),
                        detail:
                            "\(member.name) got \(shown.count) notifications of one campaign: \(shown.compactMap(addressee).joined(separator: ", "))")
                )
            }
            let reachable = member.installed && (usesFCM || member.platform != .android)
            if mine.isEmpty && reachable {
                out.append(
                    FleetFinding(
                        kind: .missed, device: member.name, campaign: first, ids: [],
                        detail:
                            "\(member.name) (\(member.languages.first ?? "?")) got none of a campaign that reached \(Set(got.map { $0.device ?? FleetDevice.defaultName }).sorted().joined(separator: ", "))"
                    ))
            }
            for row in shown {
                if let (cause, detail) = wrongLanguage(row, member: member, rendering: rendering) {
                    out.append(FleetFinding(kind: .wrongLanguage, device: member.name, campaign: first, ids: [row.id], cause: cause, detail: detail))
                }
            }
        }
        return out
    }

    /// To whom a row's message was addressed, in a few words.
    private static func addressee(_ row: StoredNotification) -> String? {
        row.targeting?.addressee ?? row.deviceToken.map { "token \($0.prefix(8))…" }
    }

    /// Why a row is in another language than its device's, if it is.
    static func wrongLanguage(
        _ row: StoredNotification, member: FleetMember, rendering: (StoredNotification) -> RenderedNotification?
    ) -> (FleetFinding.Cause, String)? {
        guard let language = member.languages.first else { return nil }
        let own = primary(language)
        if let topic = row.targeting?.addressee.flatMap(topicName), let addressed = DeviceTopics.language(ofTopic: topic), primary(addressed) != own {
            return (.languageTopic, "\(member.name) reads \(language) but got the message for topic \(topic) (\(addressed))")
        }
        guard let rendered = rendering(row) else { return nil }
        if rendered.warnings.contains(where: { $0.code == .missingKey }) {
            return (.missingKey, "\(member.name) (\(language)) shows a key missing in its localization as the key itself")
        }
        let localized = rendered.trace.contains { $0.step == .localize && ($0.outcome == .localized || $0.outcome == .atDelivery) }
        if localized, let shownIn = rendered.language, primary(shownIn) != own {
            return (
                .localizationFallback, "\(member.name) reads \(language) but is shown the \(shownIn) localization: the app has none in its language"
            )
        }
        if !localized {
            let text = [rendered.title, rendered.subtitle, rendered.body].compactMap { $0 }.joined(separator: " ")
            if let found = TextScript.dominant(in: text), found.counted >= 4, found.share >= 0.6 {
                let scripts = TextScript.scripts(ofLanguage: language)
                if !scripts.isEmpty && !scripts.contains(found.script) {
                    return (
                        .script,
                        "\(member.name) reads \(language) (\(scripts.sorted().joined(separator: "/"))) but the text is written in \(found.script)"
                    )
                }
            }
        }
        return nil
    }

    /// The language subtag of a tag, lowercased (`ko` of `ko-KR`).
    static func primary(_ tag: String) -> String { (LanguageTag.subtags(tag).first ?? tag).lowercased() }

    /// The topic of an addressee `topic NAME`.
    private static func topicName(_ addressee: String) -> String? {
        addressee.hasPrefix("topic ") ? String(addressee.dropFirst(6)) : nil
    }
}

extension FleetFinding {
    /// The finding as `list --json`, exec's summary and the API write it.
    public var json: JSONValue {
        .object(
            JSONObject([
                ("kind", .string(kind.rawValue)), ("device", .string(device)), ("campaign", .number(String(campaign))),
                ("ids", .array(ids.map { .number(String($0)) })), ("cause", .optionalString(cause?.rawValue)), ("detail", .string(detail)),
            ]))
    }
}

extension IntakeService {
    /// The fleet's findings in `rows` (none without added devices), each row judged in its
    /// device's languages; `oneCampaign`: the rows are one campaign (an `exec` run).
    public func findings(_ rows: [StoredNotification], oneCampaign: Bool = false) -> [FleetFinding] {
        guard let registration = phone.registration(), !registration.devices.isEmpty else { return [] }
        let members = FleetMember.fleet(registration, languages: phone.languages)
        return FleetFindings.findings(rows, members: members, oneCampaign: oneCampaign) { [renderings] row in renderings?.shown(row) }
    }
}

extension FleetFinding {
    /// A finding read back from its JSON (a running pushbox's answer); nil when it is not one.
    public init?(json: JSONValue) {
        guard let o = json.objectValue, let kind = o["kind"]?.stringValue.flatMap(Kind.init(rawValue:)), let device = o["device"]?.stringValue
        else { return nil }
        self.init(
            kind: kind, device: device, campaign: Int64(o["campaign"]?.intValue ?? 0),
            ids: (o["ids"]?.arrayValue ?? []).compactMap { $0.intValue.map(Int64.init) },
            cause: o["cause"]?.stringValue.flatMap(Cause.init(rawValue:)), detail: o["detail"]?.stringValue ?? "")
    }
}
