/// Reads `.strings` (text, XML or binary plist, any encoding) and `.stringsdict` files into
/// table entries. A file that cannot be read is refused whole with file:line:column.
public enum StringsFileReader {
    /// The top-level dictionary of a property-list file in any of its three forms.
    static func readPlist(_ bytes: [UInt8], file: String) throws(LocalizationFileError) -> (
        dict: [String: PlistValue], lines: [String: Int], notes: [FileNote]
    ) {
        if bytes.starts(with: "bplist".utf8) {
            guard case .dict(let d) = try BinaryPlistReader.read(bytes, file: file) else {
                throw LocalizationFileError(file: file, line: 1, column: 1, message: "the binary plist is not a dictionary")
            }
            return (d, [:], [])
        }
        let decoded: TextDecoding.Decoded
        do {
            decoded = try TextDecoding.decode(bytes)
        } catch {
            switch error {
            case .invalidUTF32(let offset):
                throw LocalizationFileError(
                    file: file, line: 1, column: 1, message: "UTF-32 text holding a value that is no Unicode character (byte \(offset))")
            case .declaredEncoding(let name):
                throw LocalizationFileError(
                    file: file, line: 1, column: 1,
                    message:
                        "the XML declaration names the encoding \"\(name)\": pushbox reads UTF-8 and ISO-8859-1 (CoreFoundation refuses a name it does not know)"
                )
            case .unfinishedDeclaration:
                throw LocalizationFileError(file: file, line: 1, column: 1, message: "the file ends inside its XML declaration")
            }
        }
        var notes = decodingNotes(decoded, file: file)
        let text = decoded.utf8
        if text.starts(with: [0xEF, 0xBB, 0xBF]) {
            throw LocalizationFileError(
                file: file, line: 1, column: 1,
                message:
                    "a second byte-order mark: CoreFoundation takes the first as the encoding and this one (U+FEFF) as a character, and refuses the file"
            )
        }
        do throws(LocalizationFileError) {
            if looksLikeXML(text) {
                var parser = XMLPlistParser(utf8: text, file: file)
                guard case .dict(let d) = try parser.parse() else {
                    throw LocalizationFileError(file: file, line: 1, column: 1, message: "the XML plist is not a dictionary")
                }
                if let offset = decoded.invalidUTF8Offset {
                    notes.append(
                        FileNote(
                            .invalidUTF8OutsideStrings, file: file, line: TextPosition.of(offset, in: text).line,
                            message:
                                "bytes that are not UTF-8 outside every string (byte 0x\(String(text[offset], radix: 16, uppercase: true))), skipped as CoreFoundation skips them"
                        ))
                }
                return (d, [:], notes + parser.notes)
            }
            if let offset = decoded.invalidUTF8Offset {
                let (line, column) = TextPosition.of(offset, in: text)
                throw LocalizationFileError(
                    file: file, line: line, column: column, message: "not valid UTF-8 (byte 0x\(String(text[offset], radix: 16, uppercase: true)))")
            }
            var parser = OldStylePlistParser(utf8: text, file: file)
            let dict = try parser.parseStringsFile()
            return (dict, parser.keyLines, notes + parser.notes)
        } catch  where decoded.withoutBOM {
            var explained = error
            explained.message += " (in UTF-16 without a byte-order mark, which CoreFoundation reads without its first two bytes, little-endian)"
            throw explained
        }
    }

