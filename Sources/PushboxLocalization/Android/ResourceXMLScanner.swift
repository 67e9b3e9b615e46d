import PushboxJSON

/// The XML of an Android resource file as a stream of events, read as expat (which AAPT2 uses)
/// reads it: elements with their attributes and namespaces resolved, text with entities and
/// character references decoded, CDATA as text, comments; anything malformed is an error at its
/// line and column.
struct ResourceXMLScanner {
    /// One event and the byte offset where it starts.
    enum Event: Equatable {
        /// `<name …>`: its namespace URI ("" for none), local name, attributes (local name,
        /// value; namespaced attributes keep their prefix), and whether it closes itself.
        case start(namespace: String, name: String, attributes: [(name: String, value: String)], selfClosing: Bool)
        case end(name: String)
        /// Character data: text between tags, or a CDATA section.
        case text(String)
        case comment(String)

        static func == (a: Event, b: Event) -> Bool {
            switch (a, b) {
            case (.start(let n1, let a1, let at1, let s1), .start(let n2, let a2, let at2, let s2)):
                n1 == n2 && a1 == a2 && s1 == s2 && at1.map(\.name) == at2.map(\.name) && at1.map(\.value) == at2.map(\.value)
            case (.end(let x), .end(let y)): x == y
            case (.text(let x), .text(let y)), (.comment(let x), .comment(let y)): x == y
            default: false
            }
        }
    }

    /// Malformed XML: what and where (a byte offset).
    struct Failure: Error {
        var offset: Int
        var message: String
    }

