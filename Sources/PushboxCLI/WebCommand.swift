import Foundation
import PushboxJSON

/// `pushbox web`: where the running pushbox serves the inbox in a browser, opened with
/// `xdg-open` when there is a display.
enum WebCommand {
    static let spec = CommandSpec(
        name: "web",
        summary:
            "Print the address of the inbox in a browser that the running pushbox (serve or the terminal inbox) serves on its TCP port, and open it with xdg-open when there is a display (--no-open: only print it). Exit 1 when that pushbox listens on no TCP port, 2 when none answers.",
        options: [Options.socket, Options.noOpen],
        run: run)

    static func run(_ args: ParsedArguments, _ io: inout CommandIO) -> Int32 {
        let health: JSONObject
        switch LocalClient.call("GET", "/api/v1/health", body: [], headers: [], args, io) {
        case .failure(let failure):
            io.err("pushbox web: \(failure)")
            return 2
        case .success(let o): health = o
        }
        guard let address = health["web"]?.stringValue else {
            io.err(
                "pushbox web: the running pushbox listens on no TCP port (it was started with --listen off); start it with --listen 127.0.0.1:2197")
            return 1
        }
        io.out(address)
        let env = io.environment
        let display = !(env["DISPLAY"] ?? "").isEmpty || !(env["WAYLAND_DISPLAY"] ?? "").isEmpty
        if display, !args.flag(Options.noOpen),
            let opener = ["/usr/bin/xdg-open", "/bin/xdg-open"].first(where: FileManager.default.isExecutableFile)
        {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: opener)
            process.arguments = [address]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try? process.run()
        }
        return 0
    }
}
