import Foundation
import PushboxDevice
import PushboxInbox
import PushboxJSON
import PushboxPayload

/// `GET`/`PUT /api/v1/device` — the device as `pushbox device` shows and changes it — and
/// `GET /api/v1/requests?query=`, the requests answered, found with the query language.
enum APIDevice {
    /// The largest `PUT` body read.
    static let maxBody = 16 * 1024
    /// The keys a `PUT` takes.
    static let keys = [
        "device", "languages", "online", "installed", "subscribe", "unsubscribe", "register", "unregister", "focus", "summary", "previews",
        "silent",
    ]

    /// The device as `GET /pushbox/device` gives it, with the languages it renders in now.
    static func json(_ service: IntakeService, device name: String? = nil) -> JSONValue {
        let registration = service.phone.registration()
        if let name, name != FleetDevice.defaultName {
            guard let member = registration?.device(named: name) else { return .null }
            var object = member.json.objectValue ?? JSONObject()
            object["languages"] = .array((service.phone.languages(ofDevice: name) ?? []).map { .string($0) })
            object["topics"] = .array(service.phone.topics(of: member).sorted().map { .string($0) })
            return .object(object)
        }
        var object = InboxListing.deviceJSON(service)
        object["name"] = .string(FleetDevice.defaultName)
        if let renderings = service.renderings { object["renderingLanguages"] = .array(renderings.aheadLanguages.map { .string($0) }) }
        return .object(object)
    }

    /// `GET /api/v1/device?device=NAME`: the inbox's device, or the added one named.
    static func get(_ request: HTTPRequest, _ service: IntakeService) -> HTTPResponse {
        let value = json(service, device: request.query["device"])
        guard value != .null else { return APIv1.failure(404, "NoSuchDevice", "no device \(request.query["device"] ?? "") in the fleet") }
        return APIv1.json(200, value.objectValue ?? JSONObject())
    }

    /// `PUT /api/v1/device` with `{"device"?, "languages"?, "online"?, "installed"?, "subscribe"?,
    /// "unsubscribe"?, "register"?, "unregister"?}`: what `pushbox device` changes, in that order;
    /// the device as it then is. Nothing is changed when any key is wrong.
    static func change(_ request: HTTPRequest, _ service: IntakeService) -> HTTPResponse {
        guard let file = service.phone.registrationFile else {
            return APIv1.failure(409, "NoDevice", "this pushbox keeps no device registration (no inbox file)")
        }
        let body: JSONObject
        switch parse(request.body) {
        case .failure(let bad): return APIv1.failure(400, "BadDeviceChange", bad.why)
        case .success(let read): body = read
        }
        let name = body["device"]?.stringValue
        if let name, name != FleetDevice.defaultName, file.current().device(named: name) == nil {
            return APIv1.failure(404, "NoSuchDevice", "no device \(name) in the fleet")
        }
        let member = name == FleetDevice.defaultName ? nil : name
        var changes: [DeviceChange]
        switch deviceChanges(body) {
        case .failure(let bad): return APIv1.failure(400, "BadDeviceChange", bad.why)
        case .success(let read): changes = read
        }
        let current = member.flatMap { file.current().device(named: $0)?.state.attention } ?? file.current().attention
        switch attentionChange(body, current: current) {
        case .failure(let bad): return APIv1.failure(400, "BadDeviceChange", bad.why)
        case .success(let attention?): changes.append(.attention(attention))
        case .success(nil): break
        }
        let now = Date()
        do throws(any Error) {
            for change in changes {
                if let member {
                    let base = file.current().device(named: member).map { service.phone.baseTopics(of: $0) } ?? []
                    _ = try file.apply(change, device: member, baseTopics: base, at: now)
                } else {
                    _ = try file.apply(change, baseTopics: service.phone.context.deviceTopics ?? [], at: now)
                }
                if member == nil, case .language(let tags) = change {
                    // The running phone and its renderings follow at once, as the picker makes them.
                    service.renderings?.renderAhead(for: tags)
                    service.phone.deviceLanguagesChanged(to: tags, profileTopics: service.phone.profileTopics)
                }
            }
            if bool(body["online"]) == true {
                let activities =
                    member.map { file.current().device(named: $0).flatMap(service.phone.liveActivities(of:)) } ?? service.phone.liveActivities
                _ = try file.comeOnline(at: now, store: service.store, activities: activities, device: member)
            }
        } catch {
            return APIv1.failure(500, "InternalServerError", "the device file could not be written: \(error)")
        }
        return APIv1.json(200, json(service, device: name).objectValue ?? JSONObject())
    }

