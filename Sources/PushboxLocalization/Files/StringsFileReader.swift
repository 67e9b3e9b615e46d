/// Reads `.strings` (text, XML or binary plist, any encoding) and `.stringsdict` files into
/// table entries. A file that cannot be read is refused whole with file:line:column.
public enum StringsFileReader {
    /// The top-level dictionary of a property-list file in any of its three forms.
    static func readPlist(_ bytes: [UInt8], file: String) throws(LocalizationFileError) -> (
        dict: [String: PlistValue], lines: [String: Int], notes: [FileNote]
    ) {
        if bytes.starts(with: Array("bplist".utf8)) {
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
            case .invalidUTF8(let offset):
                let line = bytes[..<offset].filter { $0 == 0x0A }.count + 1
                let column = offset - (bytes[..<offset].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0) + 1
                throw LocalizationFileError(
                    file: file, line: line, column: column, message: "not valid UTF-8 (byte 0x\(String(bytes[offset], radix: 16, uppercase: true)))")
            case .truncated(let encoding):
                throw LocalizationFileError(file: file, line: 1, column: 1, message: "\(encoding.rawValue) text with an odd number of bytes")
            }
        }
        var notes: [FileNote] = []
        if !decoded.replacedSurrogates.isEmpty {
            notes.append(
                FileNote(
                    .unpairedSurrogate, file: file, line: 1,
                    message: "\(decoded.replacedSurrogates.count) unpaired UTF-16 surrogate(s) shown as U+FFFD"))
        }
        if looksLikeXML(decoded.utf8) {
            guard case .dict(let d) = try XMLPlistReader.read(decoded.utf8, file: file) else {
                throw LocalizationFileError(file: file, line: 1, column: 1, message: "the XML plist is not a dictionary")
            }
            return (d, [:], notes)
        }
        var parser = OldStylePlistParser(utf8: decoded.utf8, file: file)
        let dict = try parser.parseStringsFile()
        return (dict, parser.keyLines, notes + parser.notes)
    }

    static func looksLikeXML(_ bytes: [UInt8]) -> Bool {
        var i = 0
        while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
        return bytes[i...].starts(with: Array("<?xml".utf8)) || bytes[i...].starts(with: Array("<!DOCTYPE plist".utf8))
            || bytes[i...].starts(with: Array("<plist".utf8))
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
