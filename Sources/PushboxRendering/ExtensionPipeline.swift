import Foundation
import PushboxFetch
import PushboxJSON
import PushboxLocalization
import PushboxPayload
import PushboxSystem

/// Everything the extension can use besides the payload.
public struct ExtensionEnvironment: Sendable {
    /// The steps to run.
    public var recipe: ExtensionRecipe
    /// The app's localizations, for custom keys.
    public var localizer: Localizer?
    /// The device's languages.
    public var preferredLanguages: [String]
    /// Where attachments come from (nil: none are fetched).
    public var fetcher: AttachmentFetcher?
    /// The app folder: key files in the recipe are relative to it.
    public var appDirectory: String?
    /// `--key FILE`, which wins over the recipe's key file.
    public var keyFile: String?
    /// The payload file's folder, for media paths written without a scheme.
    public var payloadDirectory: String?
    /// The app's capabilities (nil: not known, not judged): a communication intent needs its own.
    public var capabilities: Set<AppCapability>? = nil

    /// Everything a run of the extension can use.
    public init(
        recipe: ExtensionRecipe, localizer: Localizer? = nil, preferredLanguages: [String] = ["en"], fetcher: AttachmentFetcher? = nil,
        appDirectory: String? = nil, keyFile: String? = nil, payloadDirectory: String? = nil
    ) {
        self.recipe = recipe
        self.localizer = localizer
        self.preferredLanguages = preferredLanguages
        self.fetcher = fetcher
        self.appDirectory = appDirectory
        self.keyFile = keyFile
        self.payloadDirectory = payloadDirectory
    }
}

/// What the extension handed over.
public struct ExtensionOutcome: Sendable {
    /// The content handed over.
    public var content: AlertContent
    /// The attachments handed over.
    public var attachments: [FetchedAttachment]
    /// Modified, best attempt or original.
    public var delivered: Delivery
    /// A trace entry per step.
    public var trace: [TraceEntry]
    /// What the steps warned about.
    public var warnings: [Diagnostic]
    /// The communication intent the content was updated from, when one was donated.
    public var communication: Communication? = nil
    /// Its avatar, when it was had within the budget.
    public var avatar: FetchedAttachment? = nil
}

/// The work in progress, shared between the extension's worker and the deadline: once the
/// deadline hands over, the attempt is closed and late results are ignored.
final class ExtensionAttempt: Sendable {
    struct State {
        var content: AlertContent
        var payload: JSONObject
        var attachments: [FetchedAttachment] = []
        var communication: Communication?
        var avatar: FetchedAttachment?
        var trace: [TraceEntry] = []
        var warnings: [Diagnostic] = []
        var criticalFailure: String?
        var running: Set<String> = []
        /// Steps cut off because the budget ran out (their timeout was the time left).
        var cutByBudget: Set<String> = []
    }

    /// The attempt, and whether the deadline has closed it.
    private let guarded: Locked<(state: State, closed: Bool)>
    let cancel = CancelFlag()

    init(content: AlertContent, payload: JSONObject) {
        guarded = Locked((State(content: content, payload: payload), false))
    }

    func read() -> State { guarded.withLock { $0.state } }

    func update(_ change: (inout State) -> Void) {
        guarded.withLock { g in if !g.closed { change(&g.state) } }
    }

    /// Stops accepting changes and returns the attempt as it stands.
    func close() -> State {
        guarded.withLock { g in
            g.closed = true
            return g.state
        }
    }
}

/// Runs a Notification Service Extension recipe the way iOS runs an extension: only when
/// `mutable-content` is 1 and the alert is visible; within one deadline; critical steps first,
/// in order, then optional ones concurrently; when time runs out, the best attempt (or the
/// original, per the recipe) is handed over at once and running work is cancelled.
public enum ExtensionPipeline {
    /// Whether iOS would start the extension, and if not, why.
    public static func shouldRun(_ aps: JSONObject) -> (run: Bool, reason: String, cause: TraceEntry.Cause?) {
        guard aps["mutable-content"]?.intValue == 1 else {
            return (false, "mutable-content is not 1, so iOS does not start the extension", .noMutableContent)
        }
        let visible: Bool
        switch aps["alert"] {
        case .string(let s): visible = !s.isEmpty
        case .object(let a): visible = ["title", "subtitle", "body", "loc-key", "title-loc-key", "subtitle-loc-key"].contains { a[$0] != nil }
        default: visible = false
        }
        guard visible else {
            return (
                false,
                "the alert has no title, subtitle or body, so iOS does not start the extension (silent, badge- or sound-only pushes never run it)",
                .nothingVisible
            )
        }
        return (true, "mutable-content is 1 and the alert is visible", nil)
    }

