import Foundation
import PushboxCore

/// Reads payload files named on the command line into raw payloads.
///
/// Headers come from, in increasing precedence: a sidecar `NAME.headers` file beside
/// `NAME.json`/`NAME.apns` (lines `name: value`, `#` comments; the pseudo-header
/// `device-token` gives the token), then `--header` and `--token`.
struct PayloadInput {
    var headerArguments: [String]
    var token: String?

    /// A file that could not be read at all (distinct from a payload that fails validation).
    struct ReadError: Error { var message: String }

    init(arguments: ParsedArguments) throws(UsageError) {
        headerArguments = arguments.all("--header")
        token = arguments.value("--token")
        for field in headerArguments where PushHeaders.parseField(field) == nil {
            throw UsageError(message: "--header \(field): expected NAME:VALUE")
        }
    }

    func read(_ path: String, io: CommandIO) -> Result<RawPayload, ReadError> {
        let bytes: [UInt8]
        if path == "-" {
            bytes = io.readStdin()
        } else {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
                return .failure(ReadError(message: "\(path): no such file"))
            }
            guard !isDir.boolValue else { return .failure(ReadError(message: "\(path): is a folder, not a payload file")) }
            guard let data = FileManager.default.contents(atPath: path) else {
                return .failure(ReadError(message: "\(path): cannot be read"))
            }
            bytes = Array(data)
        }
        var headers = PushHeaders()
        var deviceToken: String?
        if path != "-", let sidecar = Self.sidecarFields(for: path) {
            for (name, value) in sidecar {
                if name.lowercased() == "device-token" { deviceToken = value } else { headers.add(name, value) }
            }
        }
        // Flags override the sidecar; a header repeated in flags stays a duplicate, as on the wire.
        let fromFlags = headerArguments.map { PushHeaders.parseField($0)! }
        for (name, _) in fromFlags { headers.remove(name) }
        for (name, value) in fromFlags { headers.add(name, value) }
        if let token { deviceToken = token }
        let envelope = Envelope(source: .commandLine, headers: headers, deviceToken: deviceToken,
                                fileName: path == "-" ? "-" : path)
        return .success(RawPayload(bytes: bytes, envelope: envelope))
    }

    /// The `name: value` lines of `NAME.headers` beside a payload file, if there is one.
    static func sidecarFields(for path: String) -> [(String, String)]? {
        let base = (path as NSString).deletingPathExtension
        guard let text = try? String(contentsOfFile: base + ".headers", encoding: .utf8) else { return nil }
        return text.split(whereSeparator: \.isNewline).compactMap { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { return nil }
            return PushHeaders.parseField(trimmed)
        }
    }
}
