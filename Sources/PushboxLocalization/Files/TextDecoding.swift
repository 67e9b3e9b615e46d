import PushboxJSON

/// Turns the bytes of a strings file into UTF-8 as CoreFoundation reads them
/// (`encodingForXMLData` in CFPropertyList.c): a byte-order mark decides (UTF-32 LE/BE, UTF-8,
/// UTF-16 LE/BE) and is dropped; without one, a zero in byte 0 or 1 means UTF-16 — and then
/// CoreFoundation drops the first two bytes anyway and reads the rest in the device's byte
/// order (little-endian); else UTF-8. A partial UTF-16/UTF-32 unit at the end is ignored. A
/// second byte-order mark is not dropped: it stays, as U+FEFF, for the parsers to refuse.
enum TextDecoding {
    enum Encoding: String, Sendable {
        case utf8 = "UTF-8"
        case utf16LE = "UTF-16LE"
        case utf16BE = "UTF-16BE"
        case utf32LE = "UTF-32LE"
        case utf32BE = "UTF-32BE"
        case latin1 = "ISO-8859-1"
    }

    struct Decoded {
        var utf8: [UInt8]
        var encoding: Encoding
        /// Byte offsets (in the UTF-8 result) where an unpaired surrogate became U+FFFD.
        var replacedSurrogates: [Int] = []
        /// Bytes at the end that made no whole UTF-16/UTF-32 unit, ignored.
        var ignoredTrailingBytes = 0
        /// UTF-16 without a byte-order mark, read as CoreFoundation reads it.
        var withoutBOM = false
        /// For UTF-8, how many stray 0xA9 bytes became U+FFFD.
        var replacedA9Bytes = 0
        /// For UTF-8, where the text stops being UTF-8 (the XML reader checks only strings).
        var invalidUTF8Offset: Int?
    }

    enum Failure: Error {
        case invalidUTF32(offset: Int)
        /// The XML declaration names an encoding pushbox does not read (or nobody knows).
        case declaredEncoding(String)
        /// The file ends inside the XML declaration, before its encoding could be found.
        case unfinishedDeclaration
    }

