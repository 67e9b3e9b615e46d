/// Reads an XML property list (`.stringsdict`, XML `.strings`) as CoreFoundation's own parser
/// reads it (`CFPropertyList.c`, the one a device and Xcode's copy step use), not as a strict
/// XML parser would: the bytes of a string are taken as they are (raw control characters,
/// CR LF kept), only the five named entities and numeric references are known, text after the
/// first top-level element is ignored, an inline DTD or text between elements is refused.
/// What CoreFoundation accepts and XML 1.0 does not is kept as a `FileNote`, for `lint`.
struct XMLPlistParser {
    let bytes: [UInt8]
    var index = 0
    let file: String
    private(set) var notes: [FileNote] = []
    private var controlCharacters: (count: Int, firstLine: Int) = (0, 0)

    /// iOS's nesting limit (`_CFPropertyListMaxRecursionDepth`, 128 on iOS).
    static let maxDepth = 128

    init(utf8 bytes: [UInt8], file: String) {
        self.bytes = bytes
        self.file = file
    }

    typealias Failure = LocalizationFileError

    /// The first top-level value (`parseXMLPropertyList`).
    mutating func parse() throws(Failure) -> PlistValue {
        index = 0
        while index < bytes.count {
            skipWhitespace()
            guard index + 1 < bytes.count else { throw error("no XML content found") }
            guard bytes[index] == UInt8(ascii: "<") else { throw error("unexpected \(describe()), expected '<'") }
            let open = index
            index += 1
            switch bytes[index] {
            case UInt8(ascii: "!"):
                index += 1
                if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "-"), bytes[index + 1] == UInt8(ascii: "-") {
                    index += 3  // CoreFoundation skips one character more here than inside elements.
                    try skipComment(openedAt: open)
                } else {
                    try skipDTD()
                }
            case UInt8(ascii: "?"):
                if open != 0, bytes[open...].starts(with: "<?xml".utf8) {
                    note(.misplacedXMLDeclaration, at: open, "the XML declaration is not at the start of the file")
                }
                index += 1
                try skipProcessingInstruction()
            default:
                guard case .value(let value, _) = try parseElement(depth: 0) else { throw error("unexpected end of file") }
                noteContentAfterRoot()
                finishNotes()
                return value
            }
        }
        throw error("unexpected end of file")
    }

    /// What `getContentObject` finds: a value (and whether it was a `<key>`), or nothing — a
    /// closing tag (left unread) or the end of the file.
    enum Content {
        case value(PlistValue, isKey: Bool)
        case none
    }

    /// The next element, skipping comments and processing instructions.
    mutating func content(depth: Int) throws(Failure) -> Content {
        guard depth <= Self.maxDepth else { throw error("nested more than \(Self.maxDepth) levels") }
        while index < bytes.count {
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of file") }
            guard bytes[index] == UInt8(ascii: "<") else { throw error("unexpected \(describe()) while looking for an element") }
            let open = index
            index += 1
            guard index < bytes.count else { throw error("unexpected end of file") }
            switch bytes[index] {
            case UInt8(ascii: "?"): try skipProcessingInstruction()
            case UInt8(ascii: "!"):
                guard index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "-"), bytes[index + 2] == UInt8(ascii: "-") else {
                    throw error("'<!' that does not open a comment")
                }
                index += 3
                try skipComment(openedAt: open)
            case UInt8(ascii: "/"):
                index -= 1
                return .none
            default: return try parseElement(depth: depth)
            }
        }
        return .none
    }

    /// One element from its name (`parseXMLElement`): attributes are skipped unread.
    private mutating func parseElement(depth: Int) throws(Failure) -> Content {
        let marker = index
        var nameEnd: Int?
        while index < bytes.count {
            let c = bytes[index]
            if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D {
                if nameEnd == nil { nameEnd = index }
            } else if c == UInt8(ascii: ">") {
                break
            }
            index += 1
        }
        guard index < bytes.count else { return .none }
        let isEmpty = bytes[index - 1] == UInt8(ascii: "/")
        let name = Array(bytes[marker..<(nameEnd ?? (index - (isEmpty ? 1 : 0)))])
        index += 1
        guard !name.isEmpty else {
            index = marker
            throw error("malformed tag")
        }
        let tag = String(decoding: name, as: UTF8.self)
        switch tag {
        case "plist":
            guard !isEmpty else { throw error("empty <plist/>") }
            guard case .value(let value, _) = try content(depth: depth) else { throw error("<plist> holds no value") }
            let save = index
            if case .value = try content(depth: depth) {
                index = save
                throw error("a second value in <plist> (a plist holds one)")
            }
            try closeTag("plist")
            return .value(value, isKey: false)
        case "array":
            return .value(isEmpty ? .array([]) : try parseArray(depth: depth + 1), isKey: false)
        case "dict":
            return .value(isEmpty ? .dict([:]) : try parseDict(depth: depth + 1), isKey: false)
        case "key", "string":
            guard !isEmpty else { return .value(.string(""), isKey: tag == "key") }
            let text = try parseText()
            try closeTag(tag)
            return .value(.string(text), isKey: tag == "key")
        case "true", "false":
            if !isEmpty { try closeTag(tag) }
            return .value(.bool(tag == "true"), isKey: false)
        case "integer", "real", "date", "data":
            guard !isEmpty else { throw error("empty <\(tag)/>") }
            return .value(try parseScalar(tag), isKey: false)
        default:
            index = marker
            throw error("unknown plist element <\(tag)>")
        }
    }

    private mutating func parseArray(depth: Int) throws(Failure) -> PlistValue {
        var array: [PlistValue] = []
        while case .value(let v, _) = try content(depth: depth) { array.append(v) }
        try closeTag("array")
        return .array(array)
    }

    private mutating func parseDict(depth: Int) throws(Failure) -> PlistValue {
        var dict: [String: PlistValue] = [:]
        while case .value(let key, let isKey) = try content(depth: depth) {
            guard isKey, case .string(let name) = key else { throw error("a \(key.typeName) in <dict> where a <key> belongs") }
            let at = index
            guard case .value(let value, let valueIsKey) = try content(depth: depth) else { throw error("key \"\(name)\" has no value") }
            if valueIsKey { note(.keyAsValue, at: at, "the value of \"\(name)\" is a <key>, read as a string") }
            if depth == 1, dict[name] != nil { note(.duplicateKey, at: at, "duplicate key \"\(name)\"; the last one wins") }
            dict[name] = value
        }
        try closeTag("dict")
        return .dict(dict)
    }

    /// `</tag>`, with whitespace allowed before the `>` (`checkForCloseTag`).
    mutating func closeTag(_ tag: String) throws(Failure) {
        let name = tag.utf8
        guard bytes.count - index >= name.count + 3 else { throw error("unexpected end of file, expected </\(tag)>") }
        guard bytes[index] == UInt8(ascii: "<"), bytes[index + 1] == UInt8(ascii: "/") else {
            throw error("unexpected \(describe()), expected </\(tag)>")
        }
        index += 2
        guard bytes[index...].starts(with: name) else { throw error("the closing tag does not match <\(tag)>") }
        index += name.count
        skipWhitespace()
        guard index < bytes.count else { throw error("unexpected end of file, expected </\(tag)>") }
        guard bytes[index] == UInt8(ascii: ">") else { throw error("unexpected \(describe()) in </\(tag)>") }
        index += 1
    }

    /// Space, tab, LF and CR: the only whitespace CoreFoundation's XML parser knows.
    mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    /// From just past `<!--`; a `--` inside, which XML forbids, is noted.
    private mutating func skipComment(openedAt open: Int) throws(Failure) {
        var p = index
        while p < bytes.count - 3 {
            if bytes[p] == UInt8(ascii: "-"), bytes[p + 1] == UInt8(ascii: "-"), bytes[p + 2] == UInt8(ascii: ">") {
                let body = bytes[min(open + 4, p)..<p]
                if body.indices.contains(where: { $0 + 1 < p && bytes[$0] == UInt8(ascii: "-") && bytes[$0 + 1] == UInt8(ascii: "-") })
                    || body.last == UInt8(ascii: "-")
                {
                    note(.commentDoubleHyphen, at: open, "a comment holds \"--\", which XML forbids")
                }
                index = p + 3
                return
            }
            p += 1
        }
        throw error("unterminated comment")
    }

    /// From inside `<?`, to just past `?>`.
    private mutating func skipProcessingInstruction() throws(Failure) {
        let begin = index
        while index < bytes.count - 2 {
            if bytes[index] == UInt8(ascii: "?"), bytes[index + 1] == UInt8(ascii: ">") {
                index += 2
                return
            }
            index += 1
        }
        index = begin
        throw error("unterminated processing instruction")
    }

    /// From just past `<!`: a `DOCTYPE` without an inline subset.
    private mutating func skipDTD() throws(Failure) {
        guard bytes[index...].starts(with: "DOCTYPE".utf8) else { throw error("malformed <!DOCTYPE>") }
        index += 7
        skipWhitespace()
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: ">") {
                index += 1
                return
            }
            if bytes[index] == UInt8(ascii: "[") { throw error("an inline DTD, which CoreFoundation does not read") }
            index += 1
        }
        throw error("unexpected end of file in <!DOCTYPE>")
    }

    /// Anything but whitespace, comments and processing instructions after the top-level
    /// element: CoreFoundation stops reading there, XML refuses the file.
    private mutating func noteContentAfterRoot() {
        var i = index
        while i < bytes.count {
            if [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) {
                i += 1
            } else if bytes[i...].starts(with: "<!--".utf8), let end = find("-->".utf8, from: i + 4) {
                i = end + 3
            } else if bytes[i...].starts(with: "<?".utf8), let end = find("?>".utf8, from: i + 2) {
                i = end + 2
            } else {
                return note(.contentAfterPlist, at: i, "text after the top-level element, ignored")
            }
        }
    }

    private func find(_ needle: String.UTF8View, from start: Int) -> Int? {
        var i = start
        while i + needle.count <= bytes.count {
            if bytes[i...].starts(with: needle) { return i }
            i += 1
        }
        return nil
    }

    /// Counts a control character XML 1.0 forbids (all of C0 but tab, LF and CR).
    mutating func sawControlCharacter(at i: Int) {
        if controlCharacters.count == 0 { controlCharacters.firstLine = TextPosition.of(i, in: bytes).line }
        controlCharacters.count += 1
    }

    private mutating func finishNotes() {
        guard controlCharacters.count > 0 else { return }
        notes.append(
            FileNote(
                .controlCharacter, file: file, line: controlCharacters.firstLine,
                message: "\(controlCharacters.count) control character(s) XML forbids, read as CoreFoundation reads them"))
    }

    mutating func note(_ kind: FileNote.Kind, at i: Int, _ message: String) {
        notes.append(FileNote(kind, file: file, line: TextPosition.of(i, in: bytes).line, message: message))
    }

    func describe() -> String {
        guard index < bytes.count else { return "end of file" }
        let b = bytes[index]
        if b >= 0x21 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
        return "byte 0x\(String(b, radix: 16, uppercase: true))"
    }

    func error(_ message: String) -> Failure {
        let (line, column) = TextPosition.of(index, in: bytes)
        return LocalizationFileError(file: file, line: line, column: column, message: message)
    }
}
