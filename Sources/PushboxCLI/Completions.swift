import Foundation
import PushboxLocalization
import PushboxPayload

/// Shell completions for bash, zsh and fish, generated from the command table: subcommands,
/// options, finite option values, files and folders, and the app's language tags (asked of
/// pushbox itself when completing `--lang`).
enum Completions {
    /// The values an option takes when they are a fixed set.
    static let choices: [String: [String]] = [
        Options.theme.name: ["dark", "light", "high-contrast", "ios"],
        Options.platform.name: ["ios", "android", "both"],
        Options.previewProfile.name: [
            "banner", "lock-screen", "expanded", "banner:small", "lock-screen:small", "expanded:small", "banner:large",
            "lock-screen:large", "expanded:large",
        ],
        Options.bidi.name: ["on", "off"],
        Options.fcmTokens.name: ["any", "strict"],
        Options.apnsTokens.name: ["any", "strict"],
        Options.apnsEnvironment.name: ["development", "production"],
        Options.failOn.name: ExecSummary.Failing.allCases.map(\.rawValue),
        Options.listen.name: ["127.0.0.1:2197", "off"],
    ]

    /// How a value is completed: a fixed set, a folder, a file, a language tag, or nothing.
    enum Kind: Equatable {
        case choices([String])
        case directory, file, language, none
    }

    static func kind(of option: OptionSpec) -> Kind {
        if let c = choices[option.name] { return .choices(c) }
        guard let value = option.value else { return .none }
        if option.name == Options.lang.name { return .language }
        if value.contains("DIR") { return .directory }
        if value.contains("FILE") || value.contains("PATH") || value.hasSuffix(".p8") { return .file }
        return .none
    }

    static var specs: [CommandSpec] { [Pushbox.root] + Pushbox.commands }

    /// The words a command's first operand is one of, read from its operands as `--help` shows
    /// them (`device`'s `[online|offline|…|subscribe TOPIC]`, `completions`' `bash|zsh|fish|…`),
    /// and `man`'s commands; nil when it takes files or free text (`FILE…`, `ID|PREFIX*`).
    static func operandWords(_ spec: CommandSpec) -> [String]? {
        if spec.name == ManCommand.spec.name { return Pushbox.commands.map(\.name) }
        let text = spec.operands.trimmingCharacters(in: CharacterSet(charactersIn: "[] "))
        let words = text.split(separator: "|").map { $0.split(separator: " ").first.map(String.init) ?? "" }
        let isWord = { (w: String) in w.contains { $0.isLetter } && w.allSatisfy { $0.isLowercase || $0 == "-" } }
        guard !words.isEmpty, words.allSatisfy(isWord) else { return nil }
        // `focus on|focus off`: the verb once.
        var seen = Set<String>()
        return words.filter { seen.insert($0).inserted }
    }

    /// The bash completion function `_pushbox`, registered with `complete`.
    static var bash: String {
        var cases: [String] = []
        for spec in specs {
            let name = spec.name.isEmpty ? "__root" : spec.name
            var valueCases: [String] = []
            for option in spec.options {
                switch kind(of: option) {
                case .choices(let values):
                    valueCases.append(
                        "            \(option.name)) COMPREPLY=($(compgen -W \"\(values.joined(separator: " "))\" -- \"$cur\")); return;;")
                case .directory: valueCases.append("            \(option.name)) COMPREPLY=($(compgen -d -- \"$cur\")); return;;")
                case .file: valueCases.append("            \(option.name)) COMPREPLY=($(compgen -f -- \"$cur\")); return;;")
                case .language:
                    valueCases.append(
                        "            \(option.name)) COMPREPLY=($(compgen -W \"$(pushbox completions languages $app 2>/dev/null)\" -- \"$cur\")); return;;"
                    )
                case .none: if option.value != nil { valueCases.append("            \(option.name)) return;;") }
                }
            }
            let options = spec.options.map(\.name).joined(separator: " ")
            // The first operand from its words (device online, completions zsh), later ones as files.
            let operands =
                operandWords(spec).map {
                    "elif (( operands == 0 )); then COMPREPLY=($(compgen -W \"\($0.joined(separator: " "))\" -- \"$cur\")); "
                } ?? ""
            cases.append(
                """
                    \(name))
                        case "$prev" in
                \(valueCases.joined(separator: "\n"))
                        esac
                        if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "\(options)" -- "$cur")); \(operands)else COMPREPLY=($(compgen -f -- "$cur")); fi
                        ;;
                """)
        }
        return """
            # bash completion for pushbox, generated from its command table (pushbox completions bash).
            _pushbox() {
                local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}" command="__root" app="" i operands=0
                for ((i = 1; i < COMP_CWORD; i++)); do
                    case "${COMP_WORDS[i]}" in
                        --app) app="--app ${COMP_WORDS[i+1]}";;
                        -*) ;;
                        *) if [[ "${COMP_WORDS[i-1]}" == --* ]]; then :
                           elif [[ "$command" == "__root" ]]; then command="${COMP_WORDS[i]}"
                           else operands=$((operands + 1)); fi;;
                    esac
                done
                if [[ "$command" == "__root" && "$cur" != -* && "$prev" != --* ]]; then
                    COMPREPLY=($(compgen -W "\(Pushbox.commands.map(\.name).joined(separator: " "))" -- "$cur"))
                    return
                fi
                case "$command" in
            \(cases.joined(separator: "\n"))
                esac
            }
            complete -o filenames -F _pushbox pushbox

            """
    }

