import PushboxJSON

/// Reads the typed parts of `pushbox.json`, each error naming the path of the bad field.
struct ProfileReader {
    let file: String

    func fail(_ path: String, _ message: String) -> AppProfile.LoadError {
        AppProfile.LoadError(file: file, path: path, message: message)
    }

    func object(_ value: JSONValue?, _ path: String, known: [String]) throws(AppProfile.LoadError) -> JSONObject? {
        guard let value else { return nil }
        guard let object = value.objectValue else { throw fail(path, "must be an object, not \(value.typeDescription)") }
        for key in object.keys where !known.contains(key) {
            throw fail(path.isEmpty ? key : "\(path).\(key)", "unknown key (known: \(known.joined(separator: ", ")))")
        }
        return object
    }

    func string(_ value: JSONValue?, _ path: String) throws(AppProfile.LoadError) -> String? {
        guard let value else { return nil }
        guard let s = value.stringValue else { throw fail(path, "must be a string, not \(value.typeDescription)") }
        return s
    }

    func strings(_ value: JSONValue?, _ path: String) throws(AppProfile.LoadError) -> [String]? {
        guard let value else { return nil }
        guard let array = value.arrayValue else { throw fail(path, "must be an array of strings, not \(value.typeDescription)") }
        var out: [String] = []
        for (i, item) in array.enumerated() {
            guard let s = item.stringValue else { throw fail("\(path)[\(i)]", "must be a string, not \(item.typeDescription)") }
            out.append(s)
        }
        return out
    }

    func bool(_ value: JSONValue?, _ path: String) throws(AppProfile.LoadError) -> Bool? {
        guard let value else { return nil }
        guard case .bool(let b) = value else { throw fail(path, "must be true or false, not \(value.typeDescription)") }
        return b
    }

    /// `categories`: identifier → { actions: [{identifier, title | title-loc-key, options}],
    /// categorySummaryFormat, hiddenPreviewsBodyPlaceholder, hiddenPreviewsShowTitle,
    /// hiddenPreviewsShowSubtitle } (UNNotificationCategory's names).
    func categories(_ value: JSONValue?) throws(AppProfile.LoadError) -> [NotificationCategory] {
        guard let value else { return [] }
        guard let dict = value.objectValue else {
            throw fail("categories", "must be an object of category identifiers, not \(value.typeDescription)")
        }
        var out: [NotificationCategory] = []
        for (identifier, body) in dict.entries {
            let path = "categories.\(identifier)"
            let category =
                try object(
                    body, path,
                    known: ProfileSchema.keys(of: "categories.ID"))
                ?? JSONObject()
            var actions: [NotificationAction] = []
            guard let list = category["actions"]?.arrayValue ?? (category["actions"] == nil ? [] : nil) else {
                throw fail("\(path).actions", "must be an array of actions")
            }
            for (i, item) in list.enumerated() {
                let p = "\(path).actions[\(i)]"
                let action = try object(item, p, known: ProfileSchema.keys(of: "categories.ID.actions[]")) ?? JSONObject()
                guard let id = try string(action["identifier"], "\(p).identifier"), !id.isEmpty else { throw fail("\(p).identifier", "is required") }
                let title = try string(action["title"], "\(p).title")
                let key = try string(action["title-loc-key"], "\(p).title-loc-key")
                if title == nil && key == nil { throw fail(p, "needs a title or a title-loc-key") }
                let options = try strings(action["options"], "\(p).options") ?? []
                var typed: [ActionOption] = []
                for (j, option) in options.enumerated() {
                    guard let known = ActionOption(rawValue: option) else {
                        throw fail(
                            "\(p).options[\(j)]", "\"\(option)\" is not one of \(ActionOption.allCases.map(\.rawValue).joined(separator: ", "))")
                    }
                    typed.append(known)
                }
                actions.append(NotificationAction(identifier: id, title: title, titleLocKey: key, options: typed))
            }
            out.append(
                NotificationCategory(
                    identifier: identifier, actions: actions,
                    summaryFormat: try string(category["categorySummaryFormat"], "\(path).categorySummaryFormat"),
                    hiddenPreviewsBodyPlaceholder: try string(category["hiddenPreviewsBodyPlaceholder"], "\(path).hiddenPreviewsBodyPlaceholder"),
                    hiddenPreviewsShowTitle: try bool(category["hiddenPreviewsShowTitle"], "\(path).hiddenPreviewsShowTitle") ?? false,
                    hiddenPreviewsShowSubtitle: try bool(category["hiddenPreviewsShowSubtitle"], "\(path).hiddenPreviewsShowSubtitle") ?? false))
        }
        return out
    }

