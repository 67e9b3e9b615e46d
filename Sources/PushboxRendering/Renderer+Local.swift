import Foundation
import PushboxDevice
import PushboxFetch
import PushboxJSON
import PushboxPayload

extension Renderer {
    /// A fired local request (stored by `LocalDelivery`): no APNs validation and no service
    /// extension, as neither touches local notifications; the content is localized now, at
    /// delivery, and attachments are the request's own files.
    func renderLocal(_ raw: RawPayload) -> RenderedNotification {
        var out = RenderedNotification(delivered: .original)
        out.language = localizer?.resolve(preferredLanguages).language ?? preferredLanguages.first
        guard let payload = try? JSONParser.parse(raw.bytes).objectValue, let aps = payload["aps"]?.objectValue else {
            out.delivered = .rejected
            out.status = 400
            out.reason = "BadLocalRequest"
            let detail = "the stored local notification is not a JSON object with aps"
            out.detail = detail
            out.trace = [TraceEntry(step: .schedule, ms: 0, outcome: .rejected, detail: detail)]
            return out
        }
        let info = LocalNotificationPayload.info(payload)
        let id = info?["identifier"]?.stringValue ?? "?"
        let fired = info?["firedAt"]?.stringValue ?? "?"
        let trigger = info?["trigger"].flatMap { try? ScheduleFile.trigger($0, path: "trigger") }
        out.file = "local:\(id)"
        out.trace.append(
            TraceEntry(
                step: .schedule, ms: 0, outcome: .fired,
                detail:
                    "local notification \(id) fired at \(fired) (\(trigger?.summary ?? "no trigger: delivered at once")); local notifications skip APNs validation and the service extension"
            ))
        fill(&out, from: aps)
        if aps["alert"] != nil {
            out.trace.append(
                TraceEntry(
                    step: .localize, ms: 0, outcome: .atDelivery,
                    detail:
                        "loc keys are resolved when the request fires, in the device language of that moment (localizedUserNotificationString); pushbox re-renders them when you switch language"
                ))
        }
        let started = ContinuousClock.now
        for (i, a) in (info?["attachments"]?.arrayValue ?? []).enumerated() {
            let file = PendingSet.attachmentFile(a) ?? ""
            let path = PendingSet.attachmentPath(file, baseDirectory: nil)
            guard let data = FileManager.default.contents(atPath: path), let type = MediaType.sniff(Array(data.prefix(512))) else {
                out.warnings.append(
                    Diagnostic(
                        .localAttachmentGone, "attachment \(i) (\(file)) is no longer readable; iOS copied it when the request was scheduled",
                        field: "attachments[\(i)]"))
                continue
            }
            let size = type.kind == .image ? ImageInfo.size(of: Array(data)) : nil
            out.attachments.append(
                RenderedAttachment(
                    path: path, type: type.mime, bytes: data.count, width: size?.width, height: size?.height,
                    source: URL(fileURLWithPath: path).absoluteString))
        }
        if !out.attachments.isEmpty {
            out.trace.append(
                TraceEntry(
                    step: .attach, ms: milliseconds(ContinuousClock.now - started), outcome: .attached,
                    detail: out.attachments.map { "\(($0.path as NSString).lastPathComponent) (\($0.type))" }.joined(separator: ", ")))
        }
        fillActions(&out)
        return out
    }
}
