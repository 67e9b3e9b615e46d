/// Eight bytes at a time: the tests the JSON reader and writer use to skip a run of plain
/// ASCII in one step, then find the byte that matters one by one.
///
/// "Has a zero byte" on the word XORed with each sought byte, and "has a byte below n"
/// (Bit Twiddling Hacks' `haszero` and `hasless`); both are exact as a yes or no.
enum ByteWords {
    static let ones: UInt64 = 0x0101_0101_0101_0101
    static let highs: UInt64 = 0x8080_8080_8080_8080

    /// The eight bytes at `offset` of `bytes` (which must hold them), in memory order.
    @inline(__always)
    static func word(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt64 {
        UnsafeRawPointer(bytes.baseAddress! + offset).loadUnaligned(as: UInt64.self)
    }

    /// The high bit of each byte of `x` that is zero (and maybe of bytes above one): nonzero
    /// exactly when some byte is zero.
    @inline(__always)
    static func zeros(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & highs }

    /// The bytes of `word` equal to `byte`, as `zeros` marks them.
    @inline(__always)
    static func equal(_ word: UInt64, _ byte: UInt8) -> UInt64 { zeros(word ^ (ones &* UInt64(byte))) }

    /// The bytes of `word` below 0x20 (control characters), marked the same way.
    @inline(__always)
    static func controls(_ word: UInt64) -> UInt64 { (word &- ones &* 0x20) & ~word & highs }

    /// Whether any byte is a quote, a backslash or a control character: what ends a plain run
    /// inside a JSON string as it is read.
    @inline(__always)
    static func mayEndString(_ word: UInt64) -> Bool {
        equal(word, 0x22) | equal(word, 0x5C) | controls(word) != 0
    }

    /// Whether any byte may need an escape as JSON is written: those of `mayEndString`, DEL,
    /// and any byte of a non-ASCII character (C1 controls and U+2028… are checked bytewise).
    @inline(__always)
    static func mayNeedEscape(_ word: UInt64) -> Bool {
        word & highs | equal(word, 0x22) | equal(word, 0x5C) | equal(word, 0x7F) | controls(word) != 0
    }
}