    /// The body as an object whose keys are all known.
    static func parse(_ bytes: [UInt8]) -> Result<JSONObject, BadChange> {
        guard let object = (try? JSONParser.parse(bytes))?.objectValue else { return .failure(BadChange("the body is no JSON object")) }
        if let unknown = object.keys.first(where: { !keys.contains($0) }) {
            return .failure(BadChange("no device field \(unknown); the fields are \(keys.joined(separator: ", "))"))
        }
        return .success(object)
    }

    /// The changes a body asks for, in the order `pushbox device` would make them.
    static func deviceChanges(_ body: JSONObject) -> Result<[DeviceChange], BadChange> {
        var changes: [DeviceChange] = []
        if let installed = body["installed"] {
            guard let yes = bool(installed) else { return .failure(BadChange("installed takes true or false")) }
            changes.append(yes ? .install : .uninstall)
        }
        if let online = body["online"] {
            guard let yes = bool(online) else { return .failure(BadChange("online takes true or false")) }
            if !yes { changes.append(.offline) }
        }
        if let languages = body["languages"] {
            let tags =
                languages.arrayValue?.compactMap(\.stringValue)
                ?? languages.stringValue?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } ?? []
            guard !tags.isEmpty, tags.allSatisfy(isLanguageTag) else {
                return .failure(BadChange("languages takes language tags, most preferred first, e.g. [\"ko-KR\", \"en\"]"))
            }
            changes.append(.language(tags))
        }
        for (key, make) in [
            ("register", DeviceChange.register), ("unregister", DeviceChange.unregister), ("subscribe", DeviceChange.subscribe),
            ("unsubscribe", DeviceChange.unsubscribe),
        ] as [(String, (String) -> DeviceChange)] {
            guard let value = body[key] else { continue }
            let items = value.arrayValue?.compactMap(\.stringValue) ?? value.stringValue.map { [$0] } ?? []
            guard !items.isEmpty else { return .failure(BadChange("\(key) takes a string or a list of strings")) }
            for item in items {
                let topic = TopicCondition.bareTopicName(item)
                if key.hasSuffix("subscribe"), !TopicCondition.isValidTopicName(topic) {
                    return .failure(BadChange("\(item) is not a topic name (letters, digits and -_.~% only)"))
                }
                changes.append(make(key.hasSuffix("subscribe") ? topic : item))
            }
        }
        return .success(changes)
    }

    /// `focus` (`{"allowApps": [BUNDLE…], "allowTimeSensitive": bool}` or null: off), `summary`
    /// (`["08:00", …]`, `true` for iOS's times, or null/false: off), `previews`
    /// (`always`/`when-unlocked`/`never`), `silent` (bool): the device's attention after them; nil
    /// when the body names none of them.
    static func attentionChange(_ body: JSONObject, current: DeviceAttention) -> Result<DeviceAttention?, BadChange> {
        guard ["focus", "summary", "previews", "silent"].contains(where: { body[$0] != nil }) else { return .success(nil) }
        var out = current
        if let focus = body["focus"] {
            if focus == .null || focus == .bool(false) {
                out.focus = nil
            } else if let o = focus.objectValue {
                out.focus = DeviceAttention.Focus(
                    allowApps: o["allowApps"]?.arrayValue?.compactMap(\.stringValue) ?? [],
                    allowTimeSensitive: o["allowTimeSensitive"] != .bool(false))
            } else if focus == .bool(true) {
                out.focus = out.focus ?? DeviceAttention.Focus()
            } else {
                return .failure(BadChange("focus takes {\"allowApps\": [...], \"allowTimeSensitive\": bool}, true, or null"))
            }
        }
        if let summary = body["summary"] {
            if summary == .null || summary == .bool(false) {
                out.summaryTimes = nil
            } else if summary == .bool(true) {
                out.summaryTimes = out.summaryTimes ?? DeviceAttention.defaultSummaryTimes
            } else if let times = summary.arrayValue.flatMap({ DeviceAttention.summaryTimes($0.compactMap(\.stringValue)) }) {
                out.summaryTimes = times
            } else {
                return .failure(BadChange("summary takes times on the device clock, [\"08:00\", \"18:00\"], true, or null"))
            }
        }
        if let previews = body["previews"] {
            guard let value = previews.stringValue.flatMap(DeviceAttention.Previews.init(rawValue:)) else {
                return .failure(BadChange("previews takes always, when-unlocked or never"))
            }
            out.previews = value
        }
        if let silent = body["silent"] {
            guard let yes = bool(silent) else { return .failure(BadChange("silent takes true or false")) }
            out.silent = yes
        }
        return .success(out)
    }

    /// Why a `PUT` body was refused.
    struct BadChange: Error {
        let why: String
        init(_ why: String) { self.why = why }
    }

    static func bool(_ value: JSONValue?) -> Bool? {
        if case .bool(let yes)? = value { return yes }
        return nil
    }

    /// Whether `tag` starts with a language (two or three letters).
    static func isLanguageTag(_ tag: String) -> Bool {
        let language = tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).first ?? ""
        return (2...3).contains(language.count) && language.allSatisfy { $0.isASCII && $0.isLetter }
    }

    /// `GET /api/v1/activities?device=NAME`: the device's Live Activities as `pushbox activities
    /// --json` shows them (an added device's own; 404 for none).
    static func activities(_ request: HTTPRequest, _ service: IntakeService) -> HTTPResponse {
        let name = request.query["device"].flatMap { $0 == FleetDevice.defaultName ? nil : $0 }
        let device =
            name.map { service.phone.registration()?.device(named: $0).flatMap(service.phone.liveActivities(of:)) } ?? service.phone.liveActivities
        guard let device else { return APIv1.failure(404, "NoSuchDevice", "no device \(name ?? FleetDevice.defaultName) with Live Activities") }
        return APIv1.json(200, device.shownJSON().objectValue ?? JSONObject())
    }

    /// `GET /api/v1/requests?query=&limit=`: the requests answered, newest first, that the query
    /// matches (`status:`, `reason:`, `topic:`, `token:`, `source:` socket or port, `before:`,
    /// `after:`, free words in the method, path, reason and cause).
    static func requests(_ request: HTTPRequest, _ log: RequestLog) -> HTTPResponse {
        let q: NotificationQuery
        switch APIv1.query(request) {
        case .refused(let refused): return refused
        case .query(let read): q = read
        }
        let limit = min(max(Int(request.query["limit"] ?? "") ?? 100, 1), RequestLog.limit)
        let now = Date()
        let dates = InboxListing.dateFormatter()
        let matched = log.recent(ownReads: request.query["all"] == "1").filter { record in
            let words = [record.method, record.path, record.reason ?? "", record.cause ?? ""].joined(separator: " ").lowercased()
            return q.matches(subject(record), now: now) { words.contains($0.lowercased()) }
        }
        return APIv1.json(200, JSONObject([("requests", .array(matched.prefix(limit).map { $0.json(dates: dates) }))]))
    }

    /// A request as the query language sees it.
    static func subject(_ record: RequestRecord) -> QuerySubject {
        var s = QuerySubject(
            device: FleetDevice.defaultName, platform: record.path.hasPrefix("/v1/projects/") ? "android" : "ios",
            delivery: QuerySubject.delivery(status: record.status, notTargeted: false, state: nil),
            source: record.listener.hasPrefix("unix") ? "socket" : "port", time: record.time)
        s.status = record.status
        s.reason = record.reason
        s.topic = record.headers.last { $0.name == "apns-topic" }?.value
        if record.path.hasPrefix(APNsEndpoint.devicePrefix) { s.token = String(APNsEndpoint.tokenPart(of: record.path)) }
        return s
    }
}
