import Foundation
import PushboxDevice
import PushboxJSON
import PushboxPayload
import PushboxRendering
import PushboxStore
import PushboxSystem
import PushboxTestSupport
import Testing

@testable import PushboxInbox

/// The one owner of renderings: answers first, every arrival rendered once the intake is quiet,
/// one rendering per (notification, languages), the intake's validation reused, results pushed.
@Suite("Renderings")
final class RenderBacklogTests: Sendable {
    let folder = TemporaryFolder("pbr")
    var dir: String { folder.path }

    @Test("the backlog waits while pushes keep coming, and not past the quiet period or its length limit")
    func waitPolicy() {
        #expect(Renderings.mustWait(quietFor: .milliseconds(1), waiting: 10))
        #expect(!Renderings.mustWait(quietFor: Renderings.quietPeriod, waiting: 10))
        #expect(!Renderings.mustWait(quietFor: .milliseconds(1), waiting: Renderings.maxDeferred))
        // Somebody waits for arrivals: the oldest waits no longer than maxWait, however busy the intake.
        #expect(Renderings.mustWait(quietFor: .milliseconds(1), waiting: 10, waitedFor: .milliseconds(10)))
        #expect(!Renderings.mustWait(quietFor: .milliseconds(1), waiting: 10, waitedFor: Renderings.maxWait))
    }

