import Foundation
import PushboxFuzzTargets

// pushbox-fuzz: every parser's fuzz target in one executable.
//   make fuzz builds it with libFuzzer and AddressSanitizer (-DPUSHBOX_FUZZ; libFuzzer supplies
//   main) and runs `PUSHBOX_FUZZ_TARGET=NAME pushbox-fuzz [libFuzzer options] CORPUS…`.
//   In an ordinary build it replays inputs: `pushbox-fuzz NAME FILE|DIR…`.

/// libFuzzer's entry point: one input to the target named by PUSHBOX_FUZZ_TARGET.
@_cdecl("LLVMFuzzerTestOneInput")
public func pushboxFuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data, let run = FuzzEntry.target else { return 0 }
    run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

enum FuzzEntry {
    static let target: (@Sendable ([UInt8]) -> Void)? = {
        guard let name = ProcessInfo.processInfo.environment["PUSHBOX_FUZZ_TARGET"] else {
            FileHandle.standardError.write(
                Data("pushbox-fuzz: set PUSHBOX_FUZZ_TARGET to one of \(FuzzTargets.all.map(\.name).joined(separator: ", "))\n".utf8))
            exit(2)
        }
        guard let run = FuzzTargets.named(name) else {
            FileHandle.standardError.write(Data("pushbox-fuzz: no target \(name)\n".utf8))
            exit(2)
        }
        return run
    }()
}

#if !PUSHBOX_FUZZ
    @main
    struct Replay {
        static func main() {
            let args = Array(CommandLine.arguments.dropFirst())
            guard let name = args.first, let run = FuzzTargets.named(name) else {
                print("usage: pushbox-fuzz TARGET FILE|DIR…   (targets: \(FuzzTargets.all.map(\.name).joined(separator: ", ")))")
                exit(2)
            }
            var count = 0
            for path in args.dropFirst() {
                var isDir: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else { continue }
                let files =
                    isDir.boolValue ? ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted().map { path + "/" + $0 } : [path]
                for file in files {
                    guard let data = FileManager.default.contents(atPath: file) else { continue }
                    run(Array(data))
                    count += 1
                }
            }
            print("pushbox-fuzz \(name): \(count) inputs replayed, no crash")
        }
    }
#endif
