import PushboxText

/// One `<string>` (or plurals item, array item) as AAPT2 stores it.
public struct AndroidString: Sendable, Equatable {
    /// What the resource holds.
    public enum Value: Sendable, Equatable {
        /// Text, after AAPT2's whitespace, quote and escape rules.
        case text(String)
        /// `@string/name` (or `@android:string/name`): another resource, resolved when read.
        case reference(type: String, name: String, package: String?)
        /// `@null`.
        case null
    }

    /// The resource's name.
    public var name: String
    /// Its value.
    public var value: Value
    /// Whether it had style spans (`<b>`, `<i>`…): the text is kept, the spans are not shown.
    public var styled: Bool
    /// `translatable="false"`.
    public var translatable: Bool
    /// `formatted="false"` turns off the format check.
    public var formatted: Bool
    /// The line of its element.
    public var line: Int
    /// `<xliff:g>` sections of the text, as UTF-8 byte ranges: left as they are by translators
    /// and by the pseudo-locales.
    public var untranslatable: [Range<Int>] = []
    /// Its text, when it is text.
    public var text: String? {
        if case .text(let t) = value { return t }
        return nil
    }
}

/// What one `strings.xml` (any `values*/` resource file) defines, read as AAPT2 reads it.
public struct AndroidStringsFile: Sendable {
    /// The file's path.
    public var path: String
    /// `<string>` resources, in file order.
    public var strings: [AndroidString] = []
    /// `<plurals>`: name → quantity → text (unreachable from FCM loc keys, kept to say so).
    public var plurals: [String: [String: String]] = [:]
    /// `<string-array>` names (unreachable from FCM loc keys too).
    public var arrays: [String: [String]] = [:]
    /// What the build refuses: the file is then dropped whole, as a failed build ships nothing.
    public var errors: [LocalizationFileError] = []
    /// What AAPT2 warns of (several non-positional substitutions without `formatted="false"`).
    public var warnings: [LocalizationFileError] = []

    /// The string named `name`.
    public func string(_ name: String) -> AndroidString? { strings.last { $0.name == name } }
}

/// Reads `strings.xml` as AAPT2 does (`ResourceParser::FlattenXmlSubtree`, `StringBuilder::
/// AppendText`, aosp tools/aapt2): outside double quotes runs of whitespace collapse to one space
/// and an apostrophe must be escaped; `\n \t \' \" \\ \@ \? \# \uXXXX`; leading and trailing
/// whitespace trimmed unless the string has spans; spans and `<xliff:g>` keep their text; CDATA
/// is text; a value that is `@type/name` is a reference.
public enum AndroidStringsReader {
    static let xliffNamespace = "urn:oasis:names:tc:xliff:document:1.2"

