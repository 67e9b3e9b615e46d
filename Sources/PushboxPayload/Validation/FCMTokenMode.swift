import Foundation

/// How FCM's `token` and `fid` targets are judged: `any` takes every well-formed one as this
/// device's (the easiest first run: a backend's stored tokens reach the inbox); `strict`
/// answers 404 `UNREGISTERED` for one that is not the device's own, as FCM would.
public enum FCMTokenMode: String, Sendable, Equatable, CaseIterable {
    case any, strict
}
