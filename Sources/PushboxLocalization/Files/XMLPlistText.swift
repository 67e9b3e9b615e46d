import PushboxJSON

/// The leaves of an XML property list as CoreFoundation reads them (`parseStringTag`,
/// `parseEntityReference_pl`, `parseCDSect_pl` and the number, date and data tags of
/// `CFPropertyList.c`).
extension XMLPlistParser {
    /// The text of a `<string>` or `<key>` up to its closing tag: raw bytes as they are, CDATA
    /// sections, `&lt; &gt; &amp; &apos; &quot;` and `&#…;`/`&#x…;`. A leading U+FEFF is
    /// dropped, as CFString drops it when it makes the string.
    mutating func parseText() throws(Failure) -> String {
        var out: [UInt8] = []
        let start = index
        while index < bytes.count {
            let c = bytes[index]
            if c == UInt8(ascii: "<") {
                guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "!") else { break }
                try appendCDATA(to: &out)
            } else if c == UInt8(ascii: "&") {
                try appendEntity(to: &out)
            } else {
                if c < 0x20, c != 0x09, c != 0x0A, c != 0x0D { sawControlCharacter(at: index) }
                out.append(c)
                index += 1
            }
        }
        if out.starts(with: [0xEF, 0xBB, 0xBF]) { out.removeFirst(3) }
        guard let text = String(validating: out, as: UTF8.self) else {
            index = start
            throw error("a string that is not valid UTF-8")
        }
        return text
    }

    /// `<![CDATA[…]]>`, from its `<`.
    private mutating func appendCDATA(to out: inout [UInt8]) throws(Failure) {
        let opening = "<![CDATA[".utf8
        guard bytes[index...].starts(with: opening) else { throw error("'<!' in text that does not open a CDATA section") }
        index += opening.count
        let begin = index
        while index < bytes.count - 2 {
            if bytes[index] == UInt8(ascii: "]"), bytes[index + 1] == UInt8(ascii: "]"), bytes[index + 2] == UInt8(ascii: ">") {
                out += bytes[begin..<index]
                index += 3
                return
            }
            index += 1
        }
        index = begin
        throw error("unterminated CDATA section")
    }

    /// An entity reference, from its `&`: the five XML names or a character number of up to
    /// eight digits. A reference to a control character is read (XML forbids it) and noted.
    private mutating func appendEntity(to out: inout [UInt8]) throws(Failure) {
        let at = index
        index += 1
        for (name, value) in Self.namedEntities where bytes[index...].starts(with: name) {
            index += name.count
            out.append(value)
            return
        }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "#") else {
            throw error("an unknown entity (CoreFoundation knows &lt; &gt; &amp; &apos; &quot; and &#…;)")
        }
        index += 1
        let hex = index < bytes.count && bytes[index] == UInt8(ascii: "x")
        if hex { index += 1 }
        var value: UInt32 = 0
        var digits = 0
        while index < bytes.count {
            let c = bytes[index]
            index += 1
            if c == UInt8(ascii: ";") {
                guard let scalar = Unicode.Scalar(value) else { throw error("&#…; names no Unicode character") }
                if value < 0x20, value != 0x09, value != 0x0A, value != 0x0D { sawControlCharacter(at: at) }
                ByteText.appendUTF8(scalar, to: &out)
                return
            }
            digits += 1
            guard digits <= 8, let digit = Self.digit(c, hex: hex) else { throw error("a malformed character reference") }
            value = (hex ? value << 4 : value &* 10) &+ digit
        }
        throw error("unexpected end of file in a character reference")
    }

    /// The five entities XML names, without their `&`.
    private static let namedEntities: [([UInt8], UInt8)] = [
        (Array("lt;".utf8), UInt8(ascii: "<")), (Array("gt;".utf8), UInt8(ascii: ">")), (Array("amp;".utf8), UInt8(ascii: "&")),
        (Array("apos;".utf8), UInt8(ascii: "'")), (Array("quot;".utf8), UInt8(ascii: "\"")),
    ]

    private static func digit(_ c: UInt8, hex: Bool) -> UInt32? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(c - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: return UInt32(c - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: return UInt32(c - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    /// `<integer>`, `<real>`, `<date>` or `<data>`, from just past the opening tag through the
    /// closing one.
    mutating func parseScalar(_ tag: String) throws(Failure) -> PlistValue {
        let start = index
        while index < bytes.count, bytes[index] != UInt8(ascii: "<") { index += 1 }
        let text = Array(bytes[start..<index])
        let value: PlistValue?
        switch tag {
        case "integer": value = Self.integer(text).map(PlistValue.integer)
        case "real": value = Self.real(String(decoding: text, as: UTF8.self)).map(PlistValue.real)
        case "date": value = Self.date(text).map(PlistValue.date)
        default: value = Self.data(text).map(PlistValue.data)
        }
        guard let value else {
            index = start
            throw error("<\(tag)> holds \"\(String(decoding: text.prefix(40), as: UTF8.self))\", which is not one")
        }
        try closeTag(tag)
        return value
    }

    /// Decimal or `0x` hex, a sign, and CoreFoundation's whitespace before the sign and the
    /// digits — bytes below 0x21 and 0x7F–0xA0 among them — but none after (`parseIntegerTag`).
    static func integer(_ text: [UInt8]) -> Int64? {
        var i = 0
        func skipSpace() { while i < text.count, text[i] < 0x21 || (0x7F..<0xA1).contains(text[i]) { i += 1 } }
        skipSpace()
        var negative = false
        if i < text.count, text[i] == UInt8(ascii: "-") || text[i] == UInt8(ascii: "+") {
            negative = text[i] == UInt8(ascii: "-")
            i += 1
            skipSpace()
        }
        var hex = false
        if i + 1 < text.count, text[i] == UInt8(ascii: "0"), text[i + 1] == UInt8(ascii: "x") || text[i + 1] == UInt8(ascii: "X") {
            hex = true
            i += 2
        }
        let digits = text[i...]
        guard !digits.isEmpty || !hex && i > 0 && text[i - 1] == UInt8(ascii: "0"),
            let magnitude = digits.isEmpty ? 0 : UInt64(String(decoding: digits, as: UTF8.self), radix: hex ? 16 : 10),
            digits.allSatisfy({ ByteText.hexValue($0) != nil })
        else { return nil }
        if negative { return magnitude <= UInt64(Int64.max) + 1 ? Int64(truncatingIfNeeded: 0 &- magnitude) : nil }
        return Int64(truncatingIfNeeded: magnitude)
    }

    /// A decimal number, or `nan`/`inf`/`infinity` with a sign, after CoreFoundation's
    /// leading whitespace (control characters and U+00A0 too), nothing after (`parseRealTag`).
    static func real(_ text: String) -> Double? {
        switch text.lowercased() {
        case "nan": return .nan
        case "inf", "+inf", "infinity", "+infinity": return .infinity
        case "-inf", "-infinity": return -.infinity
        default:
            let number = text.unicodeScalars.drop { $0.value < 0x21 || (0x7F...0xA0).contains($0.value) || $0.properties.isWhitespace }
            guard let first = number.first, "+-.0123456789".unicodeScalars.contains(first),
                number.allSatisfy({ "+-.0123456789eE".unicodeScalars.contains($0) })
            else { return nil }
            return Double(String(String.UnicodeScalarView(number)))
        }
    }

    /// `YYYY-MM-DDThh:mm:ssZ`, the only form CoreFoundation reads, in seconds since 2001.
    static func date(_ text: [UInt8]) -> Double? {
        var i = 0
        let negative = text.first == UInt8(ascii: "-")
        if negative { i += 1 }
        var year = 0
        while i < text.count, let d = digit(text[i], hex: false) {
            year = year &* 10 &+ Int(d)
            i += 1
        }
        var fields: [Int] = []
        // After the year: -MM-DDThh:mm:ssZ, each field two digits and its separator.
        for separator in Array("-".utf8) + Array("-T::Z".utf8) {
            guard i < text.count, text[i] == separator else { return nil }
            i += 1
            if separator == UInt8(ascii: "Z") { break }
            guard i + 1 < text.count, let a = digit(text[i], hex: false), let b = digit(text[i + 1], hex: false) else { return nil }
            fields.append(Int(a * 10 + b))
            i += 2
        }
        guard i == text.count, fields.count == 5 else { return nil }
        let y = Int64(Int32(truncatingIfNeeded: negative ? -year : year))
        let days = absoluteDay(year: y - 2001, month: fields[0], day: fields[1])
        return 86400 * days + 3600 * Double(fields[2]) + 60 * Double(fields[3]) + Double(fields[4])
    }

    /// Days from 2001-01-01 as CoreFoundation counts them (`__CFAbsoluteFromYMD`, CFDate.c),
    /// out-of-range months and days included: month 0 counts as January, month 13 as a year.
    private static func absoluteDay(year: Int64, month: Int, day: Int) -> Double {
        func isLeap(_ y: Int64) -> Bool {
            let r = abs((y + 1) % 400)
            return r & 3 == 0 && r != 100 && r != 200 && r != 300
        }
        let before: [Int] = [-1, 0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365, -1, -1]
        var absolute = 0.0
        let cycles = year / 400
        absolute += Double(cycles) * 146097
        let y = year - cycles * 400
        if y < 0 {
            for k in y..<0 { absolute -= isLeap(k) ? 366 : 365 }
        } else {
            for k in 0..<y { absolute += isLeap(k) ? 366 : 365 }
        }
        if (0..<16).contains(month), before[month] >= 0 { absolute += Double(before[month] + (month > 2 && isLeap(y) ? 1 : 0)) }
        return absolute + Double(day - 1)
    }

    /// Base64 with CoreFoundation's leniency: characters outside the alphabet are skipped, a
    /// byte of 128 or more is refused (`parseDataTag`).
    static func data(_ text: [UInt8]) -> [UInt8]? {
        var out: [UInt8] = []
        var accumulator: UInt32 = 0
        var count = 0
        var padding = 0
        for c in text {
            guard c < 128 else { return nil }
            if c == UInt8(ascii: "=") {
                padding += 1
            } else if !(c == 0x20 || (0x09...0x0D).contains(c)) {
                padding = 0
            }
            guard let v = base64Value(c) else { continue }
            count += 1
            accumulator = accumulator << 6 | v
            if count % 4 == 0 {
                out.append(UInt8(truncatingIfNeeded: accumulator >> 16))
                if padding < 2 { out.append(UInt8(truncatingIfNeeded: accumulator >> 8)) }
                if padding < 1 { out.append(UInt8(truncatingIfNeeded: accumulator)) }
            }
        }
        return out
    }

    private static func base64Value(_ c: UInt8) -> UInt32? {
        switch c {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return UInt32(c - UInt8(ascii: "A"))
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return UInt32(c - UInt8(ascii: "a") + 26)
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(c - UInt8(ascii: "0") + 52)
        case UInt8(ascii: "+"): return 62
        case UInt8(ascii: "/"): return 63
        case UInt8(ascii: "="): return 0
        default: return nil
        }
    }
}