    /// The zsh completion (`#compdef pushbox`), with `_arguments` per subcommand.
    static var zsh: String {
        func arguments(_ spec: CommandSpec) -> String {
            spec.options.map { option -> String in
                let help = option.help.replacingOccurrences(of: "'", with: "'\\''").replacingOccurrences(of: "[", with: "(").replacingOccurrences(
                    of: "]", with: ")"
                ).replacingOccurrences(of: ":", with: "\\:")
                let action: String
                switch kind(of: option) {
                case .choices(let values): action = ":value:(\(values.joined(separator: " ")))"
                case .directory: action = ":folder:_files -/"
                case .file: action = ":file:_files"
                case .language: action = ":language:($(pushbox completions languages 2>/dev/null))"
                case .none: action = option.value.map { ":\($0.lowercased()):" } ?? ""
                }
                return "'\(option.repeatable ? "*" : "")\(option.name)[\(help.prefix(80))]\(action)'"
            }.joined(separator: " \\\n        ")
        }
        let commands = Pushbox.commands.map {
            "'\($0.name):\(ManPages.firstSentence($0.summary).replacingOccurrences(of: "'", with: "'\\''").replacingOccurrences(of: ":", with: "\\:").prefix(70))'"
        }
        let cases = Pushbox.commands.map { c in
            let first =
                operandWords(c).map { "'1:\(c.name == ManCommand.spec.name ? "command" : "action"):(\($0.joined(separator: " ")))' \\\n        " }
                ?? ""
            return "    (\(c.name))\n        _arguments \\\n        \(arguments(c)) \\\n        \(first)'*:file:_files';;"
        }
        return """
            #compdef pushbox
            # zsh completion for pushbox, generated from its command table (pushbox completions zsh).
            _pushbox() {
              local -a commands
              commands=(\(commands.joined(separator: " ")))
              if (( CURRENT == 2 )) && [[ "$words[2]" != -* ]]; then
                _describe 'command' commands
                return
              fi
              case "$words[2]" in
            \(cases.joined(separator: "\n"))
                (*)
                    _arguments \\
                    \(arguments(Pushbox.root));;
              esac
            }
            _pushbox "$@"

            """
    }

    /// The fish completions: one `complete` line per subcommand and option.
    static var fish: String {
        func quote(_ s: String) -> String { "'" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'" }
        var lines = ["# fish completions for pushbox, generated from its command table (pushbox completions fish).", "complete -c pushbox -f"]
        for c in Pushbox.commands {
            lines.append(
                "complete -c pushbox -n __fish_use_subcommand -a \(c.name) -d \(quote(String(ManPages.firstSentence(c.summary).prefix(80))))")
        }
        for spec in specs {
            let condition = spec.name.isEmpty ? "__fish_use_subcommand" : "'__fish_seen_subcommand_from \(spec.name)'"
            for option in spec.options {
                var line = "complete -c pushbox -n \(condition) -l \(option.name.dropFirst(2))"
                switch kind(of: option) {
                case .choices(let values): line += " -x -a \(quote(values.joined(separator: " ")))"
                case .directory: line += " -x -a '(__fish_complete_directories)'"
                case .file: line += " -r -F"
                case .language: line += " -x -a '(pushbox completions languages 2>/dev/null)'"
                case .none: if option.value != nil { line += " -x" }
                }
                lines.append(line + " -d \(quote(String(option.help.prefix(80))))")
            }
            if let words = operandWords(spec), !spec.name.isEmpty {
                lines.append("complete -c pushbox -n \(condition) -a \(quote(words.joined(separator: " ")))")
            } else if !spec.operands.isEmpty && !spec.name.isEmpty {
                lines.append("complete -c pushbox -n \(condition) -F")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The app's language tags: its iOS localizations and its Android folders' locales.
    static func languages(_ device: Device) -> [String] {
        guard let profile = device.profile else { return [] }
        var tags = AppLocalizations(directory: profile.directory, developmentRegion: profile.developmentRegion).localizations(table: "Localizable")
            .filter { $0 != "Base" }
        if let res = profile.android.resources ?? AndroidResources.find(in: profile.directory) {
            tags += AndroidResources(res: res).locales.map(\.description)
        }
        return Array(Set(tags)).sorted()
    }
}

/// `pushbox completions bash|zsh|fish` (and `languages`, which the completions call for `--lang`).
enum CompletionsCommand {
    static let spec = CommandSpec(
        name: "completions",
        summary:
            "Print shell completions for bash, zsh or fish, generated from the command table (source <(pushbox completions bash)); languages prints the app's language tags, which they offer for --lang.",
        operands: "bash|zsh|fish|languages", options: [Options.app],
        run: { args, io in
            switch args.operands.first {
            case "bash": io.out(String(Completions.bash.dropLast()))
            case "zsh": io.out(String(Completions.zsh.dropLast()))
            case "fish": io.out(String(Completions.fish.dropLast()))
            case "languages":
                do { io.out(Completions.languages(try Device.from(args, defaultApp: true, inbox: true, io: io)).joined(separator: "\n")) } catch {
                    io.err("pushbox completions: \(error)")
                    return 2
                }
            default:
                io.err("pushbox completions: give bash, zsh or fish (or languages)")
                return 2
            }
            return 0
        })
}
