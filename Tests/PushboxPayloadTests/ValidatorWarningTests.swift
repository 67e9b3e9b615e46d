import Testing

@testable import PushboxPayload

@Suite("Warnings for what APNs accepts but devices mishandle")
struct ValidatorWarningTests {
    @Test(
        "each problem draws its warning",
        arguments: [
            (#"{"aps":{"alert":"x","badge":"3"}}"#, [], "badge-type"),
            (#"{"aps":{"alert":"x","badge":-1}}"#, [], "badge-type"),
            (#"{"aps":{"alert":{"loc-key":"K","loc-args":[1,2]}}}"#, [], "loc-args-type"),
            (#"{"aps":{"alert":{"loc-key":"K","loc-args":"Shelly"}}}"#, [], "loc-args-type"),
            (#"{"aps":{"alert":{"title-loc-key":"K","title-loc-args":[null]}}}"#, [], "loc-args-type"),
            (#"{"aps":{"alert":{"loc-args":["a"]}}}"#, [], "loc-args-without-key"),
            (#"{"aps":{"alert":42}}"#, [], "alert-type"),
            (#"{"aps":{"alert":["a"]}}"#, [], "alert-type"),
            (#"{"aps":{"alert":{"title":7}}}"#, [], "alert-field-type"),
            (#"{"aps":{"alert":{"body":"b","loc-key":"K"}}}"#, [], "literal-and-loc-key"),
            (#"{"aps":{"alert":{"title":"t","title-loc-key":"K"}}}"#, [], "literal-and-loc-key"),
            (#"{"aps":{"alert":"x","data":{"k":"v"}}}"#, [], "custom-key-in-aps"),
            (#"{"aps":{"alert":"x","mutableContent":1}}"#, [], "camelcase-key"),
            (#"{"aps":{"alert":"x","threadID":"t"}}"#, [], "camelcase-key"),
            (#"{"aps":{"alert":{"body":"b","locKey":"K"}}}"#, [], "camelcase-key"),
            (#"{"aps":{"alert":{"body":"b","footer":"K"}}}"#, [], "unknown-alert-key"),
            (#"{"aps":{"alert":"x","interruption-level":"urgent"}}"#, [], "interruption-level"),
            (#"{"aps":{"alert":"x","relevance-score":1.5}}"#, [], "relevance-score"),
            (#"{"aps":{"alert":"x","relevance-score":"high"}}"#, [], "relevance-score"),
            (#"{"aps":{"alert":"x","content-available":1}}"#, [], "content-available-with-alert"),
            (#"{"aps":{"content-available":1}}"#, [("apns-push-type", "background"), ("apns-priority", "10")], "background-priority"),
            (#"{"aps":{"content-available":1}}"#, [("apns-push-type", "background")], "background-priority"),
            (#"{"aps":{"alert":"x"}}"#, [("apns-push-type", "background"), ("apns-priority", "5")], "background-with-alert"),
            (#"{"aps":{"alert":"x","mutable-content":true}}"#, [], "flag-value"),
            (#"{"aps":{"content-available":"1"}}"#, [("apns-priority", "5")], "flag-value"),
            (#"{"aps":{"alert":"x","sound":3}}"#, [], "sound-type"),
            (#"{"aps":{"alert":"x","sound":{"critical":1,"name":"a.caf","volume":2}}}"#, [], "sound-type"),
            (#"{"aps":{"alert":"x","thread-id":5}}"#, [], "aps-field-type"),
            (#"{"aps":{}}"#, [("apns-push-type", "alert")], "nothing-to-show"),
            (#"{"aps":{"alert":"x","alert":"y"}}"#, [], "duplicate-key"),
            (#"{"aps":{"alert":"x"}}"#, [("apns-flavour", "x")], "unknown-header"),
        ] as [(String, [(String, String)], String)])
    func warning(text: String, headers: [(String, String)], code: String) {
        let report = validate(text, headers: headers)
        #expect(report.ok, "\(report.rejection?.detail ?? "")")
        #expect(report.warnings.map(\.code.rawValue).contains(code), "\(report.warnings.map(\.code))")
    }

    @Test(
        "a clean payload draws no warning",
        arguments: [
            #"{"aps":{"alert":{"title":"t","subtitle":"s","body":"b"},"badge":0,"sound":"default","thread-id":"x","category":"C","mutable-content":1,"interruption-level":"time-sensitive","relevance-score":0.5},"custom":{"a":1}}"#,
            #"{"aps":{"alert":{"loc-key":"K","loc-args":["a","b"]},"sound":{"critical":1,"name":"a.caf","volume":0.8}}}"#,
            #"{"aps":{"badge":5}}"#,
        ])
    func clean(text: String) {
        let report = validate(text)
        #expect(report.ok)
        #expect(report.warnings.isEmpty, "\(report.warnings.map(\.message))")
    }

    @Test("a background push at priority 5 with content-available only is clean")
    func cleanBackground() {
        let report = validate(#"{"aps":{"content-available":1},"x":1}"#, headers: [("apns-push-type", "background"), ("apns-priority", "5")])
        #expect(report.ok)
        #expect(report.warnings.isEmpty)
        #expect(report.validated?.pushType == .background)
    }

    @Test("a repeated key is named by its full path, in nested arrays and large objects too")
    func duplicatePaths() {
        let nested = validate(#"{"aps":{"alert":"x"},"items":[{"a":1},{"b":1,"b":2}]}"#)
        #expect(nested.warnings.contains { $0.code == .duplicateKey && $0.field == "items[1].b" })
        let keys = (0..<20).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        let large = validate(#"{"aps":{"alert":"x"},"big":{"# + keys + #","k3":0}}"#)
        #expect(large.warnings.contains { $0.code == .duplicateKey && $0.field == "big.k3" })
        #expect(validate(#"{"aps":{"alert":"x"},"big":{"# + keys + "}}").warnings.isEmpty)
        // Arrays in arrays, and the path given back whole for the keys after them.
        let deep = validate(#"{"aps":{"alert":"x"},"m":[[1,{"c":1,"c":2}],{"e":[{"f":1,"f":2}]}],"n":{"d":1,"d":2},"n2":{"d":1}}"#)
        #expect(deep.warnings.filter { $0.code == .duplicateKey }.compactMap(\.field) == ["m[0][1].c", "m[1].e[0].f", "n.d"])
    }

    @Test("the push type is inferred when absent")
    func inferredPushType() {
        #expect(validate(#"{"aps":{"content-available":1}}"#).validated?.pushType == .background)
        #expect(validate(#"{"aps":{"alert":"x"}}"#).validated?.pushType == .alert)
    }
}
