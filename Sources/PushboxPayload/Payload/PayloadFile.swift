import Foundation

/// Payloads kept as files: which names in a folder are payloads, and a file read with the
/// headers of its sidecar. The folder watch, `replay DIR`, `lint` of a folder and the bundled
/// samples all read folders this way.
public enum PayloadFile {
    /// The folder's description of its payloads (as the bundled samples have), never a payload.
    public static let indexName = "index.json"

    /// Whether a file name is a payload's: `.json` (APNs or FCM) or `.apns` (Simulator), not
    /// hidden (editors' and `mv`'s temporary files start with a dot), not the folder's index.
    public static func isPayloadName(_ name: String) -> Bool {
        !name.hasPrefix(".") && name != indexName && (name.hasSuffix(".json") || name.hasSuffix(".apns"))
    }

    /// The payload files at the top of a folder, by name, as full paths.
    public static func paths(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).filter(isPayloadName).sorted()
            .map { (folder as NSString).appendingPathComponent($0) }
    }

    /// `bytes` read from `path`, with the headers and device token of its `NAME.headers`.
    public static func payload(bytes: [UInt8], path: String, source: PayloadSource, receivedAt: Date = Date()) -> RawPayload {
        let sidecar = SidecarHeaders.beside(path) ?? SidecarHeaders()
        return RawPayload(
            bytes: bytes,
            envelope: Envelope(
                source: source, receivedAt: receivedAt, headers: sidecar.headers,
                deviceToken: sidecar.deviceToken, fileName: path))
    }

    /// The file at `path` with its sidecar's headers, or nil when it cannot be read.
    public static func read(_ path: String, source: PayloadSource, receivedAt: Date = Date()) -> RawPayload? {
        FileManager.default.contents(atPath: path).map { payload(bytes: Array($0), path: path, source: source, receivedAt: receivedAt) }
    }
}
