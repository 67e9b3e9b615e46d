import Foundation

/// A file error in words. On Linux, Foundation's file errors describe themselves as "The operation
/// could not be completed. (NSCocoaErrorDomain error 512.)"; the POSIX error underneath says what
/// happened ("Not a directory", "No space left on device").
public enum FileErrorText {
    /// The error in words: the POSIX reason and path when Foundation has one underneath.
    public static func describe(_ error: any Error) -> String {
        let ns = error as NSError
        if ns.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(ns.code))) }
        if let inner = ns.userInfo[NSUnderlyingErrorKey] as? any Error, case let underlying = inner as NSError,
            underlying.domain == NSPOSIXErrorDomain
        {
            let path = (ns.userInfo[NSFilePathErrorKey] as? String).map { " (\($0))" } ?? ""
            return String(cString: strerror(Int32(underlying.code))) + path
        }
        return ns.localizedDescription
    }
}
