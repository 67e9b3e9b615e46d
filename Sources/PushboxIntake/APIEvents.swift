import Foundation
import PushboxInbox
import PushboxJSON
import PushboxPayload
import PushboxStore
import PushboxSystem

/// `GET /api/v1/events`: the inbox's events as Server-Sent Events, and where they come from —
/// the intake's arrivals (with their renderings), renderings made later, the store's changes,
/// every request answered, the device's registration and another process's writes.
enum APIEvents {
    /// The event names a reader may ask for with `?types=`.
    static let names = ["notification", "rendered", "delivery", "deleted", "restored", "device", "request", "inbox"]

    /// Sets up, once per intake, what publishes to `service.events`. Nothing is built before
    /// anybody has listened (an intake nobody streams from pays nothing); from then on every
    /// event is kept, so a reader that reconnects misses none.
    static func wire(_ service: IntakeService, requests: RequestLog) {
        let events = service.events
        events.wireOnce {
            let listened = Listened(events)
            // Waiters hear of arrivals as soon as they are answered, before they are rendered
            // (rendering waits for the intake to be quiet): a wait renders what it needs itself.
            service.arrivals.subscribe { arrivals in events.arrived(arrivals.map { ($0.stored, nil) }) }
            InboxListing.onStored(service) { stored in
                guard listened.yes else { return }
                let dates = InboxListing.dateFormatter()
                events.publish(stored.map { ("notification", InboxListing.item($0.row, shown: $0.shown, dates: dates)) })
            }
            service.renderings?.onRendered { batch in
                guard listened.yes else { return }
                events.publish(
                    batch.renderings.sorted { $0.key < $1.key }.map { id, r in
                        (
                            "rendered",
                            .object(
                                JSONObject([
                                    ("cursor", .string(String(id))), ("lang", .string(batch.languageKey)),
                                    ("language", .optionalString(r.language)),
                                    ("title", .optionalString(r.title)), ("subtitle", .optionalString(r.subtitle)),
                                    ("body", .optionalString(r.body)),
                                ]))
                        )
                    })
            }
            service.store.onChange { change in
                guard listened.yes else { return }
                events.publish(storeEvents(change))
            }
            requests.onRecord { record in
                guard listened.yes, record.path != "/api/v1/events" else { return }
                events.publish("request", record.json(dates: InboxListing.dateFormatter()))
            }
            let seen = Seen(registration: service.phone.registration()?.changes ?? 0, dataVersion: service.store.dataVersion)
            events.onTick {
                if let registration = service.phone.registration(), seen.registrationChanged(registration.changes) {
                    events.publish("device", APIDevice.json(service))
                }
                let version = service.store.dataVersion
                if seen.dataVersionChanged(version) {
                    // Another process wrote to the inbox: what it changed is read again by whoever cares.
                    events.publish("inbox", .object(JSONObject([("changedBy", .string("another process"))])))
                }
            }
        }
    }

    /// The events a change of the store makes.
    static func storeEvents(_ change: StoreChange) -> [(name: String, data: JSONValue)] {
        switch change {
        case .deleted(let ids): return [("deleted", .object(JSONObject([("cursors", .array(ids.map { .string(String($0)) }))])))]
        case .cleared(let count): return [("deleted", .object(JSONObject([("all", .bool(true)), ("count", .number(String(count)))])))]
        case .undeleted(let id): return [("restored", .object(JSONObject([("cursor", .string(String(id)))])))]
        case .delivery(let records):
            let dates = InboxListing.dateFormatter()
            return records.sorted { $0.key < $1.key }.map { id, record in
                (
                    "delivery",
                    .object(
                        JSONObject([
                            ("cursor", .string(String(id))), ("delivery", .string(record.state.rawValue)),
                            ("at", .string(dates.string(from: record.at))),
                        ]))
                )
            }
        }
    }

    /// `GET /api/v1/events?types=a,b`: a Server-Sent Events stream; `Last-Event-ID` (or
    /// `?lastEventId=`) resumes after the last event seen, with the kept events since.
    static func stream(_ request: HTTPRequest, _ service: IntakeService, requests: RequestLog) -> HTTPResponse {
        wire(service, requests: requests)
        let types = request.query["types"].map { Set($0.split(separator: ",").map(String.init)) }
        if let unknown = types?.subtracting(names).sorted().first {
            return APIv1.failure(400, "BadEventType", "no event type \(unknown); the types are \(names.joined(separator: ", "))")
        }
        let after = (request.header("last-event-id") ?? request.query["lastEventId"]).flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
        let stream = ResponseStream()
        // The reader is told how soon to reconnect, and that the stream is open.
        stream.write(Array("retry: 1000\n: pushbox events\n\n".utf8))
        let key = service.events.subscribe(after: after) { burst in
            guard !burst.isEmpty else { return stream.write(Array(": heartbeat\n\n".utf8)) }
            var text = ""
            for event in burst where types == nil || types!.contains(event.name) || event.name == "gap" {
                if event.id > 0 { text += "id: \(event.id)\n" }
                text += "event: \(event.name)\ndata: \(event.data)\n\n"
            }
            return text.isEmpty ? stream.isOpen : stream.write(Array(text.utf8))
        }
        stream.onClose { [events = service.events] in events.unsubscribe(key) }
        var response = HTTPResponse(
            status: 200, headers: [("Content-Type", "text/event-stream"), ("Cache-Control", "no-store"), ("X-Accel-Buffering", "no")])
        response.stream = stream
        return response
    }

    /// Whether anybody has listened since the intake started (then every event is kept).
    final class Listened: Sendable {
        private let events: InboxEvents
        private let ever = Locked(false)
        init(_ events: InboxEvents) { self.events = events }
        var yes: Bool {
            if ever.withLock({ $0 }) { return true }
            guard events.hasListeners else { return false }
            ever.withLock { $0 = true }
            return true
        }
    }

    /// What the tick saw last.
    final class Seen: Sendable {
        private let state: Locked<(registration: Int, dataVersion: Int64)>
        init(registration: Int, dataVersion: Int64) { state = Locked((registration, dataVersion)) }
        func registrationChanged(_ now: Int) -> Bool {
            state.withLock { s in
                defer { s.registration = now }
                return s.registration != now
            }
        }
        func dataVersionChanged(_ now: Int64) -> Bool {
            state.withLock { s in
                defer { s.dataVersion = now }
                return s.dataVersion != now
            }
        }
    }
}
