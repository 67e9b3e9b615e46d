import Foundation
import PushboxCrypto
import PushboxJSON
import PushboxPayload

/// `pushbox keygen` and `pushbox encrypt`: test material for the extension's decrypt step.
enum CryptoCommands {
    static let keygen = CommandSpec.writingOneKey(
        name: "keygen",
        summary: "Write a new AES-256-GCM key file (base64 of 32 random bytes, mode 0600). Refuses to replace a file.",
        wrote: "mode 0600"
    ) { path in _ = try KeyFile.generate(path) }

    static let encrypt = CommandSpec(
        name: "encrypt",
        summary:
            "Encrypt a payload's alert (title, subtitle, body) into a base64 AES-256-GCM field, as the seeds' servers do, and print the new payload.",
        operands: "PAYLOAD",
        options: [
            Options.key,
            Options.field,
            Options.placeholder,
        ],
        run: { args, io in
            guard args.operands.count == 1, let keyFile = args.value(Options.key) else {
                io.err("pushbox encrypt: give --key FILE and one payload file (- for stdin); see pushbox encrypt --help")
                return 2
            }
            let path = args.operands[0]
            let bytes = path == "-" ? io.readStdin() : FileManager.default.contents(atPath: path).map(Array.init)
            guard let bytes else {
                io.err("pushbox encrypt: \(path): cannot be read")
                return 1
            }
            do {
                let key = try KeyFile.load(keyFile)
                guard var payload = try JSONParser.parse(bytes).objectValue, var aps = payload["aps"]?.objectValue else {
                    io.err("pushbox encrypt: \(path): not an APNs payload with an aps dictionary")
                    return 1
                }
                var secret = JSONObject()
                switch aps["alert"] {
                case .string(let body): secret["body"] = .string(body)
                case .object(let alert):
                    for field in ["title", "subtitle", "body"] { if let v = alert[field] { secret[field] = v } }
                default: break
                }
                guard !secret.isEmpty else {
                    io.err("pushbox encrypt: \(path): the alert has no title, subtitle or body to encrypt")
                    return 1
                }
                let sealed = try AESGCM.seal(Array(JSONWriter.compact(.object(secret)).utf8), key: key)
                aps["alert"] = .object(JSONObject([("body", .string(args.value(Options.placeholder) ?? "New message"))]))
                aps["mutable-content"] = 1
                payload["aps"] = .object(aps)
                payload[args.value(Options.field) ?? "encrypted_data"] = .string(Data(sealed).base64EncodedString())
                io.out(JSONWriter.pretty(.object(payload)))
                return 0
            } catch let error as CryptoError {
                io.err("pushbox encrypt: \(error)")
                return 1
            } catch {
                io.err("pushbox encrypt: \(path): \(error)")
                return 1
            }
        })
}
