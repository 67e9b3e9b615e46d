import Foundation
import PushboxPayload

/// A raw payload from text, as the command line reads one.
func raw(_ text: String, headers: [(String, String)] = []) -> RawPayload {
    RawPayload(bytes: Array(text.utf8), envelope: Envelope(source: .commandLine, headers: PushHeaders(headers)))
}
