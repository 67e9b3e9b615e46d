import PushboxJSON

/// How a format uses its arguments: positional (`%2$@`) and sequential (`%@`) forms, and the
/// positions it reads. What `String(format:)` leaves undefined follows from it — mixed forms,
/// skipped positions — for the format engine and the linter alike.
public struct ArgumentUse: Sendable, Equatable {
    /// Whether a `%n$` form is used.
    public var positional = false
    /// Whether a plain sequential form is used.
    public var sequential = false
    /// The 1-based positions read.
    public var used = Set<Int>()

    /// No argument used yet.
    public init(positional: Bool = false, sequential: Bool = false, used: Set<Int> = []) {
        self.positional = positional
        self.sequential = sequential
        self.used = used
    }

    /// Positional and sequential forms mixed: undefined on a device.
    public var mixed: Bool { positional && sequential }

    /// Positions below the highest one read that are never read, when positions are given.
    public var skipped: [Int] {
        guard positional, let highest = used.max() else { return [] }
        return (1...highest).filter { !used.contains($0) }
    }

    /// What a device leaves undefined about this use, each with its code.
    public var diagnostics: [Diagnostic] {
        var out: [Diagnostic] = []
        if mixed { out.append(Diagnostic(.mixedSpecifiers, "the format mixes positional (%n$) and sequential specifiers: undefined on a device")) }
        if !skipped.isEmpty {
            out.append(
                Diagnostic(
                    .skippedArgument,
                    "the format skips argument \(skipped.map(String.init).joined(separator: ", ")): undefined on a device (it may crash or show garbage)"
                ))
        }
        return out
    }
}
