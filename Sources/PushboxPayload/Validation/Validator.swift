import PushboxJSON

/// What validation needs to know about the simulated device and its app.
public struct ValidationContext: Sendable, Equatable {
    /// The app's bundle id, from its profile; topic rules apply only when it is known.
    public var bundleID: String?
    /// The FCM topics the device subscribes to (its language topic included); nil when no
    /// device is described, and FCM targeting is then not judged.
    public var deviceTopics: Set<String>?
    /// JSON nesting limit; deeper bodies are refused.
    public var maxDepth: Int
    /// How FCM `token` and `fid` targets are judged (`any` by default).
    public var fcmTokens: FCMTokenMode = .any
    /// The Firebase project the app's tokens belong to, from its profile (nil: the first that sends).
    public var fcmProject: String?
    /// The APNs environment the device's token belongs to (development: a debug build).
    public var apnsEnvironment: APNsEnvironment = .development
    /// How APNs device tokens no device owns are taken: `any` (the default device's) or
    /// `strict` (400 BadDeviceToken, as APNs answers a token it does not know).
    public var apnsTokens: FCMTokenMode = .any
    /// The app's capabilities and entitlements (`"capabilities"` in its profile); nil when the
    /// profile does not say, and what needs one is then not judged.
    public var capabilities: Set<AppCapability>?
    /// Where the app's communication step finds the sender's handle and name (key paths), so a
    /// Focus can let allowed people through; nil when the recipe donates no communication intent.
    public var communicationSender: [String]?

    /// What validation knows of the device: its app's bundle id and its FCM topics.
    public init(bundleID: String? = nil, deviceTopics: Set<String>? = nil, maxDepth: Int = JSONParser.defaultMaxDepth) {
        self.bundleID = bundleID
        self.deviceTopics = deviceTopics
        self.maxDepth = maxDepth
    }
}

extension ValidatedPayload {
    /// The payload as an Xcode Simulator `.apns` file: "Simulator Target Bundle" (the app of its
    /// `apns-topic`, else `fallbackBundleID`) first, then the payload the device receives.
    public func simulatorFile(fallbackBundleID: String) -> JSONObject {
        let bundle = headers[PushHeaders.topic].map(PushType.bundleID(fromTopic:)) ?? fallbackBundleID
        return JSONObject([(PayloadForm.simulatorTargetKey, .string(bundle))] + payload.entries)
    }
}

/// Whether the simulated device is among the message's recipients (FCM topics and conditions).
public enum Targeting: Sendable, Equatable {
    case device
    /// Valid, but not for this device; the detail says why.
    case notTargeted(String)
}

/// Validates payloads exactly as APNs answers them (Apple's "Handling notification responses
/// from APNs" and "Sending notification requests to APNs"; FCM HTTP v1 for FCM messages).
public enum Validator {
    // Long on purpose: the checks in APNs' order, so the first failure is the one APNs answers.
    /// APNs' verdict on the payload: refused with its reason, or accepted with warnings.
    public static func validate(_ raw: RawPayload, context: ValidationContext = ValidationContext()) -> ValidationReport {
        var warnings: [Diagnostic] = []
        // The body once read: a payload refused after that is listed from it.
        var read: JSONObject?
        // The push type the request names (FCM's `apns.headers` included, once read), read once.
        var givenType: PushType?
        func rejected(_ r: Rejection) -> ValidationReport {
            var report = ValidationReport(rejection: r, warnings: warnings, validated: nil, targeting: .device)
            report.listing = read.map { PayloadListing(payload: $0, pushType: givenType) }
            return report
        }
        var headers = raw.envelope.headers
        for field in headers.fields where PushHeaders.isAPNsName(field.name) && !PushHeaders.known.contains(field.name) {
            warnings.append(Diagnostic(.unknownHeader, "\(field.name) is not an APNs header; APNs ignores it"))
        }
        if let r = HeaderRules.check(headers, deviceToken: raw.envelope.deviceToken) { return rejected(r) }
        givenType = headers[PushHeaders.pushType].flatMap(PushType.init(rawValue:))
        let limit = givenType?.maxPayloadBytes ?? PushType.alert.maxPayloadBytes

        // FCM's endpoint takes a request as large as its own limit; the APNs payload it makes is
        // held to APNs' limit below.
        let documentLimit = raw.envelope.source == .fcm ? FCMMessage.maxRequestBytes : limit
        let document: JSONObject
        var mayRepeatKeys = true
        switch readDocument(
            raw.bytes, length: raw.envelope.bodyLength, limit: documentLimit, maxDepth: context.maxDepth, mayRepeatKeys: &mayRepeatKeys)
        {
        case .failure(let r): return rejected(r)
        case .success(let d): document = d
        }
        read = document

        let form = PayloadForm.detect(document)
        var payload = document
        var fcm: FCMMessage?
        var targeting = Targeting.device
        switch form {
        case .apns:
            break
        case .simulator(let target):
            payload[PayloadForm.simulatorTargetKey] = nil
            if let bundle = context.bundleID, target != bundle {
                return rejected(
                    Rejection(.deviceTokenNotForTopic, "the file's Simulator Target Bundle is \(target), but this device's app is \(bundle)"))
            }
        case .fcm(let wrapped):
            let messageObject = wrapped ? document["message"]?.objectValue ?? document : document
            do {
                let message = try FCMMessage(messageObject)
                try FCMRules.checkPayload(message)
                try FCMAndroidRules.check(message.android)
                let verdict = try FCMRules.targeting(of: message, deviceTopics: context.deviceTopics ?? [])
                if context.deviceTopics != nil { targeting = verdict }
                for (name, value) in message.apnsHeaders where headers[name] == nil { headers.add(name, value) }
                if message.liveActivityToken != nil {
                    // FCM addresses the activity: it sends APNs the liveactivity push type and topic itself.
                    if headers[PushHeaders.pushType] == nil { headers.add(PushHeaders.pushType, PushType.liveactivity.rawValue) }
                    if headers[PushHeaders.topic] == nil, let bundle = context.bundleID {
                        headers.add(PushHeaders.topic, HeaderRules.expectedTopic(bundle, .liveactivity))
                    }
                }
                givenType = headers[PushHeaders.pushType].flatMap(PushType.init(rawValue:))
                if let r = HeaderRules.check(headers, deviceToken: raw.envelope.deviceToken) { return rejected(r) }
                payload = message.apnsPayloadForDevice()
                fcm = message
            } catch {
                return rejected(error)
            }
            let size = JSONWriter.compact(.object(payload)).utf8.count
            if size > limit {
                // FCM refuses a message too big for APNs itself, with INVALID_ARGUMENT (its error
                // codes list "message too big" under it; the sentence is pushbox's).
                return rejected(
                    Rejection(
                        .invalidArgument, "Message is too big: the APNs payload FCM sends for this message is \(size) bytes; the limit is \(limit)"))
            }
        }

        let aps: JSONObject
        switch PayloadRules.aps(of: payload) {
        case .success(let a): aps = a
        case .failure(let r):
            guard fcm != nil, payload["aps"] == nil else { return rejected(r) }
            // An FCM data message reaches an iPhone through FCM's own channel, not as a notification.
            aps = JSONObject()
            warnings.append(
                Diagnostic(
                    .fcmDataOnly,
                    "this FCM message has no notification and no apns.payload.aps: iOS shows nothing (the app gets the data only while running)"))
        }
        let pushType = givenType ?? PushType.inferred(from: aps)

        if let bundle = context.bundleID {
            var topic = headers[PushHeaders.topic]
            if topic == nil, case .simulator(let target) = form { topic = target }
            let requireTopic = [.socket, .tls, .send].contains(raw.envelope.source)
            if let r = HeaderRules.checkTopic(topic, bundleID: bundle, pushType: pushType, requireTopic: requireTopic) {
                return rejected(r)
            }
        }

        // An APNs payload is the document itself: when the parser met no repeated key, none is there.
        warnings += PayloadRules.warnings(
            payload: payload, aps: aps, pushType: pushType, priority: headers[PushHeaders.priority], mayRepeatKeys: mayRepeatKeys || form != .apns)
        if pushType != .liveactivity { warnings += PresentationRules.warnings(aps, capabilities: context.capabilities) }
        if let fcm { warnings += FCMRules.warnings(fcm, aps: aps) }
        let validated = ValidatedPayload(form: form, payload: payload, aps: aps, headers: headers, pushType: pushType, fcm: fcm)
        var report = ValidationReport(rejection: nil, warnings: warnings, validated: validated, targeting: targeting)
        report.listing = PayloadListing(payload: payload, pushType: pushType)
        if fcm != nil { report.describeTarget(deviceTopics: context.deviceTopics ?? [], isOwn: DeviceIdentity.isBuiltIn) }
        return report
    }