    /// What decoding the bytes left to say: surrogates, a partial unit, a missing BOM.
    private static func decodingNotes(_ decoded: TextDecoding.Decoded, file: String) -> [FileNote] {
        var notes: [FileNote] = []
        if !decoded.replacedSurrogates.isEmpty {
            notes.append(
                FileNote(
                    .unpairedSurrogate, file: file, line: 1,
                    message: "\(decoded.replacedSurrogates.count) unpaired UTF-16 surrogate(s) shown as U+FFFD"))
        }
        if decoded.ignoredTrailingBytes > 0 {
            notes.append(
                FileNote(
                    .trailingBytes, file: file, line: 1,
                    message: "\(decoded.encoding.rawValue) text ends in \(decoded.ignoredTrailingBytes) byte(s) that make no whole character, ignored"
                ))
        }
        if decoded.replacedA9Bytes > 0 {
            notes.append(
                FileNote(
                    .strayA9Byte, file: file, line: 1,
                    message:
                        "\(decoded.replacedA9Bytes) byte(s) 0xA9 that are not UTF-8 (Mac Roman's ©?), read as U+FFFD as CoreFoundation reads them"))
        }
        if decoded.withoutBOM {
            notes.append(
                FileNote(
                    .utf16WithoutBOM, file: file, line: 1,
                    message: "UTF-16 without a byte-order mark: CoreFoundation drops the first character and reads the rest as little-endian"))
        }
        return notes
    }

    /// Whether CoreFoundation's XML parser could read the text: its first character after
    /// space, tab, LF and CR is `<` (any other file fails there and is read as a text plist).
    static func looksLikeXML(_ bytes: [UInt8]) -> Bool {
        bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } == UInt8(ascii: "<")
    }

    /// A `.strings` file's key → value table (string values only; others are noted and skipped).
    public static func readStrings(_ bytes: [UInt8], file: String) throws(LocalizationFileError) -> (
        table: [String: String], lines: [String: Int], notes: [FileNote]
    ) {
        let (dict, lines, notes) = try readPlist(bytes, file: file)
        var table: [String: String] = [:]
        var allNotes = notes
        table.reserveCapacity(dict.count)
        for (key, value) in dict {
            if let s = value.stringValue {
                table[key] = s
            } else {
                allNotes.append(
                    FileNote(
                        .ignoredEntry, file: file, line: lines[key] ?? 1, message: "\"\(key)\" has a \(value.typeName) value, not a string; ignored"))
            }
        }
        return (table, lines, allNotes)
    }

    /// A `.stringsdict` file's rule formats.
    public static func readStringsDict(_ bytes: [UInt8], file: String) throws(LocalizationFileError) -> (
        rules: [String: RuleFormat], notes: [FileNote]
    ) {
        let (dict, _, notes) = try readPlist(bytes, file: file)
        var rules: [String: RuleFormat] = [:]
        var allNotes = notes
        for (key, value) in dict {
            guard let entry = value.dictValue else {
                allNotes.append(FileNote(.ignoredEntry, file: file, line: 1, message: "\"\(key)\" is a \(value.typeName), not a dictionary; ignored"))
                continue
            }
            guard let format = entry["NSStringLocalizedFormatKey"]?.stringValue else {
                allNotes.append(FileNote(.ignoredEntry, file: file, line: 1, message: "\"\(key)\" has no NSStringLocalizedFormatKey; ignored"))
                continue
            }
            var variables: [String: RuleVariable] = [:]
            for (name, spec) in entry where name != "NSStringLocalizedFormatKey" {
                guard let spec = spec.dictValue else { continue }
                let typeName = spec["NSStringFormatSpecTypeKey"]?.stringValue ?? ""
                guard let kind = RuleVariable.Kind(rawValue: typeName) else {
                    allNotes.append(
                        FileNote(
                            .ignoredEntry, file: file, line: 1,
                            message: "\"\(key)\".\(name): unknown NSStringFormatSpecTypeKey \"\(typeName)\"; ignored"))
                    continue
                }
                var forms: [String: String] = [:]
                for (formKey, formValue) in spec where !formKey.hasPrefix("NSString") {
                    if let s = formValue.stringValue { forms[formKey] = s }
                }
                variables[name] = RuleVariable(kind: kind, valueType: spec["NSStringFormatValueTypeKey"]?.stringValue ?? "@", forms: forms)
            }
            rules[key] = RuleFormat(format: format, variables: variables)
        }
        return (rules, allNotes)
    }
}