    let bytes: [UInt8]
    private(set) var i = 0
    /// Open elements' qualified names, and the namespace prefixes each declared.
    private var open: [(name: String, prefixes: [String: String])] = []
    private var sawRoot = false

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        // A UTF-8 byte-order mark is not content.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
    }

    /// The depth of open elements.
    var depth: Int { open.count }

    /// The next event and where it starts, or nil at the end of a well-formed document.
    mutating func next() throws(Failure) -> (Event, Int)? {
        while i < bytes.count {
            let start = i
            if bytes[i] != UInt8(ascii: "<") {
                let text = try readText()
                if open.isEmpty {
                    guard text.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }) else {
                        throw Failure(offset: start, message: sawRoot ? "junk after document element" : "syntax error")
                    }
                    continue
                }
                return (.text(text), start)
            }
            // Markup other than a start tag begins `<!`, `<?` or `</`.
            let second = i + 1 < bytes.count ? bytes[i + 1] : 0
            let markup = second == UInt8(ascii: "!") || second == UInt8(ascii: "?") || second == UInt8(ascii: "/")
            if !markup { return (try readStart(start), start) }
            if matches(Self.commentOpen) {
                let end = try find("-->", from: i + 4, what: "unclosed comment")
                let body = String(decoding: bytes[(i + 4)..<end], as: UTF8.self)
                i = end + 3
                return (.comment(body), start)
            }
            if matches(Self.cdataOpen) {
                guard !open.isEmpty else { throw Failure(offset: start, message: "syntax error") }
                let end = try find("]]>", from: i + 9, what: "unclosed CDATA section")
                let body = String(decoding: bytes[(i + 9)..<end], as: UTF8.self)
                i = end + 3
                return (.text(body), start)
            }
            if second == UInt8(ascii: "?") {
                i = try find("?>", from: i + 2, what: "unclosed processing instruction") + 2
                continue
            }
            if matches(Self.doctypeOpen) {
                i = try find(">", from: i, what: "unclosed DOCTYPE") + 1
                continue
            }
            if second == UInt8(ascii: "/") {
                i += 2
                let name = try readName()
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: ">") else { throw Failure(offset: i, message: "not well-formed (invalid token)") }
                i += 1
                guard let top = open.last, top.name == name else { throw Failure(offset: start, message: "mismatched tag") }
                open.removeLast()
                return (.end(name: localName(name)), start)
            }
            return (try readStart(start), start)
        }
        if !open.isEmpty { throw Failure(offset: bytes.count, message: "unclosed token") }
        if !sawRoot { throw Failure(offset: bytes.count, message: "no element found") }
        return nil
    }

    private mutating func readStart(_ start: Int) throws(Failure) -> Event {
        if open.isEmpty && sawRoot { throw Failure(offset: start, message: "junk after document element") }
        i += 1
        let name = try readName()
        var raw: [(String, String)] = []
        var selfClosing = false
        while true {
            let hadSpace = skipSpace()
            guard i < bytes.count else { throw Failure(offset: i, message: "unclosed token") }
            if bytes[i] == UInt8(ascii: ">") {
                i += 1
                break
            }
            if bytes[i] == UInt8(ascii: "/"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: ">") {
                i += 2
                selfClosing = true
                break
            }
            guard hadSpace else { throw Failure(offset: i, message: "not well-formed (invalid token)") }
            let attribute = try readName()
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "=") else { throw Failure(offset: i, message: "not well-formed (invalid token)") }
            i += 1
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") else {
                throw Failure(offset: i, message: "not well-formed (invalid token)")
            }
            let quote = bytes[i]
            i += 1
            let value = try readUntil(quote)
            i += 1
            if raw.contains(where: { $0.0 == attribute }) { throw Failure(offset: start, message: "duplicate attribute") }
            raw.append((attribute, value))
        }
        var prefixes: [String: String] = [:]
        for (n, v) in raw where n.hasPrefix("xmlns:") { prefixes[String(n.dropFirst(6))] = v }
        if let d = raw.first(where: { $0.0 == "xmlns" }) { prefixes[""] = d.1 }
        open.append((name, prefixes))
        sawRoot = true
        let namespace: String
        if let colon = name.utf8.firstIndex(of: UInt8(ascii: ":")) {
            let prefix = String(name[..<colon])
            guard let uri = resolve(prefix) else { throw Failure(offset: start, message: "unbound prefix") }
            namespace = uri
        } else {
            namespace = resolve("") ?? ""
        }
        let attributes = raw.filter { !$0.0.hasPrefix("xmlns") }.map { (name: $0.0, value: $0.1) }
        if selfClosing { open.removeLast() }
        return .start(namespace: namespace, name: localName(name), attributes: attributes, selfClosing: selfClosing)
    }

    private func resolve(_ prefix: String) -> String? {
        if prefix == "xml" { return "http://www.w3.org/XML/1998/namespace" }
        for scope in open.reversed() where !scope.prefixes.isEmpty { if let uri = scope.prefixes[prefix] { return uri } }
        return prefix.isEmpty ? "" : nil
    }

    private func localName(_ name: String) -> String {
        name.utf8.firstIndex(of: UInt8(ascii: ":")).map { String(name[name.utf8.index(after: $0)...]) } ?? name
    }

    static let commentOpen = Array("<!--".utf8)
    static let cdataOpen = Array("<![CDATA[".utf8)
    static let doctypeOpen = Array("<!DOCTYPE".utf8)
    static let cdataClose = Array("]]>".utf8)

    private func matches(_ u: [UInt8]) -> Bool {
        i + u.count <= bytes.count && bytes[i..<(i + u.count)].elementsEqual(u)
    }

    private func find(_ s: String, from: Int, what: String) throws(Failure) -> Int {
        let u = Array(s.utf8)
        var j = from
        while j + u.count <= bytes.count {
            if bytes[j] == u[0] && bytes[j..<(j + u.count)].elementsEqual(u) { return j }
            j += 1
        }
        throw Failure(offset: i, message: what)
    }

    @discardableResult
    private mutating func skipSpace() -> Bool {
        let start = i
        while i < bytes.count {
            let b = bytes[i]
            guard b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D else { break }
            i += 1
        }
        return i > start
    }

    private mutating func readName() throws(Failure) -> String {
        let start = i
        while i < bytes.count {
            let b = bytes[i]
            let ok =
                (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || b == UInt8(ascii: "_") || b == UInt8(ascii: ":") || b >= 0x80
                || (i > start && ((b >= 0x30 && b <= 0x39) || b == UInt8(ascii: "-") || b == UInt8(ascii: ".")))
            guard ok else { break }
            i += 1
        }
        guard i > start else { throw Failure(offset: start, message: "not well-formed (invalid token)") }
        return String(decoding: bytes[start..<i], as: UTF8.self)
    }

    /// Text up to the next `<`, entities decoded.
    private mutating func readText() throws(Failure) -> String {
        var out: [UInt8] = []
        while i < bytes.count, bytes[i] != UInt8(ascii: "<") {
            // A run of bytes that need nothing done, copied at once.
            let run = i
            while i < bytes.count {
                let b = bytes[i]
                guard b >= 0x20 || b == 0x09 || b == 0x0A, b != UInt8(ascii: "<"), b != UInt8(ascii: "&"), b != UInt8(ascii: "]") else { break }
                i += 1
            }
            if i > run {
                out.append(contentsOf: bytes[run..<i])
                continue
            }
            if bytes[i] == UInt8(ascii: "&") {
                out += try readReference()
            } else if bytes[i] == UInt8(ascii: "]") && matches(Self.cdataClose) {
                throw Failure(offset: i, message: "not well-formed (invalid token)")
            } else if bytes[i] == 0x0D {
                // XML's end of line: CR LF and a lone CR are read as LF.
                out.append(0x0A)
                i += i + 1 < bytes.count && bytes[i + 1] == 0x0A ? 2 : 1
            } else {
                try checkCharacter()
                out.append(bytes[i])
                i += 1
            }
        }
        return try utf8(out, at: i)
    }

    /// An attribute value up to its closing quote, entities decoded and whitespace normalized.
    private mutating func readUntil(_ quote: UInt8) throws(Failure) -> String {
        var out: [UInt8] = []
        while i < bytes.count, bytes[i] != quote {
            switch bytes[i] {
            case UInt8(ascii: "<"): throw Failure(offset: i, message: "not well-formed (invalid token)")
            case UInt8(ascii: "&"): out += try readReference()
            case 0x09, 0x0A, 0x0D:
                out.append(0x20)
                i += bytes[i] == 0x0D && i + 1 < bytes.count && bytes[i + 1] == 0x0A ? 2 : 1
            default:
                try checkCharacter()
                out.append(bytes[i])
                i += 1
            }
        }
        guard i < bytes.count else { throw Failure(offset: i, message: "unclosed token") }
        return try utf8(out, at: i)
    }

    private func checkCharacter() throws(Failure) {
        let b = bytes[i]
        if b < 0x20 && b != 0x09 && b != 0x0A && b != 0x0D { throw Failure(offset: i, message: "not well-formed (invalid token)") }
    }

    private func utf8(_ out: [UInt8], at offset: Int) throws(Failure) -> String {
        guard let s = String(validating: out, as: UTF8.self) else { throw Failure(offset: offset, message: "not well-formed (invalid token)") }
        return s
    }

    /// `&name;`, `&#N;` or `&#xH;` at `i`, as UTF-8.
    private mutating func readReference() throws(Failure) -> [UInt8] {
        let start = i
        guard let semicolon = bytes[i...].prefix(16).firstIndex(of: UInt8(ascii: ";")) else {
            throw Failure(offset: start, message: "not well-formed (invalid token)")
        }
        let body = String(decoding: bytes[(i + 1)..<semicolon], as: UTF8.self)
        i = semicolon + 1
        switch body {
        case "lt": return [UInt8(ascii: "<")]
        case "gt": return [UInt8(ascii: ">")]
        case "amp": return [UInt8(ascii: "&")]
        case "quot": return [UInt8(ascii: "\"")]
        case "apos": return [UInt8(ascii: "'")]
        default:
            var value: UInt32?
            if body.hasPrefix("#x") {
                value = UInt32(body.dropFirst(2), radix: 16)
            } else if body.hasPrefix("#") {
                value = UInt32(body.dropFirst(), radix: 10)
            }
            guard let v = value else {
                throw Failure(offset: start, message: body.hasPrefix("#") ? "reference to invalid character number" : "undefined entity")
            }
            guard let scalar = Unicode.Scalar(v), v == 0x09 || v == 0x0A || v == 0x0D || v >= 0x20, v != 0xFFFE, v != 0xFFFF else {
                throw Failure(offset: start, message: "reference to invalid character number")
            }
            return Array(String(Character(scalar)).utf8)
        }
    }
}