    /// Reads the body as a JSON object, refusing what APNs refuses.
    ///
    /// APNs has no reason for a body it cannot read; the legacy binary API answered such a body
    /// with "missing payload", whose HTTP/2 successor is PayloadEmpty, so pushbox answers
    /// PayloadEmpty and says exactly what was wrong.
    /// `length` is the body's length as sent when only its first bytes were kept.
    static func readDocument(_ bytes: [UInt8], length: Int? = nil, limit: Int, maxDepth: Int) -> Result<JSONObject, Rejection> {
        var mayRepeatKeys = false
        return readDocument(bytes, length: length, limit: limit, maxDepth: maxDepth, mayRepeatKeys: &mayRepeatKeys)
    }

    /// `readDocument`, also saying whether an object of the document may hold a key twice (false:
    /// none does, so the repeated-key warnings need not walk it).
    static func readDocument(_ bytes: [UInt8], length: Int? = nil, limit: Int, maxDepth: Int, mayRepeatKeys: inout Bool) -> Result<
        JSONObject, Rejection
    > {
        // The size first: a body over the limit is refused for its size whatever it holds.
        let size = max(bytes.count, length ?? 0)
        if size > limit {
            let kept = size > bytes.count ? "; its first \(bytes.count) bytes are kept" : ""
            return .failure(Rejection(.payloadTooLarge, "the body is \(size) bytes; the limit is \(limit)\(kept)"))
        }
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            return .failure(
                Rejection(
                    .payloadEmpty, bytes.isEmpty ? "the body is empty" : "the body holds only whitespace",
                    cause: bytes.isEmpty ? .empty : .whitespace))
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes, maxDepth: maxDepth, mayRepeatKeys: &mayRepeatKeys)
        } catch {
            let what: String
            let cause: Rejection.EmptyCause
            switch error.kind {
            case .syntax: (what, cause) = ("not valid JSON", .notJSON)
            case .invalidUTF8: (what, cause) = ("not valid UTF-8", .notUTF8)
            case .nulByte: (what, cause) = ("refused: it holds a NUL byte", .nulByte)
            case .tooDeep: (what, cause) = ("refused: nested too deeply", .tooDeep)
            }
            return .failure(
                Rejection(
                    .payloadEmpty, "the body is \(what) (\(error)); APNs answers PayloadEmpty for a body it cannot read",
                    cause: cause))
        }
        guard let object = value.objectValue else {
            return .failure(
                Rejection(
                    .payloadEmpty, "the body is \(value.typeDescription), not a JSON object; APNs answers PayloadEmpty for it",
                    cause: .notAnObject))
        }
        return .success(object)
    }
}