    static func decode(_ bytes: [UInt8]) throws(Failure) -> Decoded {
        let n = bytes.count
        if n > 4, bytes.starts(with: [0, 0, 0xFE, 0xFF]) { return try utf32(bytes.dropFirst(4), bigEndian: true) }
        if n > 4, bytes.starts(with: [0xFF, 0xFE, 0, 0]) { return try utf32(bytes.dropFirst(4), bigEndian: false) }
        if n > 3, bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return utf8(Array(bytes.dropFirst(3))) }
        if n > 2, bytes.starts(with: [0xFF, 0xFE]) { return utf16(bytes.dropFirst(2), bigEndian: false) }
        if n > 2, bytes.starts(with: [0xFE, 0xFF]) { return utf16(bytes.dropFirst(2), bigEndian: true) }
        if n > 2, bytes[0] == 0 || bytes[1] == 0 {
            var decoded = utf16(bytes.dropFirst(2), bigEndian: false)
            decoded.withoutBOM = true
            return decoded
        }
        switch try declaredEncoding(bytes) {
        case nil, .utf8?: return utf8(bytes)
        case let other?: return Decoded(utf8: bytes.flatMap { $0 < 0x80 ? [$0] : [0xC0 | $0 >> 6, 0x80 | $0 & 0x3F] }, encoding: other)
        }
    }

    /// The encoding an XML declaration at the very start names (`<?xml … encoding="…"?>`),
    /// scanned as CoreFoundation scans it. pushbox reads the names of UTF-8 and of Latin-1
    /// (which CoreFoundation's US-ASCII reads as too); any other name is refused.
    private static func declaredEncoding(_ bytes: [UInt8]) throws(Failure) -> Encoding? {
        guard bytes.starts(with: "<?xml".utf8) else { return nil }
        var i = 5
        while i < bytes.count {
            let c = bytes[i]
            if c == UInt8(ascii: "?") || c == UInt8(ascii: ">") { return nil }
            i += 1
            guard i + 8 < bytes.count else { throw .unfinishedDeclaration }
            if c == UInt8(ascii: "e"), bytes[i..<(i + 8)].elementsEqual("ncoding=".utf8) {
                i += 8
                break
            }
        }
        guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") else { return nil }
        let quote = bytes[i]
        guard let end = bytes[(i + 1)...].firstIndex(of: quote) else { return nil }
        // CoreFoundation reads the name as Latin-1, as a C string (to its first NUL).
        let raw = bytes[(i + 1)..<end].prefix { $0 != 0 }
        let name = String(String.UnicodeScalarView(raw.map { Unicode.Scalar($0) }))
        switch charsetKey(name) {
        case "utf8": return .utf8
        case "iso88591", "latin1", "l1", "usascii", "ascii", "isolatin1": return .latin1
        default: throw .declaredEncoding(name)
        }
    }

    /// A charset name as CoreFoundation compares names: letters (any case) and numbers (leading
    /// zeros aside) only, so `UTF-08`, `utf_8` and ` UTF-8 ` are all `utf8`; a name with any
    /// non-ASCII character is no name it knows.
    static func charsetKey(_ name: String) -> String {
        guard name.allSatisfy(\.isASCII) else { return "" }
        var key = ""
        var digits = ""
        for c in name.lowercased() + " " {
            if c.isNumber, c.isASCII {
                digits.append(c)
                continue
            }
            if !digits.isEmpty {
                key += String(digits.drop { $0 == "0" }).isEmpty ? "0" : String(digits.drop { $0 == "0" })
                digits = ""
            }
            if c.isLetter { key.append(c) }
        }
        return key
    }

    private static func utf8(_ bytes: [UInt8]) -> Decoded {
        let (text, replaced, invalid) = coreFoundationUTF8(bytes)
        return Decoded(utf8: text, encoding: .utf8, replacedA9Bytes: replaced, invalidUTF8Offset: invalid)
    }

    /// UTF-8 as CoreFoundation's decoder takes it: a 0xA9 byte that starts no valid sequence
    /// (Mac Roman's ©, let through "not to break existing apps") becomes U+FFFD; any other
    /// invalid byte is left in place and the first one's offset returned.
    static func coreFoundationUTF8(_ bytes: [UInt8]) -> (utf8: [UInt8], replacedA9: Int, firstInvalid: Int?) {
        guard var bad = UTF8Check.firstInvalidOffset(in: bytes) else { return (bytes, 0, nil) }
        var out = Array(bytes[..<bad])
        var replaced = 0
        var firstInvalid: Int?
        while true {
            if bytes[bad] == 0xA9 {
                out += [0xEF, 0xBF, 0xBD]
                replaced += 1
            } else {
                if firstInvalid == nil { firstInvalid = out.count }
                out.append(bytes[bad])
            }
            // The scan goes on from the next byte, in place: no copy of the rest per bad byte.
            guard let next = UTF8Check.firstInvalidOffset(in: bytes, from: bad + 1) else {
                out += bytes[(bad + 1)...]
                return (out, replaced, firstInvalid)
            }
            out += bytes[(bad + 1)..<next]
            bad = next
        }
    }

    private static func utf16(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) -> Decoded {
        let encoding: Encoding = bigEndian ? .utf16BE : .utf16LE
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var i = bytes.startIndex
        while i + 1 < bytes.endIndex {
            let a = UInt16(bytes[i])
            let b = UInt16(bytes[i + 1])
            units.append(bigEndian ? a << 8 | b : b << 8 | a)
            i += 2
        }
        var out = Decoded(utf8: [], encoding: encoding, ignoredTrailingBytes: bytes.count % 2)
        out.utf8.reserveCapacity(units.count)
        var j = 0
        while j < units.count {
            let u = units[j]
            if (0xD800...0xDBFF).contains(u), j + 1 < units.count, (0xDC00...0xDFFF).contains(units[j + 1]) {
                let scalar = 0x10000 + ((UInt32(u) - 0xD800) << 10) + (UInt32(units[j + 1]) - 0xDC00)
                ByteText.appendUTF8(Unicode.Scalar(scalar) ?? "\u{FFFD}", to: &out.utf8)
                j += 2
                continue
            }
            if (0xD800...0xDFFF).contains(u) {
                out.replacedSurrogates.append(out.utf8.count)
                ByteText.appendUTF8("\u{FFFD}", to: &out.utf8)
            } else {
                ByteText.appendUTF8(Unicode.Scalar(u) ?? "\u{FFFD}", to: &out.utf8)
            }
            j += 1
        }
        return out
    }

    private static func utf32(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) throws(Failure) -> Decoded {
        let encoding: Encoding = bigEndian ? .utf32BE : .utf32LE
        var out = Decoded(utf8: [], encoding: encoding, ignoredTrailingBytes: bytes.count % 4)
        var i = bytes.startIndex
        while i + 3 < bytes.endIndex {
            let b = (0..<4).map { UInt32(bytes[i + $0]) }
            let value = bigEndian ? b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3] : b[3] << 24 | b[2] << 16 | b[1] << 8 | b[0]
            guard let scalar = Unicode.Scalar(value) else { throw .invalidUTF32(offset: i) }
            ByteText.appendUTF8(scalar, to: &out.utf8)
            i += 4
        }
        return out
    }
}