    /// Runs the recipe on the payload within its deadline and hands over what iOS would show.
    public static func run(payload: JSONObject, content: AlertContent, environment env: ExtensionEnvironment) -> ExtensionOutcome {
        let clock = ContinuousClock()
        let start = clock.now
        let recipe = env.recipe
        let deadline = start + .milliseconds(Int(recipe.timeLimit * 1000))
        let attempt = ExtensionAttempt(content: content, payload: payload)
        // Only an attachment to fetch can keep a step waiting; without one, every step is a few
        // microseconds of work and runs here, sparing two threads per notification.
        guard recipe.steps.contains(where: { ExtensionSteps.mayWait($0.step, payload: payload) }) else {
            runSteps(recipe, attempt: attempt, env: env, deadline: deadline, optionalOnThreads: false)
            return finish(attempt: attempt, content: content, recipe: recipe, completed: true, start: start)
        }
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread { @Sendable in
            runSteps(recipe, attempt: attempt, env: env, deadline: deadline, optionalOnThreads: true)
            done.signal()
        }

        let remaining = deadline - clock.now
        let completed = done.wait(timeout: .now() + .milliseconds(max(0, Int(milliseconds(remaining))))) == .success
        if !completed { attempt.cancel.cancel() }
        return finish(attempt: attempt, content: content, recipe: recipe, completed: completed, start: start)
    }

    /// The critical steps in order, stopping at the first that fails; then, if none failed, the
    /// optional ones (at once on threads of their own, or one after another).
    static func runSteps(
        _ recipe: ExtensionRecipe, attempt: ExtensionAttempt, env: ExtensionEnvironment, deadline: ContinuousClock.Instant,
        optionalOnThreads: Bool
    ) {
        for planned in recipe.steps where planned.critical {
            guard ExtensionSteps.run(planned, attempt: attempt, env: env, deadline: deadline) else {
                attempt.update { $0.criticalFailure = "critical step \(planned.step.name) failed" }
                return
            }
        }
        let optional = recipe.steps.filter { !$0.critical }
        guard optionalOnThreads else {
            for planned in optional { _ = ExtensionSteps.run(planned, attempt: attempt, env: env, deadline: deadline) }
            return
        }
        let group = DispatchGroup()
        for planned in optional {
            group.enter()
            Thread.detachNewThread { @Sendable in
                _ = ExtensionSteps.run(planned, attempt: attempt, env: env, deadline: deadline)
                group.leave()
            }
        }
        group.wait()
    }

    /// Closes the attempt and hands over what iOS would show: the attempt, the best attempt when
    /// time ran out, or the original.
    static func finish(
        attempt: ExtensionAttempt, content: AlertContent, recipe: ExtensionRecipe, completed: Bool,
        start: ContinuousClock.Instant
    ) -> ExtensionOutcome {
        let clock = ContinuousClock()
        var state = attempt.close()
        // A download that stopped at the budget is the deadline too, whichever thread noticed first.
        let finished = completed && state.cutByBudget.isEmpty
        let elapsed = milliseconds(clock.now - start)
        var delivered: Delivery
        let changed = state.content != content || !state.attachments.isEmpty || state.communication != nil
        if !finished {
            let unfinished = state.running.union(state.cutByBudget).sorted().joined(separator: ", ")
            delivered = recipe.fallback == .bestAttempt ? .bestAttempt : .original
            state.trace.append(
                TraceEntry(
                    step: .deadline, ms: elapsed, outcome: .expired, cause: .timeLimit,
                    detail:
                        "the \(formatSeconds(recipe.timeLimit)) s limit ran out\(unfinished.isEmpty ? "" : " during \(unfinished), which was cancelled"); serviceExtensionTimeWillExpire hands over \(delivered == .bestAttempt ? "the best attempt" : "the original content (fallback: original)")"
                ))
        } else if let failure = state.criticalFailure {
            delivered = recipe.fallback == .bestAttempt ? .bestAttempt : .original
            state.trace.append(
                TraceEntry(
                    step: .`extension`, ms: elapsed, outcome: .failed, cause: .criticalStepFailed,
                    detail:
                        "\(failure); the content handler gets \(delivered == .bestAttempt ? "the best attempt" : "the original content (fallback: original)")"
                ))
        } else {
            delivered = changed ? .modified : .original
            state.trace.append(
                TraceEntry(
                    step: .`extension`, ms: elapsed, outcome: .finished,
                    detail: changed ? "the content handler got the modified content" : "the extension ran and changed nothing"))
        }
        if delivered == .original {
            return ExtensionOutcome(content: content, attachments: [], delivered: .original, trace: state.trace, warnings: state.warnings)
        }
        return ExtensionOutcome(
            content: state.content, attachments: state.attachments, delivered: delivered, trace: state.trace, warnings: state.warnings,
            communication: state.communication, avatar: state.avatar)
    }

    static func formatSeconds(_ s: Double) -> String {
        s == s.rounded() ? String(Int(s)) : String(s)
    }
}
