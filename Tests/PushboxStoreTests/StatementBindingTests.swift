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

    @Test("a row's texts and blobs, bound from the statement's buffer, read back whole as it grows and shrinks; an empty blob is not NULL")
    func manyValuesOneBuffer() throws {
        let db = try SQLiteConnection(path: ":memory:")
        try db.execute("CREATE TABLE t (a TEXT, b BLOB, c TEXT, d INTEGER, e BLOB)")
        let insert = try db.prepare("INSERT INTO t (a, b, c, d, e) VALUES (?, ?, ?, ?, ?)")
        let rows: [(String, [UInt8], String)] = (0..<6).map { i in
            let n = [1, 5_000, 3, 70_000, 0, 200][i]
            return (String(repeating: "é", count: n), (0..<n).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ i) }, "row \(i) \(n)")
        }
        for (i, row) in rows.enumerated() { try insert.run([.text(row.0), .blob(row.1), .text(row.2), .int(Int64(i)), .blob([])]) }
        let read = try db.prepare("SELECT a, b, c, typeof(e) FROM t ORDER BY d").rows { ($0.text(0), $0.blob(1), $0.text(2), $0.text(3)) }
        #expect(read.map(\.0) == rows.map(\.0))
        #expect(read.map(\.1) == rows.map(\.1))
        #expect(read.map(\.2) == rows.map(\.2))
        #expect(read.map(\.3) == Array(repeating: "blob", count: rows.count))
        // A text bound for a lookup is read while the statement steps.
        let lookup = try db.prepare("SELECT d FROM t WHERE c = ?")
        #expect(try lookup.rows([.text("row 3 70000")]) { $0.int(0) } == [3])
        #expect(try lookup.rows([.text("row 1 5000")]) { $0.int(0) } == [1])
    }
}
