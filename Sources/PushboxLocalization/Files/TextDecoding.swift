import PushboxText

/// Turns the bytes of a `.strings` file into UTF-8, as CFPropertyList reads them: a BOM
/// decides (UTF-8, UTF-16 LE/BE, UTF-32 LE/BE); without one, a zero in byte 0 or 1 means
/// UTF-16 (big-endian when byte 0 is zero); else UTF-8.
enum TextDecoding {
    enum Encoding: String, Sendable {
        case utf8 = "UTF-8"
        case utf16LE = "UTF-16LE"
        case utf16BE = "UTF-16BE"
        case utf32LE = "UTF-32LE"
        case utf32BE = "UTF-32BE"
    }

    struct Decoded {
        var utf8: [UInt8]
        var encoding: Encoding
        /// Byte offsets (in the UTF-8 result) where an unpaired surrogate became U+FFFD.
        var replacedSurrogates: [Int] = []
    }

    enum Failure: Error {
        case invalidUTF8(offset: Int)
        case truncated(Encoding)
    }

    static func decode(_ bytes: [UInt8]) throws(Failure) -> Decoded {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return try utf8(Array(bytes.dropFirst(3))) }
        if bytes.starts(with: [0xFF, 0xFE, 0, 0]) { return try utf32(bytes.dropFirst(4), bigEndian: false) }
        if bytes.starts(with: [0, 0, 0xFE, 0xFF]) { return try utf32(bytes.dropFirst(4), bigEndian: true) }
        if bytes.starts(with: [0xFF, 0xFE]) { return try utf16(bytes.dropFirst(2), bigEndian: false) }
        if bytes.starts(with: [0xFE, 0xFF]) { return try utf16(bytes.dropFirst(2), bigEndian: true) }
        if bytes.count >= 2, bytes[0] == 0 || bytes[1] == 0 { return try utf16(bytes[...], bigEndian: bytes[0] == 0) }
        return try utf8(bytes)
    }

    private static func utf8(_ bytes: [UInt8]) throws(Failure) -> Decoded {
        if let bad = UTF8Check.firstInvalidOffset(in: bytes) { throw .invalidUTF8(offset: bad) }
        return Decoded(utf8: bytes, encoding: .utf8)
    }

    private static func utf16(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) throws(Failure) -> Decoded {
        let encoding: Encoding = bigEndian ? .utf16BE : .utf16LE
        guard bytes.count % 2 == 0 else { throw .truncated(encoding) }
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let a = UInt16(bytes[i])
            let b = UInt16(bytes[i + 1])
            units.append(bigEndian ? a << 8 | b : b << 8 | a)
            i += 2
        }
        var out = Decoded(utf8: [], encoding: encoding)
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
        guard bytes.count % 4 == 0 else { throw .truncated(encoding) }
        var out = Decoded(utf8: [], encoding: encoding)
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let b = (0..<4).map { UInt32(bytes[i + $0]) }
            let value = bigEndian ? b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3] : b[3] << 24 | b[2] << 16 | b[1] << 8 | b[0]
            ByteText.appendUTF8(Unicode.Scalar(value) ?? "\u{FFFD}", to: &out.utf8)
            i += 4
        }
        return out
    }
}
