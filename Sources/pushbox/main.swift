import Foundation
import PushboxCLI

// A write past the file-size limit (`ulimit -f`) fails with EFBIG and is reported like a full
// disk, instead of the signal's default of ending pushbox with acknowledged work in flight.
signal(SIGXFSZ, SIG_IGN)
var io = CommandIO.standard()
exit(Pushbox.main(Array(CommandLine.arguments.dropFirst()), io: &io))
