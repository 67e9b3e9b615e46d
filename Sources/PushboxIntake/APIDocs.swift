/// What each `/api/v1/` route says of itself in its OpenAPI document (`RouteDoc`).
enum APIDocs {
    typealias P = RouteDoc.Parameter
    static let query = P.query(
        "query",
        "pushbox's query language: free words, \"a phrase\", field:value (title, body, topic, device, lang, status, delivery, …), -term; empty: every one"
    )
    static let lang = P.query("lang", "Render in these languages (comma-separated tags) instead of the device's")
    static let badQuery = (400, "BadQuery: the query cannot be read (code, offset)")
    static let refused = (403, "Forbidden: a Host that is no loopback name, or another site's Origin")

    static let notifications = RouteDoc(
        path: "/api/v1/notifications",
        operations: [
            .init(
                method: "GET", summary: "The notifications the query matches, newest first, a page at a time",
                parameters: [
                    query, lang, P.query("limit", "At most this many (1–1000, 50 by default)", type: "integer"),
                    P.query("cursor", "Go on from the `next` of the previous page"),
                ], responses: [(200, "{notifications: [item], next: cursor or null}"), badQuery, refused]),
            .init(
                method: "DELETE", summary: "Deletes what the query matches (every notification without one)", parameters: [query],
                responses: [(200, "{deleted: count}"), badQuery, refused]),
        ])

    static let notification = RouteDoc(
        path: "/api/v1/notifications/{key}",
        operations: [
            .init(
                method: "GET",
                summary: "One push, by apns-id or `latest` (the newest the query matches): every delivery with its rendering and trace",
                parameters: [P(name: "key", location: "path", description: "An apns-id, or latest"), query, lang],
                responses: [(200, "{apnsId, deliveries: [item with rendering]}"), (404, "NotFound"), badQuery, refused]),
            .init(
                method: "DELETE", summary: "Deletes every delivery of the push",
                parameters: [P(name: "key", location: "path", description: "An apns-id")],
                responses: [(200, "{deleted: count}"), (404, "NotFound"), refused]),
        ])

    static let attachment = RouteDoc(
        path: "/api/v1/notifications/{key}/attachments/{index}",
        operations: [
            .init(
                method: "GET", summary: "An attachment's bytes, with the type read from them (images, audio and video only)",
                parameters: [
                    P(name: "key", location: "path", description: "An apns-id"),
                    P(
                        name: "index", location: "path",
                        description:
                            "0 for the first attachment, android for the Android big picture, or avatar for a communication notification's sender"),
                ],
                responses: [
                    (200, "The bytes"), (404, "NotFound"), (410, "Gone: the file is no longer there"), (415, "UnsupportedMediaType"), refused,
                ],
                contentType: "application/octet-stream")
        ])

    static let response = RouteDoc(
        path: "/api/v1/notifications/{key}/response",
        operations: [
            .init(
                method: "GET", summary: "What the app receives when the user taps the notification or chooses one of its actions",
                parameters: [
                    P(name: "key", location: "path", description: "An apns-id"), P.query("action", "tap (the default), or an action's identifier"),
                    P.query("device", "The device of the fleet whose delivery is tapped (phone by default)"),
                ],
                responses: [
                    (200, "{actionIdentifier, title, options, opensApp, userInfo, deepLink, localRequest, apnsId}"), (404, "NotFound, NoSuchAction"),
                    (409, "NotDelivered, NothingToTap"), refused,
                ])
        ])

    static let wait = RouteDoc(
        path: "/api/v1/wait",
        operations: [
            .init(
                method: "GET", summary: "Waits for a notification the query matches, stored after the cursor (now without one)",
                parameters: [
                    query, lang, P.query("timeout", "Seconds (30 by default, at most 120)", type: "number"),
                    P.query("after", "A cursor: notifications stored after it count"),
                ], responses: [(200, "{notification: item}"), (408, "Timeout: {arrived: [item], cursor}"), badQuery, refused])
        ])

