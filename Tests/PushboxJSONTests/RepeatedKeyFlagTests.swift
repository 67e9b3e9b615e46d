import PushboxJSON
import Testing

/// The parser says whether a document may hold a key twice, so validation walks it for repeated
/// keys only then: a document it calls free of them must have none.
@Suite("The parser's word on repeated keys")
struct RepeatedKeyFlagTests {
    func mayRepeat(_ json: String) throws -> Bool {
        var flag = false
        _ = try JSONParser.parse(Array(json.utf8), mayRepeatKeys: &flag)
        return flag
    }

    @Test("a key met twice in one object, at any depth, spelled with escapes or not, is said")
    func repeated() throws {
        for json in [
            #"{"a":1,"a":2}"#, #"{"x":{"y":[{"c":1,"b":0,"c":2}]}}"#, #"{"aps":{"alert":"x","\u0061lert":"y"}}"#,
            #"[1,{"k":{},"k":[]}]"#, #"{"é":1,"\u00e9":2}"#,
        ] {
            #expect(try mayRepeat(json), "\(json)")
        }
    }

    @Test("distinct keys are not: the same key in sibling objects, keys alike in length, é and e + combining acute")
    func distinct() throws {
        for json in [
            #"{"a":1,"b":2}"#, #"[{"a":1},{"a":1}]"#, #"{"badge":1,"sound":"x","title":"t"}"#, #"{"é":1,"e\u0301":2}"#,
            #"{"a":{"a":{"a":1}}}"#, "{}", "[]", #""text""#,
        ] {
            #expect(try !mayRepeat(json), "\(json)")
        }
    }

    @Test("an object past the keys compared one by one may repeat them, so the full check runs")
    func large() throws {
        let keys = (0..<17).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        #expect(try mayRepeat("{" + keys + "}"))
        let sixteen = (0..<16).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        #expect(try !mayRepeat("{" + sixteen + "}"))
    }
}
