import Foundation
import PushboxCLI

var io = CommandIO.standard()
exit(Pushbox.main(Array(CommandLine.arguments.dropFirst()), io: &io))
