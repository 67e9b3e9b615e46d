import PushboxJSON
import Testing

@Suite("Key lists: many keys of one object read in one pass")
struct KeyListTests {
    /// Keys that share their UTF-8 length (title, badge, sound, alert) or a long prefix, and keys
    /// beyond ASCII: told apart all the same.
    static let keys = KeyList([
        "title", "badge", "sound", "alert", "title-loc-key", "title-loc-args", "subtitle-loc-key", "subtitle-loc-args",
        "content-available", "content-state", "é", "clé", "x",
    ])

    @Test("each key is found at its own place, and only its own", arguments: keys.keys.indices)
    func ownPlace(index: Int) {
        #expect(Self.keys.index(of: Self.keys.keys[index]) == index)
    }

    @Test(
        "a key that is not in the list is not found, however alike it is",
        arguments: ["titl", "titles", "Title", "title-loc-kez", "content-availablf", "e\u{301}", "cle\u{301}", "", "title\u{0}"])
    func absent(key: String) {
        #expect(Self.keys.index(of: key) == nil)
        #expect(!Self.keys.contains(key))
    }

    @Test("find gives the value of each key, the last of a repeat, nil for a key the object lacks")
    func find() throws {
        let object = try #require(
            JSONParser.parse(
                Array(#"{"sound":"a","title":1,"custom":true,"sound":"b","content-state":{},"clé":null,"title-loc-args":["x"]}"#.utf8)
            ).objectValue)
        let found = Self.keys.find(in: object)
        for (i, key) in Self.keys.keys.enumerated() {
            #expect(found[i] == object[key], "\(key)")
        }
        #expect(found[2] == .string("b"))
        #expect(found[1] == nil)
        #expect(found[11] == .null)
    }
}