    /// The file at `path`'s contents `bytes`.
    public static func read(_ bytes: [UInt8], path: String) -> AndroidStringsFile {
        var file = AndroidStringsFile(path: path)
        var scanner = ResourceXMLScanner(bytes)
        var lines = LineCounter()
        func error(_ offset: Int, _ message: String) -> LocalizationFileError {
            let (line, column) = TextPosition.of(offset, in: bytes)
            return LocalizationFileError(file: path, line: line, column: column, message: message)
        }
        do throws(ResourceXMLScanner.Failure) {
            // The root must be <resources>.
            var root: (Int, String)?
            while root == nil, let (event, at) = try scanner.next() {
                if case .start(let ns, let name, _, let selfClosing) = event {
                    guard ns.isEmpty, name == "resources" else {
                        file.errors.append(error(at, "root element must be <resources>"))
                        return file
                    }
                    if selfClosing { return file }
                    root = (at, name)
                }
            }
            while let (event, at) = try scanner.next() {
                switch event {
                case .end: break
                case .comment: continue
                case .text(let t):
                    if !t.allSatisfy(\.isASCIIWhitespaceForAAPT) { file.errors.append(error(at, "plain text not allowed here")) }
                case .start(let ns, let name, let attributes, let selfClosing):
                    guard ns.isEmpty else {
                        if !selfClosing { _ = try subtree(&scanner) }
                        continue
                    }
                    let line = lines.line(at: at, in: bytes)
                    func attribute(_ n: String) -> String? { attributes.last { $0.name == n }?.value }
                    let children = selfClosing ? [] : try subtree(&scanner)
                    let resourceName = attribute("name")
                    let type = name == "item" ? attribute("type") ?? "" : name
                    switch type {
                    case "string":
                        guard let resourceName, !resourceName.isEmpty else {
                            file.errors.append(error(at, "<\(name)> missing 'name' attribute"))
                            continue
                        }
                        guard let formatted = bool(attribute("formatted"), default: true),
                            let translatable = bool(attribute("translatable"), default: true)
                        else {
                            file.errors.append(error(at, "invalid value for 'formatted' or 'translatable'. Must be a boolean"))
                            continue
                        }
                        switch flattenWithSections(children) {
                        case .failure(let why): file.errors.append(error(at, why.message))
                        case .success(let (value, styled, sections)):
                            if file.strings.contains(where: { $0.name == resourceName }) {
                                file.errors.append(error(at, "duplicate value for resource 'string/\(resourceName)' with config ''"))
                                continue
                            }
                            let s = AndroidString(
                                name: resourceName, value: value, styled: styled, translatable: translatable, formatted: formatted, line: line,
                                untranslatable: sections)
                            if formatted, translatable, let text = s.text, !JavaFormat.verifiesNonPositional(text) {
                                file.warnings.append(
                                    error(
                                        at,
                                        "multiple substitutions specified in non-positional format of string/\(resourceName); did you mean to add the formatted=\"false\" attribute?"
                                    ))
                            }
                            file.strings.append(s)
                        }
                    case "plurals", "string-array":
                        guard let resourceName, !resourceName.isEmpty else {
                            file.errors.append(error(at, "<\(name)> missing 'name' attribute"))
                            continue
                        }
                        var items: [(String?, String)] = []
                        for child in children {
                            guard case .element(let ns, let tag, let attrs, let inner, let childAt) = child, ns.isEmpty, tag == "item" else {
                                if case .element(_, let tag, _, _, let childAt) = child {
                                    file.errors.append(error(childAt, "unknown tag <\(tag)>"))
                                }
                                continue
                            }
                            switch flatten(inner) {
                            case .failure(let why): file.errors.append(error(childAt, why.message))
                            case .success(let (value, _)):
                                if case .text(let t) = value { items.append((attrs.last { $0.name == "quantity" }?.value, t)) }
                            }
                        }
                        if type == "plurals" {
                            file.plurals[resourceName] = Dictionary(items.compactMap { q, t in q.map { ($0, t) } }, uniquingKeysWith: { _, b in b })
                        } else {
                            file.arrays[resourceName] = items.map(\.1)
                        }
                    default:
                        continue  // colours, dimensions, styles: not strings
                    }
                }
            }
            _ = root
        } catch {
            file.errors.append(LocalizationFileError.at(error.offset, in: bytes, file: path, "xml parser error: \(error.message)"))
        }
        if !file.errors.isEmpty {
            file.strings = []
            file.plurals = [:]
            file.arrays = [:]
        }
        return file
    }

    static func bool(_ text: String?, default value: Bool) -> Bool? {
        guard let text else { return value }
        switch text.lowercased() {
        case "true": return true
        case "false": return false
        default: return nil
        }
    }

    /// The XML inside an element, as a tree.
    indirect enum Node {
        case text(String)
        case element(namespace: String, name: String, attributes: [(name: String, value: String)], children: [Node], at: Int)
    }

