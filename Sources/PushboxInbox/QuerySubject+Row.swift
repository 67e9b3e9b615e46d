import Foundation
import PushboxDevice
import PushboxPayload
import PushboxStore

extension QuerySubject {
    /// A stored notification as a query sees it: its rendering's texts (what the device shows, or
    /// would have shown), and what its row recorded; `platform` is its device's (`ios` unless an
    /// added Android phone's).
    public init(_ row: StoredNotification, rendered r: RenderedNotification?, platform: String = DevicePlatform.ios.rawValue) {
        // The row's verdict is read once, into values: Swift 6.3.1's optimizer (CopyPropagation)
        // crashed on this initializer in release builds when `row.status` was read inside the call.
        let (status, reason, state) = (row.status, row.reason, row.delivery?.state)
        let notTargeted = row.targeting?.targeted == false || r?.delivered == .rejected
        self.init(
            device: row.device ?? FleetDevice.defaultName, platform: platform,
            delivery: Self.delivery(status: status, notTargeted: notTargeted, state: state), source: row.source.rawValue, time: row.receivedAt)
        title = r?.title ?? r?.intended?.title ?? row.listing?.title
        subtitle = r?.subtitle ?? r?.intended?.subtitle
        body = r?.body ?? r?.intended?.body ?? row.listing?.body
        topic = row.topic
        token = row.deviceToken
        language = r?.language
        category = r?.category
        thread = r?.threadId ?? row.listing?.threadID
        collapse = row.collapseID
        self.status = status
        self.reason = reason
        pushType =
            row.liveActivity != nil
            ? PushType.liveactivity.rawValue
            : row.headers[PushHeaders.pushType]?.lowercased()
                ?? (row.listing?.background == true ? PushType.background.rawValue : PushType.alert.rawValue)
        hasAttachment = !(r?.attachments.isEmpty ?? true)
        hasWarning = !(r?.warnings.isEmpty ?? true)
    }

}
