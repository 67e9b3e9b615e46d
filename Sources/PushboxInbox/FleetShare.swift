import Foundation
import PushboxDevice
import PushboxPayload
import PushboxStore

/// One push across the fleet: for each device, its row and rendering, or why it did not get the
/// push, and the findings of the push's campaign that concern it (the fleet view).
public struct FleetShare: Sendable {
    /// One device's part.
    public struct Part: Sendable {
        /// The device.
        public var member: FleetMember
        /// What it shows, in its languages; nil when it did not get the push.
        public var rendering: RenderedNotification?
        /// Where the push stands for it, or why it did not get it, in words.
        public var state: String
        /// Whether it got the push (or will, from storage).
        public var reached: Bool
        /// The campaign's findings about it.
        public var findings: [FleetFinding]
    }

    /// The push as its row lists it (title or body as sent) and to whom it was addressed.
    public var push: String
    /// Every device's part, the default device first.
    public var parts: [Part]
}

extension IntakeService {
    /// The push of row `id` on every device of the inbox; nil when the row is gone.
    public func fleetShare(of id: Int64) -> FleetShare? {
        guard let row = try? store.notification(id: id) else { return nil }
        let registration = phone.registration() ?? DeviceRegistration()
        let members = FleetMember.fleet(registration, languages: phone.languages)
        let rows = (try? store.requestRows(apnsID: row.apnsID, near: id, span: members.count)) ?? [row]
        // The campaign it belongs to, for its findings.
        let around = (try? store.rows(after: max(0, id - 1000), limit: 2000)) ?? rows
        let campaign = FleetFindings.campaigns(around, oneCampaign: false).first { $0.contains { $0.id == id } } ?? rows
        let findings = findings(campaign)
        let addressee = row.targeting?.addressee ?? row.deviceToken.map { "token \($0.prefix(12))…" } ?? "the device"
        let push = [row.listing?.title, row.listing?.body].compactMap { $0 }.first.map { "“\($0)” to \(addressee)" } ?? "to \(addressee)"
        let parts = members.map { member -> FleetShare.Part in
            let mine = rows.first { ($0.device ?? FleetDevice.defaultName) == member.name }
            let theirs = findings.filter { $0.device == member.name }
            guard let mine else {
                return FleetShare.Part(
                    member: member, rendering: nil, state: whyNot(member, row: row, registration: registration), reached: false, findings: theirs)
            }
            let reached = FleetFindings.received(mine)
            let state: String
            if mine.status != 200 {
                state = "refused: \(mine.status ?? 0) \(mine.reason ?? "")"
            } else if mine.targeting?.targeted == false {
                state = "not reached: " + (mine.targeting?.detail ?? "not for this device")
            } else {
                state = mine.delivery.map { $0.state.phrase } ?? "delivered"
            }
            // How that phone presented it (its own Focus and summary), beside where it stands.
            let presented = mine.verdict?.presentation.map { $0.outcome == .shown ? "" : "; \($0.line)" } ?? ""
            return FleetShare.Part(
                member: member, rendering: reached ? renderings?.shown(mine)?.presenting(mine.verdict?.presentation) : nil, state: state + presented,
                reached: reached, findings: theirs)
        }
        return FleetShare(push: push, parts: parts)
    }

    /// Why a device has no row of a push: its app is gone, APNs does not reach an Android phone,
    /// another device's token was named, or its topics do not match.
    private func whyNot(_ member: FleetMember, row: StoredNotification, registration: DeviceRegistration) -> String {
        guard member.installed else { return "not reached: the app is uninstalled" }
        let topics: Set<String> =
            registration.device(named: member.name).map { phone.topics(of: $0) } ?? phone.context(for: registration).deviceTopics ?? []
        let listed = topics.sorted().joined(separator: ", ")
        let addressee = row.targeting?.addressee ?? ""
        if row.source != .fcm {
            return member.platform == .android
                ? "not reached: APNs does not reach an Android phone" : "not reached: the push named another device's token"
        }
        if addressee.hasPrefix("topic ") { return "not reached: not subscribed to \(addressee.dropFirst(6)) (its topics: \(listed))" }
        if addressee.hasPrefix("condition ") { return "not reached: the condition is false for its topics (\(listed))" }
        return "not reached: the message named another device's token"
    }
}
