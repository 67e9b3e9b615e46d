/// Lines and columns in the UTF-8 text of a strings file, as pushbox's readers report them:
/// LF, CR and CRLF each end a line (as CoreFoundation counts them); a column counts
/// characters, not bytes.
enum TextPosition {
    /// The 1-based line and column of byte `index` of `bytes`.
    static func of(_ index: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        var i = 0
        let end = min(index, bytes.count)
        while i < end {
            if endsLine(bytes, at: i) {
                line += 1
                lineStart = i + 1
            }
            i += 1
        }
        let column = bytes[lineStart..<end].reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) } + 1
        return (line, column)
    }

    /// Whether the byte at `i` ends a line (an LF, or a CR not followed by LF).
    static func endsLine(_ bytes: [UInt8], at i: Int) -> Bool {
        bytes[i] == 0x0A || (bytes[i] == 0x0D && (i + 1 >= bytes.count || bytes[i + 1] != 0x0A))
    }
}

/// Counts lines incrementally, so a parser asking for the line of each key in order reads
/// the file once.
struct LineCounter {
    private var cursor = 0
    private var line = 1

    /// The 1-based line of byte `index` of `bytes`.
    mutating func line(at index: Int, in bytes: [UInt8]) -> Int {
        if index < cursor {
            cursor = 0
            line = 1
        }
        while cursor < index, cursor < bytes.count {
            if TextPosition.endsLine(bytes, at: cursor) { line += 1 }
            cursor += 1
        }
        return line
    }
}
