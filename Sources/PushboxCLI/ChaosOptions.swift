import PushboxIntake

/// `--chaos RULE` for serve, the terminal inbox and exec: rules read before anything starts
/// (a rule that cannot be read is a usage error), added once the intake runs.
enum ChaosOptions {
    static let options = [Options.chaos]

    /// The rules given, read.
    static func rules(_ args: ParsedArguments) throws(UsageError) -> [ChaosRule] {
        var out: [ChaosRule] = []
        for text in args.all(Options.chaos) {
            do { out.append(try ChaosRule.parse(text)) } catch {
                throw UsageError(message: "--chaos \(text): \(error)")
            }
        }
        return out
    }

    /// Adds them to a running intake's rules.
    static func apply(_ rules: [ChaosRule], to router: APIRouter) {
        for rule in rules { router.chaos.add(rule) }
    }
}