    @Test("arrivals reach their listener whole: in order, once, each with its rendering and what the inbox lists of it")
    func arrivalsComeRendered() throws {
        let store = try InboxStore(path: dir + "/inbox.sqlite")
        let context = ValidationContext()
        let renderings = Renderings(base: Renderer(context: context, preferredLanguages: ["en"]), store: store)
        let heard = Locked<[RenderedArrival]>([])
        renderings.onArrived { arrivals in heard.withLock { $0 += arrivals } }
        // Handed on whole, an arrival is not pushed a second time as a rendering.
        let batched = Locked(0)
        renderings.onRendered { batch in batched.withLock { $0 += batch.renderings.count } }
        let service = IntakeService(store: store, context: context, renderings: renderings)
        var ids: [Int64] = []
        for i in 0..<70 { ids.append(try #require(service.receive(SyntheticPayloads.raw(i)).id)) }
        // One refused: handed on too, rendered as refused.
        let refused = service.receive(
            RawPayload(
                bytes: Array(#"{"aps":{"alert":"x"}}"#.utf8),
                envelope: Envelope(source: .socket, headers: PushHeaders([("apns-priority", "7")]), deviceToken: "abcd")))
        #expect(refused.status == 400)
        ids.append(try #require(refused.id))
        service.drain()
        let arrivals = heard.withLock { $0 }
        #expect(arrivals.map(\.stored.id) == ids)
        #expect(arrivals.allSatisfy { $0.languageKey == "en" && $0.rendering != nil })
        #expect(batched.withLock { $0 } == 0)
        for (i, a) in arrivals.prefix(70).enumerated() {
            #expect(a.rendering?.title == a.stored.listing?.title && a.stored.listing?.title?.hasSuffix("#\(i)") == true)
        }
        // Refused for its headers, before APNs reads the body: nothing was read to list.
        #expect(arrivals.last?.rendering?.status == 400 && arrivals.last?.stored.listing == nil)
    }

    @Test("every notification of a burst is rendered and stored, those no longer recent too, and pushed to a listener")
    func wholeBurst() throws {
        let store = try InboxStore(path: dir + "/inbox.sqlite")
        let context = ValidationContext()
        let renderer = Renderer(context: context, preferredLanguages: ["en"])
        let renderings = Renderings(base: renderer, store: store)
        let pushed = Locked<Set<Int64>>([])
        renderings.onRendered { batch in
            #expect(batch.languageKey == "en")
            pushed.withLock { $0.formUnion(batch.renderings.keys) }
        }
        let service = IntakeService(store: store, context: context, renderings: renderings)
        let count = Renderings.recentKept + 20
        var ids: [Int64] = []
        for i in 0..<count {
            let result = service.receive(SyntheticPayloads.raw(i))
            #expect(result.status == 200)
            ids.append(try #require(result.id))
        }
        service.drain()
        #expect(store.renderCount == count)
        #expect(pushed.withLock { $0 } == Set(ids))
        // The first was read back from the store and validated again: the same notification.
        for index in [0, count - 1] {
            let stored = try #require(renderings.stored(RenderKey(id: ids[index], languages: ["en"])))
            let fresh = renderer.render(try #require(try store.notification(id: ids[index])).rawPayload)
            #expect(stored.title == fresh.title && stored.body == fresh.body && stored.status == fresh.status)
            #expect(stored.title?.hasSuffix("#\(index)") == true)
        }
    }

    @Test("an FCM message keeps the targeting it got on arrival; one stored without it is judged again, and its trace says so")
    func targetingKept() throws {
        let store = try InboxStore(path: dir + "/inbox.sqlite")
        let korean = ValidationContext(deviceTopics: ["LangKoKR"])
        let message = Array(#"{"message":{"condition":"'LangKoKR' in topics","notification":{"title":"ko"}}}"#.utf8)
        let raw = RawPayload(bytes: message, envelope: Envelope(source: .fcm))
        // Received while the device's language topic was LangKoKR: delivered, and kept so.
        let kept = try store.insert(
            raw, apnsID: "7f1c8a2e-4b4d-4a8e-9f3e-000000000010",
            verdict: .init(status: 200, targeting: TargetingRecord(Validator.validate(raw, context: korean))))
        let old = try store.insert(raw, apnsID: "7f1c8a2e-4b4d-4a8e-9f3e-000000000011", verdict: .init(status: 200))
        // The device is English now.
        let renderings = Renderings(base: Renderer(context: ValidationContext(deviceTopics: ["LangEnUS"]), preferredLanguages: ["en"]), store: store)
        #expect(renderings.rendering(id: kept)?.delivered == .original)
        let judged = try #require(renderings.rendering(id: old))
        #expect(judged.delivered == .rejected)
        #expect(judged.trace.first { $0.step == .target }?.detail.contains("judged again") == true)
    }

    @Test("readers of one pair at once share one rendering, and another language list is a rendering of its own")
    func oneRenderingPerPair() throws {
        let store = try InboxStore(path: dir + "/inbox.sqlite")
        let renderings = Renderings(base: Renderer(context: ValidationContext(), preferredLanguages: ["en"]), store: store)
        let id = try store.insert(SyntheticPayloads.raw(3), apnsID: "7f1c8a2e-4b4d-4a8e-9f3e-000000000003", verdict: .init(status: 200))
        let results = Locked<[RenderedNotification]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            if let note = renderings.rendering(id: id) { results.withLock { $0.append(note) } }
        }
        let all = results.withLock { $0 }
        #expect(all.count == 8)
        #expect(Set(all.map(\.title)).count == 1)
        #expect(store.renderCount == 1)
        _ = try #require(renderings.rendering(id: id, languages: ["ko"]))
        #expect(store.renderCount == 2)
    }

    @Test("an arrival's validation is kept for its renderings when the intake validated with the renderer's context, and not otherwise")
    func validationReused() throws {
        let store = try InboxStore(path: dir + "/inbox.sqlite")
        let context = ValidationContext()
        for (intakeContext, kept) in [(context, true), (ValidationContext(bundleID: "other.app"), false)] {
            let renderings = Renderings(base: Renderer(context: context, preferredLanguages: ["en"]), store: store)
            let service = IntakeService(store: store, context: intakeContext, renderings: renderings)
            let id = try #require(service.receive(SyntheticPayloads.raw(5)).id)
            service.drain()
            #expect(renderings.state.withLock { $0.recent[id]?.report != nil } == kept)
            let ko = try #require(renderings.rendering(id: id, languages: ["ko"]))
            let fresh = Renderer(context: context, preferredLanguages: ["ko"]).render(try #require(try store.notification(id: id)).rawPayload)
            #expect(ko.title == fresh.title && ko.status == fresh.status)
        }
    }

    @Test("a rendering made on demand while its arrival waits is not made again by the backlog")
    func onDemandTakesItFromTheBacklog() throws {
        let store = try InboxStore(path: dir + "/inbox.sqlite")
        let context = ValidationContext()
        // A long quiet period: the arrival still waits when the reader asks.
        let renderings = Renderings(base: Renderer(context: context, preferredLanguages: ["en"]), store: store, quietPeriod: .milliseconds(500))
        let pushes = Locked(0)
        renderings.onRendered { batch in pushes.withLock { $0 += batch.renderings.count } }
        let service = IntakeService(store: store, context: context, renderings: renderings)
        let id = try #require(service.receive(SyntheticPayloads.raw(9)).id)
        service.arrivals.flush()
        #expect(renderings.state.withLock { $0.waiting.contains(id) })
        _ = try #require(renderings.rendering(id: id))
        #expect(renderings.state.withLock { !$0.waiting.contains(id) })
        service.drain()
        #expect(store.renderCount == 1)
        #expect(pushes.withLock { $0 } == 0)
    }
}
