import Foundation

@testable import PushboxPayload

/// A raw payload from text, with headers, from the command line unless said otherwise.
func raw(_ text: String, headers: [(String, String)] = [], token: String? = nil, source: PayloadSource = .commandLine) -> RawPayload {
    RawPayload(bytes: Array(text.utf8), envelope: Envelope(source: source, headers: PushHeaders(headers), deviceToken: token))
}

func validate(
    _ text: String, headers: [(String, String)] = [], token: String? = nil, source: PayloadSource = .commandLine,
    context: ValidationContext = ValidationContext()
) -> ValidationReport {
    Validator.validate(raw(text, headers: headers, token: token, source: source), context: context)
}

/// A payload of exactly `size` UTF-8 bytes: `{"aps":{"alert":"xxx…"}}` padded with `filler`.
func payload(ofSize size: Int, filler: String = "x") -> String {
    let shell = #"{"aps":{"alert":""}}"#
    let fillerBytes = filler.utf8.count
    let count = (size - shell.utf8.count) / fillerBytes
    let padding = String(repeating: "x", count: (size - shell.utf8.count) % fillerBytes)
    return #"{"aps":{"alert":""# + String(repeating: filler, count: count) + padding + #""}}"#
}
