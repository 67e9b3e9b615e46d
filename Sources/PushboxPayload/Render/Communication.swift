import PushboxJSON

/// What a communication notification (iOS 15) carries once the service extension donated its
/// intent (`INSendMessageIntent`) and updated the content from it: the sender, shown as the
/// title with their avatar badged with the app's icon, the group's name as the subtitle.
public struct Communication: Sendable, Equatable {
    /// The sender's display name (`INPerson.displayName`).
    public var sender: String
    /// Their handle (`INPersonHandle`), which a Focus's allowed people are matched against.
    public var handle: String?
    /// The group's name (`speakableGroupName`); nil for a one-to-one conversation.
    public var group: String?
    /// `conversationIdentifier`.
    public var conversation: String?
    /// The avatar, downloaded within the extension's budget as an attachment is.
    public var avatar: RenderedAttachment?
    /// The donated interaction's direction: `incoming` (a message received, as Apple's guide
    /// donates it) or `outgoing` (the user's own, sent from another device).
    public var direction: String

    public init(
        sender: String, handle: String? = nil, group: String? = nil, conversation: String? = nil, avatar: RenderedAttachment? = nil,
        direction: String = "incoming"
    ) {
        self.sender = sender
        self.handle = handle
        self.group = group
        self.conversation = conversation
        self.avatar = avatar
        self.direction = direction
    }

    /// As `render --json` writes it.
    public var json: JSONValue {
        .object(
            JSONObject([
                ("sender", .string(sender)), ("handle", .optionalString(handle)), ("group", .optionalString(group)),
                ("conversation", .optionalString(conversation)), ("avatar", avatar?.json ?? .null), ("direction", .string(direction)),
            ]))
    }

    /// Read back from its JSON.
    public init?(json: JSONValue) {
        guard let o = json.objectValue, let sender = o["sender"]?.stringValue else { return nil }
        self.init(
            sender: sender, handle: o["handle"]?.stringValue, group: o["group"]?.stringValue, conversation: o["conversation"]?.stringValue,
            avatar: o["avatar"].flatMap(RenderedAttachment.init(json:)), direction: o["direction"]?.stringValue ?? "incoming")
    }
}

extension Diagnostic.Code {
    public static let communicationCapability = Self(
        "communication-capability", .warning,
        "The recipe donates a communication intent, but the app lacks the Communication Notifications capability.")
    public static let communicationAvatarFileURL = Self(
        "communication-avatar-file-url", .warning,
        "The avatar is a `file://` URL, which does not persist once the extension ends.")
    public static let communicationAvatarFailed = Self(
        "communication-avatar-failed", .warning,
        "The avatar could not be had within the extension's budget (or at all).")
    public static let communicationGroupOneToOne = Self(
        "communication-group-one-to-one", .warning,
        "A group name given for a conversation with one other person.")
    public static let communicationOutgoing = Self(
        "communication-outgoing", .warning,
        "The payload says the message is the user's own (outgoing); Apple's guide donates received ones.")
}

extension ExtensionRecipe {
    /// Where the communication step finds what it donates, as key paths into the payload.
    public struct CommunicateStep: Sendable, Equatable {
        /// The sender's display name (required).
        public var sender: String
        public var handle: String?
        /// The avatar's URL (downloaded) or `file://` path.
        public var avatar: String?
        /// The group's name (`speakableGroupName`).
        public var group: String?
        public var conversation: String?
        /// The recipients (an array, or a number): a group name for one recipient is a finding.
        public var recipients: String?
        /// The message's direction (`incoming` or `outgoing`); absent: incoming.
        public var direction: String?

        public init(
            sender: String, handle: String? = nil, avatar: String? = nil, group: String? = nil, conversation: String? = nil,
            recipients: String? = nil,
            direction: String? = nil
        ) {
            self.direction = direction
            self.sender = sender
            self.handle = handle
            self.avatar = avatar
            self.group = group
            self.conversation = conversation
            self.recipients = recipients
        }
    }
}