    /// Reads up to the end of the element just started.
    static func subtree(_ scanner: inout ResourceXMLScanner) throws(ResourceXMLScanner.Failure) -> [Node] {
        var stack: [[Node]] = [[]]
        var heads: [(String, String, [(name: String, value: String)], Int)] = []
        while let (event, at) = try scanner.next() {
            switch event {
            case .text(let t): stack[stack.count - 1].append(.text(t))
            case .comment: continue
            case .start(let ns, let name, let attributes, let selfClosing):
                if selfClosing {
                    stack[stack.count - 1].append(.element(namespace: ns, name: name, attributes: attributes, children: [], at: at))
                } else {
                    heads.append((ns, name, attributes, at))
                    stack.append([])
                }
            case .end:
                guard let head = heads.popLast() else { return stack[0] }
                let children = stack.removeLast()
                stack[stack.count - 1].append(.element(namespace: head.0, name: head.1, attributes: head.2, children: children, at: head.3))
            }
        }
        return stack[0]
    }

    /// The value of an element's content, or why AAPT2 refuses it.
    static func flatten(_ nodes: [Node]) -> Result<(AndroidString.Value, Bool), StringFailure> {
        flattenWithSections(nodes).map { ($0.0, $0.1) }
    }

    /// The value, whether it had spans, and its untranslatable sections (UTF-8 byte ranges).
    static func flattenWithSections(_ nodes: [Node]) -> Result<(AndroidString.Value, Bool, [Range<Int>]), StringFailure> {
        // Segments: runs of text between tags; spans; untranslatable sections; ignored tags.
        var raw = ""
        var sawSpan = false
        var nestedXliff = false
        func scan(_ nodes: [Node], inXliff: Bool) {
            for node in nodes {
                switch node {
                case .text(let t): raw += t
                case .element(let ns, _, _, let children, _):
                    if ns.isEmpty { sawSpan = true }
                    if ns == xliffNamespace, inXliff { nestedXliff = true }
                    scan(children, inXliff: inXliff || ns == xliffNamespace)
                }
            }
        }
        scan(nodes, inXliff: false)
        if nestedXliff { return .failure(StringFailure("illegal nested XLIFF 'g' tag")) }
        if !sawSpan, let reference = reference(raw) { return .success((reference, false, [])) }
        // Segments in order, merging adjacent text (text events split by comments, entities, CDATA).
        var segments: [Segment] = []
        func collect(_ nodes: [Node]) {
            for node in nodes {
                switch node {
                case .text(let t):
                    if case .text(let previous)? = segments.last {
                        segments[segments.count - 1] = .text(previous + t)
                    } else {
                        segments.append(.text(t))
                    }
                case .element(let ns, let name, _, let children, _):
                    let xliff = ns == xliffNamespace && name == "g"
                    if ns.isEmpty { segments.append(.spanEdge) }
                    if xliff { segments.append(.untranslatableStart) }
                    collect(children)
                    if ns.isEmpty { segments.append(.spanEdge) }
                    if xliff { segments.append(.untranslatableEnd) }
                    // A tag of another namespace ends the text run too.
                    if !ns.isEmpty && !xliff { segments.append(.boundary) }
                }
            }
        }
        collect(nodes)
        if !sawSpan {
            if let first = segments.firstIndex(where: \.isText), case .text(let t) = segments[first] {
                segments[first] = .text(String(t.drop { $0.isASCIIWhitespaceForAAPT }))
            }
            if let last = segments.lastIndex(where: \.isText), case .text(let t) = segments[last] {
                segments[last] = .text(String(t.reversed().drop { $0.isASCIIWhitespaceForAAPT }.reversed()))
            }
        }
        var builder = AAPTStringBuilder()
        var sections: [Range<Int>] = []
        var sectionStart: Int?
        for segment in segments {
            switch segment {
            case .text(let t): builder.append(t)
            case .spanEdge: builder.resetState()
            case .boundary: break
            case .untranslatableStart: sectionStart = builder.text.utf8.count
            case .untranslatableEnd:
                if let start = sectionStart { sections.append(start..<builder.text.utf8.count) }
                sectionStart = nil
            }
            if let why = builder.error { return .failure(StringFailure(why)) }
        }
        return .success((.text(builder.text), sawSpan, sections))
    }

