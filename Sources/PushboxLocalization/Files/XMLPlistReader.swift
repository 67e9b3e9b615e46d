import Foundation
import FoundationXML

/// Reads an XML property list (`.stringsdict`, XML `.strings`) into a `PlistValue`.
/// FoundationXML (libxml2) does the XML; this builds the plist from its events and names the
/// line and column of anything that is not a valid plist.
enum XMLPlistReader {
    static func read(_ data: [UInt8], file: String) throws(LocalizationFileError) -> PlistValue {
        let builder = Builder(file: file)
        let parser = XMLParser(data: Data(data))
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        let ok = parser.parse()
        if let failure = builder.failure { throw failure }
        guard ok else {
            throw LocalizationFileError(
                file: file, line: max(parser.lineNumber, 1), column: max(parser.columnNumber, 1),
                message: "not well-formed XML: \(parser.parserError.map { "\($0.localizedDescription)" } ?? "parse error")")
        }
        guard let root = builder.root else {
            throw LocalizationFileError(file: file, line: 1, column: 1, message: "the plist holds no value")
        }
        return root
    }

    /// Builds values from XML events: a stack of open containers and the text of the current leaf.
    private final class Builder: NSObject, XMLParserDelegate {
        enum Frame {
            case array([PlistValue])
            case dict([String: PlistValue], pendingKey: String?)
        }

        let file: String
        var stack: [Frame] = []
        var text = ""
        var root: PlistValue?
        var failure: LocalizationFileError?

        init(file: String) { self.file = file }

        func fail(_ parser: XMLParser, _ message: String) {
            if failure == nil {
                failure = LocalizationFileError(file: file, line: parser.lineNumber, column: parser.columnNumber, message: message)
            }
            parser.abortParsing()
        }

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]
        ) {
            text = ""
            switch name {
            case "plist": break
            case "array": stack.append(.array([]))
            case "dict": stack.append(.dict([:], pendingKey: nil))
            case "key", "string", "integer", "real", "true", "false", "date", "data": break
            default: fail(parser, "unknown plist element <\(name)>")
            }
            if stack.count > 64 { fail(parser, "nested more than 64 levels") }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            switch name {
            case "plist": return
            case "key":
                guard case .dict(let d, nil)? = stack.last else { return fail(parser, "<key> outside a dictionary, or two keys in a row") }
                stack[stack.count - 1] = .dict(d, pendingKey: text)
                return
            case "array":
                guard case .array(let a)? = stack.popLast() else { return fail(parser, "mismatched </array>") }
                add(.array(a), parser)
            case "dict":
                guard case .dict(let d, let pending)? = stack.popLast() else { return fail(parser, "mismatched </dict>") }
                if let pending { return fail(parser, "key \"\(pending)\" has no value") }
                add(.dict(d), parser)
            case "string": add(.string(text), parser)
            case "integer":
                guard let i = Int64(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                    return fail(parser, "\"\(text)\" is not an integer")
                }
                add(.integer(i), parser)
            case "real":
                guard let r = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                    return fail(parser, "\"\(text)\" is not a real number")
                }
                add(.real(r), parser)
            case "true": add(.bool(true), parser)
            case "false": add(.bool(false), parser)
            case "date": add(.date(ISO8601DateFormatter().date(from: text)?.timeIntervalSinceReferenceDate ?? 0), parser)
            case "data":
                let cleaned = text.filter { !$0.isWhitespace }
                add(.data(Data(base64Encoded: cleaned).map(Array.init) ?? []), parser)
            default: break
            }
            text = ""
        }

        func add(_ value: PlistValue, _ parser: XMLParser) {
            switch stack.last {
            case nil:
                if root != nil { return fail(parser, "more than one top-level value") }
                root = value
            case .array(var a)?:
                a.append(value)
                stack[stack.count - 1] = .array(a)
            case .dict(var d, let pending)?:
                guard let key = pending else { return fail(parser, "a \(value.typeName) in a dictionary without a <key>") }
                d[key] = value
                stack[stack.count - 1] = .dict(d, pendingKey: nil)
            }
        }
    }
}
