import PushboxDevice
import PushboxPayload
import Testing

/// A verdict keeps its fields behind one reference (copied on the first change of a shared
/// one): a copy must still be a value of its own.
@Suite("A verdict stays a value: a change to a copy leaves the original as it was")
struct VerdictValueTests {
    @Test("every field, and the out-of-line ones, changed after a copy")
    func copyThenChange() {
        var a = Verdict(status: 200, topic: "t")
        let b = a
        a.status = 410
        a.reason = "Unregistered"
        a.detail = "d"
        a.collapseID = "c"
        a.topic = "u"
        a.device = "tablet"
        a.listing = PayloadListing(title: "x", body: nil, threadID: nil, background: false, encrypted: false, firedAt: nil)
        a.presentation = nil
        #expect(b == Verdict(status: 200, topic: "t"))
        #expect(b.reason == nil && b.device == nil && b.listing == nil)
        #expect(a.status == 410 && a.reason == "Unregistered" && a.collapseID == "c" && a.topic == "u" && a.device == "tablet")
        #expect(a != b)
        let c = a
        #expect(c == a)
    }
}