    /// `extension`: { timeLimit, fallback, steps: [{type, critical, …}] }.
    func recipe(_ value: JSONValue?) throws(AppProfile.LoadError) -> ExtensionRecipe? {
        guard let ext = try object(value, "extension", known: ProfileSchema.keys(of: "extension")) else { return nil }
        var recipe = ExtensionRecipe(steps: [])
        if let limit = ext["timeLimit"] {
            guard let seconds = limit.doubleValue, seconds > 0, seconds <= 300 else {
                throw fail("extension.timeLimit", "must be a number of seconds between 0 and 300")
            }
            recipe.timeLimit = seconds
        }
        if let fallback = try string(ext["fallback"], "extension.fallback") {
            guard let f = ExtensionRecipe.Fallback(rawValue: fallback) else {
                throw fail("extension.fallback", "must be \"best-attempt\" or \"original\"")
            }
            recipe.fallback = f
        }
        guard let steps = ext["steps"] else { return recipe }
        guard let list = steps.arrayValue else { throw fail("extension.steps", "must be an array of steps") }
        for (i, item) in list.enumerated() {
            let p = "extension.steps[\(i)]"
            guard let type = item.objectValue?["type"]?.stringValue else {
                throw fail("\(p).type", "is required: decrypt, localize, attach or communicate")
            }
            let step: ExtensionRecipe.Step
            switch type {
            case "decrypt":
                let o = try object(item, p, known: ProfileSchema.stepKeys(type)) ?? JSONObject()
                step = .decrypt(
                    field: try string(o["field"], "\(p).field") ?? "encrypted_data",
                    keyFile: try string(o["keyFile"], "\(p).keyFile"),
                    replaces: try strings(o["replaces"], "\(p).replaces"))
            case "localize":
                let o =
                    try object(
                        item, p, known: ProfileSchema.stepKeys(type))
                    ?? JSONObject()
                let s = ExtensionRecipe.LocalizeStep(
                    titleKey: try string(o["titleKey"], "\(p).titleKey"), subtitleKey: try string(o["subtitleKey"], "\(p).subtitleKey"),
                    bodyKey: try string(o["bodyKey"], "\(p).bodyKey"), args: try string(o["args"], "\(p).args"),
                    titleArgs: try string(o["titleArgs"], "\(p).titleArgs"), subtitleArgs: try string(o["subtitleArgs"], "\(p).subtitleArgs"),
                    bodyArgs: try string(o["bodyArgs"], "\(p).bodyArgs"))
                if s.titleKey == nil && s.subtitleKey == nil && s.bodyKey == nil {
                    throw fail(p, "a localize step needs titleKey, subtitleKey or bodyKey")
                }
                step = .localize(s)
            case "attach":
                let o = try object(item, p, known: ProfileSchema.stepKeys(type)) ?? JSONObject()
                guard let urls = try strings(o["urls"], "\(p).urls"), !urls.isEmpty else {
                    throw fail("\(p).urls", "is required: key paths of media URLs, first found wins")
                }
                step = .attach(candidates: urls)
            case "communicate":
                let o = try object(item, p, known: ProfileSchema.stepKeys(type)) ?? JSONObject()
                guard let sender = try string(o["sender"], "\(p).sender") else {
                    throw fail("\(p).sender", "is required: the key path of the sender's display name")
                }
                step = .communicate(
                    ExtensionRecipe.CommunicateStep(
                        sender: sender, handle: try string(o["handle"], "\(p).handle"), avatar: try string(o["avatar"], "\(p).avatar"),
                        group: try string(o["group"], "\(p).group"), conversation: try string(o["conversation"], "\(p).conversation"),
                        recipients: try string(o["recipients"], "\(p).recipients"), direction: try string(o["direction"], "\(p).direction")))
            default:
                throw fail("\(p).type", "\"\(type)\" is not decrypt, localize, attach or communicate")
            }
            let critical = try bool(item.objectValue?["critical"], "\(p).critical") ?? (type != "attach" && type != "communicate")
            recipe.steps.append(ExtensionRecipe.PlannedStep(step, critical: critical))
        }
        return recipe
    }
}
