import Foundation
import PushboxInbox
import PushboxPayload
import PushboxStore

/// `pushbox-bench query [COUNT]`: the query language over COUNT stored notifications (default
/// 100,000, rendered and stored as serve keeps them), as `GET /api/v1/notifications` and `list
/// --query` run it: a field query and a free-word query, each when it matches a page at once and
/// when it matches nothing (every row read), p50 and p99 of 15 runs, against reading the rows alone.
enum QueryBenchmark {
    static func run(count: Int, samples: String?) {
        let inbox = BenchInbox.make("query", samples: samples)
        defer { inbox.remove() }
        let (store, service) = (inbox.store, inbox.service)
        let clock = ContinuousClock()
        let fill = clock.now
        for start in stride(from: 0, to: count, by: 500) {
            let raws = (start..<min(count, start + 500)).map { i -> RawPayload in
                // One in fifty refused (no aps), so a status query has something to find.
                i % 50 == 0
                    ? RawPayload(bytes: Array(#"{"nope":\#(i)}"#.utf8), envelope: Envelope(source: .socket, deviceToken: "abcd"))
                    : SyntheticPayloads.raw(i)
            }
            for (_, arrival) in service.receiveBeforeAnswer(batch: raws) { arrival?.publish() }
        }
        service.drain()
        print("pushbox-bench query: \(count) notifications stored and rendered in \(clock.now - fill); 15 runs each, newest first, a page of 50")
        func seconds(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18 }
        func measure(_ name: String, _ body: () -> Int) {
            var times: [Double] = []
            var found = 0
            for _ in 0..<15 {
                let start = clock.now
                found = body()
                times.append(seconds(clock.now - start))
            }
            times.sort()
            print(
                name.padding(toLength: 52, withPad: " ", startingAt: 0)
                    + String(format: "p50 %8.2f ms   p99 %8.2f ms   %d found", times[7] * 1000, times[14] * 1000, found))
        }
        measure("baseline: every row read, nothing matched") {
            var n = 0
            var cursor = Int64.max
            while let page = try? store.inbox(limit: 500, before: cursor), let last = page.last {
                n += page.count
                cursor = last.id
            }
            return n == count ? 0 : -1
        }
        for (name, text) in [
            ("field query, a page at once (status:4xx)", "status:4xx"), ("field query, nothing matches (device:nobody)", "device:nobody"),
            ("free words, a page at once (Rick 00)", "Rick 00"), ("free words, nothing matches (nothing-like-this)", "nothing-like-this"),
        ] {
            guard let query = try? NotificationQuery(text) else { continue }
            measure(name) { service.search(query, limit: 50).rows.count }
        }
    }
}
