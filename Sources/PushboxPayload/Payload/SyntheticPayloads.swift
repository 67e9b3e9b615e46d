/// Deterministic APNs payloads of about 500 bytes, shaped like real chat pushes (multi-byte
/// names, escapes, nested custom data), for the benchmark and the parser's conformance tests.
public enum SyntheticPayloads {
    /// The `i`th payload: about 490 bytes, different from every other.
    public static func make(_ i: Int) -> String {
        let names = ["Shelly", "Rick", "민지", "さくら", "Zoë", "Андрей", "محمد", "李雷"]
        let name = names[i % names.count]
        return """
            {"aps":{"alert":{"title":"Message from \(name) #\(i)","subtitle":"Thread \(i % 7)","body":"Hey \(name), are we still on for \(i % 24):00? Reply when you can. \\u2615 \\"quoted\\" text, escapes \\n and numbers \(Double(i) / 8)"},"badge":\(i % 100),"sound":"default","thread-id":"chat-\(i % 13)","category":"MESSAGE","mutable-content":1,"interruption-level":"active","relevance-score":0.\(i % 10)},"sender":{"id":\(100000 + i),"name":"\(name)","verified":\(i % 2 == 0 ? "true" : "false")},"messageId":"m-\(i)","attachments":[{"url":"https://cdn.example.com/\(i).jpg","w":640,"h":480}],"extra":null}
            """
    }

    /// The `i`th payload as it comes to the device socket for `deviceToken`.
    public static func raw(_ i: Int, deviceToken: String = "abcd") -> RawPayload {
        RawPayload(bytes: Array(make(i).utf8), envelope: Envelope(source: .socket, deviceToken: deviceToken))
    }
}
