import Foundation
import PushboxPayload

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
        headerArguments = arguments.all(Options.header)
        token = arguments.value(Options.token)
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
        var raw =
            path == "-"
            ? RawPayload(bytes: bytes, envelope: Envelope(source: .commandLine, fileName: "-"))
            : PayloadFile.payload(bytes: bytes, path: path, source: .commandLine)
        // Flags override the sidecar; a header repeated in flags stays a duplicate, as on the wire.
        let fromFlags = headerArguments.compactMap(PushHeaders.parseField)  // each was checked in init
        for (name, _) in fromFlags { raw.envelope.headers.remove(name) }
        for (name, value) in fromFlags { raw.envelope.headers.add(name, value) }
        if let token { raw.envelope.deviceToken = token }
        return .success(raw)
    }
}