    enum Segment {
        case text(String)
        case spanEdge
        case boundary
        case untranslatableStart, untranslatableEnd
        var isText: Bool {
            if case .text = self { return true }
            return false
        }
    }

    struct StringFailure: Error {
        var message: String
        init(_ m: String) { message = m }
    }

    /// `@[+][package:]type/name`, `@null`, from a string's raw text (trimmed).
    static func reference(_ raw: String) -> AndroidString.Value? {
        let t = raw.trimmingAAPTWhitespace()
        guard t.hasPrefix("@") else { return nil }
        if t == "@null" { return .null }
        var body = t.dropFirst()
        if body.hasPrefix("+") { body = body.dropFirst() }
        guard let slash = body.firstIndex(of: "/") else { return nil }
        var type = body[..<slash]
        let name = body[body.index(after: slash)...]
        var package: String?
        if let colon = type.firstIndex(of: ":") {
            package = String(type[..<colon])
            type = type[type.index(after: colon)...]
        }
        guard !type.isEmpty, !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }) else { return nil }
        return .reference(type: String(type), name: String(name), package: package)
    }
}

/// AAPT2's `StringBuilder::AppendText` state machine.
struct AAPTStringBuilder {
    private(set) var text = ""
    private(set) var error: String?
    private var quote = false
    private var lastWasSpace = false

    mutating func resetState() {
        quote = false
        lastWasSpace = false
    }

    mutating func append(_ segment: String) {
        guard error == nil else { return }
        var it = segment.unicodeScalars.makeIterator()
        while let c = it.next() {
            if !quote, c.value < 128, Character(c).isASCIIWhitespaceForAAPT {
                if !lastWasSpace {
                    text.append(" ")
                    lastWasSpace = true
                }
                continue
            }
            lastWasSpace = false
            switch c {
            case "\\":
                guard let e = it.next() else { continue }
                switch e {
                case "t": text.append("\t")
                case "n": text.append("\n")
                case "#", "@", "?", "\"", "'", "\\": text.unicodeScalars.append(e)
                case "u":
                    var code: UInt32 = 0
                    for _ in 0..<4 {
                        guard let h = it.next() else { break }
                        guard h.isASCII, let digit = UInt32(String(h), radix: 16) else {
                            error = "invalid unicode escape sequence in string"
                            return
                        }
                        code = code << 4 | digit
                    }
                    guard let scalar = Unicode.Scalar(code) else {
                        error = "invalid unicode escape sequence in string"
                        return
                    }
                    text.unicodeScalars.append(scalar)
                default: text.unicodeScalars.append(e)
                }
            case "\"": quote.toggle()
            case "'" where !quote:
                error = "unescaped apostrophe in string"
                return
            default: text.unicodeScalars.append(c)
            }
        }
    }
}

extension Character {
    /// C's `isspace` for ASCII: space, tab, newline, vertical tab, form feed, carriage return.
    var isASCIIWhitespaceForAAPT: Bool {
        self == " " || self == "\t" || self == "\n" || self == "\u{0B}" || self == "\u{0C}" || self == "\r" || self == "\r\n"
    }
}

extension String {
    func trimmingAAPTWhitespace() -> String {
        String(drop { $0.isASCIIWhitespaceForAAPT }.reversed().drop { $0.isASCIIWhitespaceForAAPT }.reversed())
    }
}

extension LocalizationFileError {
    /// The error at byte `offset` of `bytes`.
    static func at(_ offset: Int, in bytes: [UInt8], file: String, _ message: String) -> LocalizationFileError {
        let (line, column) = TextPosition.of(offset, in: bytes)
        return LocalizationFileError(file: file, line: line, column: column, message: message)
    }
}
