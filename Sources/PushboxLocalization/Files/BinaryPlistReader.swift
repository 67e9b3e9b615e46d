/// Reads a binary property list (`bplist00`), as some build tools write `.strings` files.
/// Every offset and reference is range-checked; a cycle or a bad count is an error, not a crash.
enum BinaryPlistReader {
    static func read(_ bytes: [UInt8], file: String) throws(LocalizationFileError) -> PlistValue {
        var reader = Reader(bytes: bytes, file: file)
        return try reader.readTop()
    }

    private struct Reader {
        let bytes: [UInt8]
        let file: String
        var offsetSize = 0, refSize = 0, objectCount = 0, offsetTable = 0
        var visiting = Set<Int>()

        init(bytes: [UInt8], file: String) {
            self.bytes = bytes
            self.file = file
        }

        func fail(_ message: String) -> LocalizationFileError {
            LocalizationFileError(file: file, line: 1, column: 1, message: "binary plist: \(message)")
        }

        func uint(at offset: Int, size: Int) throws(LocalizationFileError) -> Int {
            guard size > 0, size <= 8, offset >= 0, offset + size <= bytes.count else { throw fail("offset \(offset) is out of range") }
            var v: UInt64 = 0
            for i in 0..<size { v = v << 8 | UInt64(bytes[offset + i]) }
            guard v < UInt64(Int.max) else { throw fail("value too large") }
            return Int(v)
        }

        mutating func readTop() throws(LocalizationFileError) -> PlistValue {
            guard bytes.count >= 40, bytes.starts(with: Array("bplist00".utf8)) else { throw fail("not a bplist00 file") }
            let t = bytes.count - 32
            offsetSize = Int(bytes[t + 6])
            refSize = Int(bytes[t + 7])
            objectCount = try uint(at: t + 8, size: 8)
            let top = try uint(at: t + 16, size: 8)
            offsetTable = try uint(at: t + 24, size: 8)
            guard objectCount > 0, top < objectCount, offsetTable + objectCount * offsetSize <= t else { throw fail("bad trailer") }
            return try object(top)
        }

        // Long on purpose: one case per bplist00 marker, as the format's table lists them.
        mutating func object(_ ref: Int) throws(LocalizationFileError) -> PlistValue {
            guard ref < objectCount else { throw fail("object reference \(ref) out of range") }
            guard visiting.insert(ref).inserted else { throw fail("a container contains itself") }
            defer { visiting.remove(ref) }
            let offset = try uint(at: offsetTable + ref * offsetSize, size: offsetSize)
            guard offset < bytes.count else { throw fail("object offset out of range") }
            let marker = bytes[offset]
            let kind = marker >> 4
            let info = Int(marker & 0x0F)
            switch kind {
            case 0x0:
                switch info {
                case 0x8: return .bool(false)
                case 0x9: return .bool(true)
                default: throw fail("unsupported marker 0x\(String(marker, radix: 16))")
                }
            case 0x1:
                let size = 1 << info
                guard size <= 8 else { throw fail("integer of \(size) bytes") }
                var v: UInt64 = 0
                guard offset + 1 + size <= bytes.count else { throw fail("integer out of range") }
                for i in 0..<size { v = v << 8 | UInt64(bytes[offset + 1 + i]) }
                return .integer(Int64(bitPattern: v))
            case 0x2:
                let size = 1 << info
                guard size == 4 || size == 8, offset + 1 + size <= bytes.count else { throw fail("bad real") }
                var v: UInt64 = 0
                for i in 0..<size { v = v << 8 | UInt64(bytes[offset + 1 + i]) }
                return .real(size == 4 ? Double(Float(bitPattern: UInt32(v))) : Double(bitPattern: v))
            case 0x3:
                guard offset + 9 <= bytes.count else { throw fail("bad date") }
                var v: UInt64 = 0
                for i in 0..<8 { v = v << 8 | UInt64(bytes[offset + 1 + i]) }
                return .date(Double(bitPattern: v))
            case 0x4, 0x5, 0x6, 0xA, 0xD:
                let (count, start) = try lengthAndStart(offset, info)
                switch kind {
                case 0x4:
                    guard start + count <= bytes.count else { throw fail("data out of range") }
                    return .data(Array(bytes[start..<start + count]))
                case 0x5:
                    guard start + count <= bytes.count else { throw fail("string out of range") }
                    return .string(String(decoding: bytes[start..<start + count], as: UTF8.self))
                case 0x6:
                    guard start + count * 2 <= bytes.count else { throw fail("string out of range") }
                    let units = (0..<count).map { UInt16(bytes[start + 2 * $0]) << 8 | UInt16(bytes[start + 2 * $0 + 1]) }
                    return .string(String(decoding: units, as: UTF16.self))
                case 0xA:
                    guard start + count * refSize <= bytes.count else { throw fail("array out of range") }
                    var items: [PlistValue] = []
                    for i in 0..<count { items.append(try object(try uint(at: start + i * refSize, size: refSize))) }
                    return .array(items)
                default:
                    guard start + 2 * count * refSize <= bytes.count else { throw fail("dictionary out of range") }
                    var dict: [String: PlistValue] = [:]
                    for i in 0..<count {
                        let keyRef = try uint(at: start + i * refSize, size: refSize)
                        let valueRef = try uint(at: start + (count + i) * refSize, size: refSize)
                        guard case .string(let key) = try object(keyRef) else { throw fail("a dictionary key is not a string") }
                        dict[key] = try object(valueRef)
                    }
                    return .dict(dict)
                }
            default:
                throw fail("unsupported marker 0x\(String(marker, radix: 16))")
            }
        }

        /// A container's count (in the low nibble, or an integer object after it) and where its content starts.
        func lengthAndStart(_ offset: Int, _ info: Int) throws(LocalizationFileError) -> (Int, Int) {
            guard info == 0xF else { return (info, offset + 1) }
            guard offset + 2 <= bytes.count, bytes[offset + 1] >> 4 == 0x1 else { throw fail("bad length") }
            let size = 1 << Int(bytes[offset + 1] & 0x0F)
            let count = try uint(at: offset + 2, size: size)
            guard count <= bytes.count else { throw fail("length out of range") }
            return (count, offset + 2 + size)
        }
    }
}
