/// Random version-4 UUIDs, lowercase, from a buffered generator: `UUID()` reads /dev/urandom per
/// call on Linux, which showed in the intake's profile.
enum FastUUID {
    static func make() -> String {
        var g = SystemRandomNumberGenerator()
        var a = g.next() as UInt64, b = g.next() as UInt64
        a = (a & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000
        b = (b & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        let hex = Array("0123456789abcdef".utf8)
        var out = [UInt8](repeating: UInt8(ascii: "-"), count: 36)
        var i = 0
        for (word, shift) in [(a, 60), (a, 56), (a, 52), (a, 48), (a, 44), (a, 40), (a, 36), (a, 32), (a, 28), (a, 24), (a, 20), (a, 16), (a, 12), (a, 8), (a, 4), (a, 0),
                              (b, 60), (b, 56), (b, 52), (b, 48), (b, 44), (b, 40), (b, 36), (b, 32), (b, 28), (b, 24), (b, 20), (b, 16), (b, 12), (b, 8), (b, 4), (b, 0)] {
            if i == 8 || i == 13 || i == 18 || i == 23 { i += 1 }
            out[i] = hex[Int((word >> UInt64(shift)) & 0xF)]
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}
