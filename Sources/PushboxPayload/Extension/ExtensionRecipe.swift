/// What the app's Notification Service Extension does, declared in `pushbox.json`: ordered
/// steps, each critical or optional, a time limit and a fallback policy.
public struct ExtensionRecipe: Sendable, Equatable {
    /// What is handed over when time runs out: the best attempt, or the original content.
    public enum Fallback: String, Sendable {
        case bestAttempt = "best-attempt"
        case original
    }

    /// A step the extension can take.
    public enum Step: Sendable, Equatable {
        /// Decrypt the base64 AES-256-GCM value at `field`; the plaintext JSON object's fields
        /// replace the alert's (only those in `replaces`, when given).
        case decrypt(field: String, keyFile: String?, replaces: [String]?)
        /// Localize from custom keys: key paths of the title/subtitle/body keys and of their arguments.
        case localize(LocalizeStep)
        /// Attach the first media URL found among the candidate key paths.
        case attach(candidates: [String])
        /// Donate a communication intent (`INSendMessageIntent`) from the payload and update the
        /// content from it: the sender as the title, the group as the subtitle, the avatar.
        case communicate(CommunicateStep)

        /// The step's name as recipes and traces write it.
        public var name: String {
            switch self {
            case .decrypt: return "decrypt"
            case .localize: return "localize-custom"
            case .attach: return "attach"
            case .communicate: return "communicate"
            }
        }
    }

    /// Where the custom keys and their arguments are in the payload.
    public struct LocalizeStep: Sendable, Equatable {
        /// The key path of the title's localization key (`data.subsMsgTitleKey`).
        public var titleKey: String?
        /// The key path of the subtitle's localization key.
        public var subtitleKey: String?
        /// The key path of the body's localization key.
        public var bodyKey: String?
        /// The argument array for every key, unless a per-field one is given.
        public var args: String?
        /// The key path of the title's own argument array.
        public var titleArgs: String?
        /// The key path of the subtitle's own argument array.
        public var subtitleArgs: String?
        /// The key path of the body's own argument array.
        public var bodyArgs: String?

        /// A localize step from its key paths.
        public init(
            titleKey: String? = nil, subtitleKey: String? = nil, bodyKey: String? = nil, args: String? = nil,
            titleArgs: String? = nil, subtitleArgs: String? = nil, bodyArgs: String? = nil
        ) {
            self.titleKey = titleKey
            self.subtitleKey = subtitleKey
            self.bodyKey = bodyKey
            self.args = args
            self.titleArgs = titleArgs
            self.subtitleArgs = subtitleArgs
            self.bodyArgs = bodyArgs
        }
    }

    /// A step and whether the extension gives up when it fails.
    public struct PlannedStep: Sendable, Equatable {
        /// What the step does.
        public var step: Step
        /// Whether its failure ends the extension (the fallback then applies).
        public var critical: Bool

        /// A planned step.
        public init(_ step: Step, critical: Bool) {
            self.step = step
            self.critical = critical
        }
    }

    /// The steps in order: critical ones one after another, then optional ones together.
    public var steps: [PlannedStep]
    /// Seconds the extension has (iOS gives about 30).
    public var timeLimit: Double
    /// What is shown when a critical step fails or time runs out.
    public var fallback: Fallback
    /// True when no profile gave a recipe.
    public var isDefault = false

    /// The step that donates a communication intent, when the recipe has one.
    public var communicateStep: CommunicateStep? {
        steps.lazy.compactMap { if case .communicate(let spec) = $0.step { spec } else { nil } }.first
    }

    /// A recipe: steps in order, the time limit (iOS gives 30 s), and the fallback.
    public init(steps: [PlannedStep], timeLimit: Double = 30, fallback: Fallback = .bestAttempt) {
        self.steps = steps
        self.timeLimit = timeLimit
        self.fallback = fallback
    }

    /// The media keys the default recipe looks at, in order.
    public static let defaultMediaKeys = ["image", "media_url", "attachment-url", "fcm_options.image"]

    /// Without a profile's recipe: decrypt a top-level `encrypted_data` when a key is given, attach
    /// from the first of the usual media keys, 30 seconds, best attempt.
    public static func defaultRecipe(keyGiven: Bool) -> ExtensionRecipe {
        var steps: [PlannedStep] = []
        if keyGiven { steps.append(PlannedStep(.decrypt(field: "encrypted_data", keyFile: nil, replaces: nil), critical: true)) }
        steps.append(PlannedStep(.attach(candidates: defaultMediaKeys), critical: false))
        var recipe = ExtensionRecipe(steps: steps)
        recipe.isDefault = true
        return recipe
    }
}

/// An action button of a notification category.
public struct NotificationAction: Sendable, Equatable {
    /// The action's identifier, as the app receives it.
    public var identifier: String
    /// The button's title as written.
    public var title: String?
    /// A key in the app's strings the title is localized from.
    public var titleLocKey: String?
    /// Foreground, destructive, authentication required.
    public var options: [ActionOption]
}

/// UNNotificationActionOptions, by the names `pushbox.json` uses.
public enum ActionOption: String, Sendable, CaseIterable {
    /// The app opens when the action is chosen.
    case foreground
    /// Shown in red: the action deletes or stops something.
    case destructive
    /// The device must be unlocked first.
    case authenticationRequired
}

/// A category: the actions a notification with `aps.category` offers, and how iOS words its
/// stack and its hidden previews (`UNNotificationCategory`).
public struct NotificationCategory: Sendable, Equatable {
    /// The category's identifier (`aps.category`).
    public var identifier: String
    /// Its buttons, in order.
    public var actions: [NotificationAction]
    /// `categorySummaryFormat`: a key of the app's strings (or the text itself) with `%u` for the
    /// count and, optionally, `%@` ("%u more messages from %@"), the line under a collapsed stack.
    public var summaryFormat: String? = nil
    /// `hiddenPreviewsBodyPlaceholder`: a key of the app's strings (or the text), shown instead of
    /// the body when previews are hidden; `%u` is the number in the thread.
    public var hiddenPreviewsBodyPlaceholder: String? = nil
    /// `hiddenPreviewsShowTitle`: the title stays when previews are hidden.
    public var hiddenPreviewsShowTitle = false
    /// `hiddenPreviewsShowSubtitle`: the subtitle stays when previews are hidden.
    public var hiddenPreviewsShowSubtitle = false

    /// A category with its buttons; the stack and hidden-preview wording are optional.
    public init(
        identifier: String, actions: [NotificationAction], summaryFormat: String? = nil, hiddenPreviewsBodyPlaceholder: String? = nil,
        hiddenPreviewsShowTitle: Bool = false, hiddenPreviewsShowSubtitle: Bool = false
    ) {
        self.identifier = identifier
        self.actions = actions
        self.summaryFormat = summaryFormat
        self.hiddenPreviewsBodyPlaceholder = hiddenPreviewsBodyPlaceholder
        self.hiddenPreviewsShowTitle = hiddenPreviewsShowTitle
        self.hiddenPreviewsShowSubtitle = hiddenPreviewsShowSubtitle
    }
}
