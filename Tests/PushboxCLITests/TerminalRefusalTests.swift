import PushboxTerminal
import PushboxUI
import Testing

@Suite("Terminals pushbox cannot use")
struct TerminalRefusalTests {
    @Test("TERM=dumb or no TERM is refused with a clear message", arguments: ["dumb", ""])
    func dumb(term: String) {
        #expect {
            try Terminal(environment: ["TERM": term])
        } throws: { "\($0)".contains("cannot address the cursor") && "\($0)".contains("pushbox render FILE") }
    }

    @Test("on an 8-colour terminal, 256-colour theme colours fall back to the nearest basic colour")
    func basicColours() {
        #expect(ThemeColor.indexed(196).basic == 1)  // red
        #expect(ThemeColor.indexed(46).basic == 2)  // green
        #expect(ThemeColor.indexed(21).basic == 4)  // blue
        #expect(ThemeColor.indexed(231).basic == 7)  // white
        #expect(ThemeColor.indexed(236).basic == 0)  // dark grey → black
        #expect(ThemeColor.ansi(9).basic == 1)  // bright red → red
    }
}