    static let events = RouteDoc(
        path: "/api/v1/events",
        operations: [
            .init(
                method: "GET",
                summary:
                    "Server-Sent Events: notification, rendered, delivery, deleted, restored, device, request, inbox (another process wrote), gap",
                parameters: [
                    P.query("types", "Only these event types (comma-separated)"),
                    P(name: "Last-Event-ID", location: "header", description: "Resume after this event: the kept events since are sent first"),
                ], responses: [(200, "The stream"), (400, "BadEventType"), refused], contentType: "text/event-stream")
        ])

    static let device = RouteDoc(
        path: "/api/v1/device",
        operations: [
            .init(
                method: "GET", summary: "The device (or the fleet's device named), as pushbox device shows it",
                parameters: [P.query("device", "A device of the fleet (phone: the inbox's own)")],
                responses: [(200, "The device"), (404, "NoSuchDevice"), refused]),
            .init(
                method: "PUT", summary: "Changes the device as pushbox device does; the device as it then is",
                body:
                    "{device?, languages?: [tag], online?: bool, installed?: bool, subscribe?: [topic], unsubscribe?: [topic], register?: [token], unregister?: [token], focus?: {allowApps, allowPeople, allowTimeSensitive, filter}|null, summary?: [HH:MM]|null, previews?: always|when-unlocked|never, silent?: bool}",
                responses: [(200, "The device"), (400, "BadDeviceChange"), (404, "NoSuchDevice"), refused]),
        ])

    static let chaos = RouteDoc(
        path: "/api/v1/chaos",
        operations: [
            .init(
                method: "GET", summary: "The chaos rules: {armed, rules: [{id, rule, fault, active, spent, matched, fired}]}",
                responses: [(200, "The rules"), refused]),
            .init(
                method: "PUT",
                summary:
                    "Changes the chaos rules: rules (replacing), add, remove, on, off; {} clears them. Nothing changes when a rule cannot be read",
                body: "{rules?: [rule], add?: [rule], remove?: [id], on?: [id], off?: [id]}",
                responses: [(200, "The rules"), (400, "BadChaosRule, BadChaosChange"), refused]),
            .init(method: "DELETE", summary: "Removes every chaos rule", responses: [(200, "The rules (none)"), refused]),
        ])

    static let requests = RouteDoc(
        path: "/api/v1/requests",
        operations: [
            .init(
                method: "GET",
                summary: "The HTTP requests answered, newest first, that the query matches (status:, reason:, topic:, token:, source:)",
                parameters: [query, P.query("limit", "At most this many (100 by default)", type: "integer")],
                responses: [(200, "{requests: [record]}"), badQuery, refused])
        ])

    static let activities = RouteDoc(
        path: "/api/v1/activities",
        operations: [
            .init(
                method: "GET",
                summary: "The device's Live Activities now: each with its phase, lock-screen line and timeline; the Dynamic Island order",
                parameters: [P.query("device", "A device of the fleet (phone: the inbox's own)")],
                responses: [(200, "{now, pushToStartToken, island, activities, unmatched, channels}"), (404, "NoSuchDevice"), refused])
        ])

    static let health = RouteDoc(
        path: "/api/v1/health",
        operations: [
            .init(
                method: "GET", summary: "Ready when the store and listeners are",
                responses: [(200, "{status: ready, notifications, web: the browser inbox's address or null}")])
        ])

    /// Every route's own description, in the order the reference page lists them (the route
    /// table serves the same ones: `GET /api/v1/openapi.json`).
    static let all = [notifications, notification, attachment, response, wait, events, device, requests, activities, chaos, health, openAPI]

    static let openAPI = RouteDoc(
        path: "/api/v1/openapi.json",
        operations: [.init(method: "GET", summary: "This document, made from pushbox's route table", responses: [(200, "OpenAPI 3.1")])])
}

/// What the API says of itself, for the reference pages (`pushbox docs`).
public enum APIReference {
    /// Every `/api/v1/` route's description: path, methods, parameters, body, answers.
    public static var routes: [RouteDoc] { APIDocs.all }
}
