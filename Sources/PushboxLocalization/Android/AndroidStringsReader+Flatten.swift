import PushboxJSON

/// A string element's content flattened as AAPT2's `FlattenXmlSubtree` does: text runs, spans,
/// untranslatable sections, references.
extension AndroidStringsReader {
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
        // Nearly every string is one run of text: no spans, no sections, trimmed at both ends.
        if nodes.count <= 1 {
            var t = ""
            if case .text(let only)? = nodes.first { t = only } else if !nodes.isEmpty { return flattenTree(nodes) }
            if let reference = reference(t) { return .success((reference, false, [])) }
            var builder = AAPTStringBuilder()
            builder.append(t.trimmingAAPTWhitespace())
            if let why = builder.error { return .failure(StringFailure(why)) }
            return .success((.text(builder.text), false, []))
        }
        return flattenTree(nodes)
    }

    /// `flattenWithSections` for content with elements or several text events.
    static func flattenTree(_ nodes: [Node]) -> Result<(AndroidString.Value, Bool, [Range<Int>]), StringFailure> {
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
                segments[first] = .text(t.trimmingAAPTWhitespace(leading: true, trailing: false))
            }
            if let last = segments.lastIndex(where: \.isText), case .text(let t) = segments[last] {
                segments[last] = .text(t.trimmingAAPTWhitespace(leading: false, trailing: true))
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
            case .untranslatableStart: sectionStart = builder.utf8Count
            case .untranslatableEnd:
                if let start = sectionStart { sections.append(start..<builder.utf8Count) }
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
        // Nearly every value is text: decided from its first byte.
        guard raw.firstNonAAPTWhitespace == UInt8(ascii: "@") else { return nil }
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
