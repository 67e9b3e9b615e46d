import Foundation
import PushboxStore

/// `pushbox clear`: empties an inbox, as deleting every notification in it would; a running
/// pushbox on the same inbox shows it empty within a second.
enum ClearCommand {
    static let spec = CommandSpec(
        name: "clear",
        summary:
            "Empty the inbox: every notification is deleted (the device, its registration, topics and Live Activities stay). A running pushbox on the same inbox follows within a second; the bundled samples are not seeded again.",
        options: [Options.database],
        run: run)

    static func run(_ args: ParsedArguments, _ io: inout CommandIO) -> Int32 {
        guard args.operands.isEmpty else {
            io.err("pushbox clear: takes no operands; see pushbox clear --help")
            return 2
        }
        do {
            let store = try IntakeOptions.openStore(args, io, existing: true)
            let count = try store.clear()
            io.out("cleared \(count) notification\(count == 1 ? "" : "s") from \(store.path)")
            return 0
        } catch {
            io.err("pushbox clear: \(error)")
            return 1
        }
    }
}
