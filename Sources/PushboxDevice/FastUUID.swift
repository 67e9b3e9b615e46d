import CPosix
import PushboxSystem

/// Random version-4 UUIDs, lowercase, from a buffered source: `UUID()` opens /dev/urandom per call
/// on Linux and `SystemRandomNumberGenerator` makes a system call per number, both of which
/// showed in the intake's profile. Here one `getrandom` fills 4 KB, enough for 256 ids.
public enum FastUUID {
    /// Random bytes not handed out yet, and where the next one is.
    private static let pool = Locked<(bytes: [UInt8], next: Int)>(([], 0))

    /// A new random UUID in its canonical lowercase form.
    public static func make() -> String {
        var (a, b) = pool.withLock { pool -> (UInt64, UInt64) in
            if pool.next + 16 > pool.bytes.count {
                pool.bytes = [UInt8](repeating: 0, count: 4096)
                if pool.bytes.withUnsafeMutableBytes({ pb_random_bytes($0.baseAddress, $0.count) }) != 0 {
                    // getrandom cannot fail on Linux ≥ 3.17 once the pool is seeded; if it ever does, the
                    // standard generator (which would trap instead) is not worth the risk: use it bytewise.
                    var g = SystemRandomNumberGenerator()
                    for i in pool.bytes.indices { pool.bytes[i] = g.next() }
                }
                pool.next = 0
            }
            defer { pool.next += 16 }
            return pool.bytes.withUnsafeBytes { raw in
                (raw.loadUnaligned(fromByteOffset: pool.next, as: UInt64.self), raw.loadUnaligned(fromByteOffset: pool.next + 8, as: UInt64.self))
            }
        }
        a = (a & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000
        b = (b & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        // Written straight into the string's storage: no byte array first.
        return String(unsafeUninitializedCapacity: 36) { out in
            var i = 0
            for nibble in 0..<32 {
                if i == 8 || i == 13 || i == 18 || i == 23 {
                    out[i] = UInt8(ascii: "-")
                    i += 1
                }
                let word = nibble < 16 ? a : b
                let digit = UInt8(truncatingIfNeeded: (word >> UInt64(60 - 4 * (nibble % 16))) & 0xF)
                out[i] = digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10
                i += 1
            }
            return 36
        }
    }
}
