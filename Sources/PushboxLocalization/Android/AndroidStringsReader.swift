import PushboxJSON

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
        // Names defined so far: a duplicate is found by a lookup, not a scan of every string.
        var names: Set<String> = []
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
                    if !t.utf8.allSatisfy(\.isAAPTWhitespace) { file.errors.append(error(at, "plain text not allowed here")) }
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
                            if !names.insert(resourceName).inserted {
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

}
