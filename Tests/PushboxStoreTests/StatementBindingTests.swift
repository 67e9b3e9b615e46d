import Testing

@testable import PushboxStore

@Suite("SQLite statements: values bound by their length, parameters past them null")
struct StatementBindingTests {
    @Test("text is bound and read back whole: empty, ASCII, non-ASCII, a NUL inside, a long string; SQLite holds every byte")
    func textRoundTrips() throws {
        let db = try SQLiteConnection(path: ":memory:")
        try db.execute("CREATE TABLE t (v TEXT)")
        let insert = try db.prepare("INSERT INTO t (v) VALUES (?)")
        let select = try db.prepare("SELECT v, length(CAST(v AS BLOB)), typeof(v) FROM t WHERE rowid = ?")
        for text in ["", "a", "héllo 😀", "before\u{0}after", String(repeating: "x", count: 10_000), "small"] {
            try insert.run([.text(text)])
            let row = try select.rows([.int(db.lastInsertID)]) { ($0.text(0), $0.int(1), $0.text(2)) }
            #expect(row.count == 1)
            #expect(row.first?.0 == text)
            #expect(row.first?.1 == Int64(text.utf8.count))
            #expect(row.first?.2 == "text")
        }
    }

    @Test("a statement bound again with fewer values gets null for the rest, not the last values")
    func fewerValuesAreNull() throws {
        let db = try SQLiteConnection(path: ":memory:")
        try db.execute("CREATE TABLE t (a TEXT, b TEXT)")
        let insert = try db.prepare("INSERT INTO t (a, b) VALUES (?, ?)")
        try insert.run([.text("one"), .text("two")])
        try insert.run([.text("three")])
        let rows = try db.prepare("SELECT a, b FROM t ORDER BY rowid").rows { ($0.text(0), $0.isNull(1)) }
        #expect(rows.map(\.0) == ["one", "three"])
        #expect(rows.map(\.1) == [false, true])
    }
}
