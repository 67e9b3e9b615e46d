import PushboxJSON
import Testing

@testable import PushboxLocalization

@Suite("The format engine")
struct FormatRendererTests {
    func render(_ format: String, _ args: [String], locale: String? = nil) -> (String, [Diagnostic]) {
        var warnings: [Diagnostic] = []
        let r = FormatRenderer(numbers: locale.map { NumberFormatterICU.forLanguage($0) })
        return (r.render(format, args, warnings: &warnings), warnings)
    }

    @Test(
        "%@ and %n$@ in any order and any subset",
        arguments: [
            ("%@ and %@", ["A", "B"], "A and B"),
            ("%2$@ before %1$@", ["A", "B"], "B before A"),
            ("%1$@ %1$@", ["A"], "A A"),
            ("%3$@, %1$@, %2$@", ["A", "B", "C"], "C, A, B"),
            ("100%% sure, %@", ["A"], "100% sure, A"),
        ])
    func objects(format: String, args: [String], expected: String) {
        let (text, warnings) = render(format, args)
        #expect(text == expected)
        #expect(warnings.isEmpty, "\(warnings)")
    }

    @Test("%2$@ alone works, and is flagged as undefined on a device")
    func skippedArgument() {
        let (text, warnings) = render("only %2$@", ["A", "B"])
        #expect(text == "only B")
        #expect(warnings.map(\.code) == [.skippedArgument])
    }

    @Test(
        "undefined cases render something readable with a warning",
        arguments: [
            ("%@ and %@", ["A"], "A and %@", Diagnostic.Code.missingArgument),
            ("%999$@", ["A"], "%999$@", .argumentIndexOutOfRange),
            ("%1$@ %@", ["A", "B"], "A A", .mixedSpecifiers),
            ("% @", ["A"], "A", .spaceFlag),
            ("%n", ["A"], "%n", .writesMemory),
            ("%d items", ["lots"], "lots items", .notANumber),
            ("%s", ["A"], "A", .cStringSpecifier),
            ("%y and %", [], "%y and %", .invalidSpecifier),
            ("%@", [], "%@", .missingArgument),
        ])
    func undefined(format: String, args: [String], expected: String, warning: Diagnostic.Code) {
        let (text, warnings) = render(format, args)
        #expect(text == expected)
        #expect(warnings.map(\.code).contains(warning), "\(warnings)")
    }

    @Test("arguments are inserted verbatim, a % in them included")
    func verbatim() {
        #expect(render("%@ / %@", ["50% off %@", "%1$@"]).0 == "50% off %@ / %1$@")
    }

    @Test("numbers: flags, width, precision, radix and the locale's digits")
    func numbers() {
        #expect(render("%5d|%-5d|%05d|%+d", ["42", "42", "42", "42"]).0 == "   42|42   |00042|+42")
        #expect(render("%.2f %x %X %#o", ["3.14159", "255", "255", "8"]).0 == "3.14 ff FF 010")
        #expect(render("%.3d", ["7"]).0 == "007")
        #expect(render("%d", ["1234567"], locale: "en").0 == "1,234,567")
        #expect(render("%ld", ["1234567"], locale: "de").0 == "1.234.567")
        #expect(render("%d", ["12"], locale: "ar-EG").0 == "١٢")
        #expect(render("%*d|%-*@|%.*@", ["4", "7", "3", "ab", "2", "xyz"]).0 == "   7|ab |xy")
    }

    @Test("200 specifiers and 127 positions are handled")
    func many() {
        let args = (1...200).map(String.init)
        let sequential = String(repeating: "%@,", count: 200)
        #expect(render(sequential, args).0 == args.joined(separator: ",") + ",")
        let positional = (1...127).reversed().map { "%\($0)$@" }.joined(separator: " ")
        let (text, warnings) = render(positional, args)
        #expect(text == (1...127).reversed().map(String.init).joined(separator: " "))
        #expect(warnings.isEmpty)
        #expect(render("%128$@", args).1.map(\.code) == [.argumentIndexOutOfRange])
    }

    @Test("specifiers parse into their parts")
    func parse() {
        let s = ParsedFormat("%3$-08.2lf and %#@files@ and %2$#@x@").specifiers
        #expect(s.count == 3)
        #expect(
            s[0].position == 3 && s[0].flags == [.minus, .zero] && s[0].width == .fixed(8) && s[0].precision == .fixed(2) && s[0].length == "l"
                && s[0].conversion == "f")
        #expect(s[1].variable == "files" && s[1].position == nil)
        #expect(s[2].variable == "x" && s[2].position == 2)
    }
}
