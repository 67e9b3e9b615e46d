import PushboxJSON

/// A payload that passed validation, in the shape the device receives.
public struct ValidatedPayload: Sendable, Equatable {
    /// APNs payload, Simulator `.apns` file, or FCM message.
    public var form: PayloadForm {
        get { fields.form }
        _modify {
            unique()
            yield &fields.form
        }
    }
    /// The APNs payload the iPhone receives (for FCM, the mapped one; for `.apns`, without the
    /// Simulator key).
    public var payload: JSONObject {
        get { fields.payload }
        _modify {
            unique()
            yield &fields.payload
        }
    }
    /// The `aps` dictionary.
    public var aps: JSONObject {
        get { fields.aps }
        _modify {
            unique()
            yield &fields.aps
        }
    }
    /// The request headers in force (the request's, plus FCM's `apns.headers`).
    public var headers: PushHeaders {
        get { fields.headers }
        _modify {
            unique()
            yield &fields.headers
        }
    }
    /// The push type given, or the one APNs infers.
    public var pushType: PushType {
        get { fields.pushType }
        _modify {
            unique()
            yield &fields.pushType
        }
    }
    /// The FCM message it came as, if it did.
    public var fcm: FCMMessage? {
        get { fields.fcm }
        _modify {
            unique()
            yield &fields.fcm
        }
    }

    /// The fields behind one reference, copied before a change when shared: the device's checks
    /// read `report.validated` a dozen times a push, each read a copy of the payload's trees,
    /// headers and FCM message until then (callgrind).
    private var fields: Fields

    /// The stored fields of a validated payload; changed only through `unique()`'s own copy, so
    /// no access needs the run-time exclusivity check (which cost more than the retains saved).
    private final class Fields: @unchecked Sendable {
        @exclusivity(unchecked) var form: PayloadForm
        @exclusivity(unchecked) var payload: JSONObject
        @exclusivity(unchecked) var aps: JSONObject
        @exclusivity(unchecked) var headers: PushHeaders
        @exclusivity(unchecked) var pushType: PushType
        @exclusivity(unchecked) var fcm: FCMMessage?

        init(form: PayloadForm, payload: JSONObject, aps: JSONObject, headers: PushHeaders, pushType: PushType, fcm: FCMMessage?) {
            self.form = form
            self.payload = payload
            self.aps = aps
            self.headers = headers
            self.pushType = pushType
            self.fcm = fcm
        }

        /// A copy of every field.
        func copy() -> Fields {
            let c = Fields(form: form, payload: payload, aps: aps, headers: headers, pushType: pushType, fcm: fcm)
            return c
        }
    }

    /// Makes `fields` a validated payload's own before it changes.
    private mutating func unique() {
        if !isKnownUniquelyReferenced(&fields) { fields = fields.copy() }
    }

    /// A payload as validated: its form, the payload and its `aps`, the headers, the push type and the FCM message.
    public init(form: PayloadForm, payload: JSONObject, aps: JSONObject, headers: PushHeaders, pushType: PushType, fcm: FCMMessage?) {
        fields = Fields(form: form, payload: payload, aps: aps, headers: headers, pushType: pushType, fcm: fcm)
    }

    /// Equal when every field is.
    public static func == (a: ValidatedPayload, b: ValidatedPayload) -> Bool {
        a.fields === b.fields
            || (a.form == b.form && a.payload == b.payload && a.aps == b.aps && a.headers == b.headers && a.pushType == b.pushType
                && a.fcm == b.fcm)
    }
}
