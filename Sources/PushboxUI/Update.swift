import Foundation
import PushboxDevice
import PushboxJSON
import PushboxLocalization
import PushboxPayload

/// Everything that happens to the UI arrives as a message on one queue.
public enum Message: Sendable {
    case key(Key)
    case resize(width: Int, height: Int)
    case loaded([InboxItem])
    /// New notifications (one, or a burst coalesced by the runtime), newest last, each with its
    /// rendering: nothing is asked for them.
    case arrived([ArrivedItem])
    /// A thumbnail made for a card.
    case thumbnailReady(ThumbnailRequest, Thumbnail)
    /// The pretty-printed payload of one notification, loaded when first looked at.
    case rawLoaded(id: Int64, text: String)
    /// Older notifications, loaded after the first page.
    case older([InboxItem])
    /// Another process changed the inbox (a push it took in, a delete, the device back online):
    /// the whole list as it is now, the selection kept on its notification.
    case reloaded([InboxItem])
    case rendered([Int64: RenderedNotification], languageKey: String)
    case matrixReady([(language: String, note: RenderedNotification)])
    /// The pending local notifications and the clock changed.
    case scheduled(ScheduledInfo)
    /// The device's Live Activities now.
    case activities(ActivitiesInfo)
    /// The fleet view's push on every device.
    case fleetReady(FleetSummary)
    /// The requests on record, newest first.
    case requests([RequestLine])
    /// The chaos rules changed (here, from a shell, or from the API).
    case chaos(ChaosPanel)
    /// The device's registration as its file now says (installed, online).
    case registration(DeviceRegistration)
    /// Where notifications now stand in delivery, by id.
    case deliveries([Int64: DeliveryRecord])
    /// What the runtime has to say in the footer (a replay's answer, a failure).
    case status(String)
    /// The terminal's palette for thumbnails changed (256, 16 or 8 colours; 0 draws none).
    case palette(Int)
    case click(x: Int, y: Int)
    case wheel(up: Bool)
}

/// A new notification as the inbox receives it: its list item and its rendering for the
/// language list `languageKey` names.
public struct ArrivedItem: Sendable {
    /// The list's item.
    public var item: InboxItem
    /// Its rendering; nil: not rendered (it is asked for when shown).
    public var rendering: RenderedNotification?
    /// The language list it was rendered for (`RenderKey.languageKey`).
    public var languageKey: String

    /// An arrival with its rendering for `languageKey` (none: asked for when shown).
    public init(_ item: InboxItem, rendering: RenderedNotification? = nil, languageKey: String = "") {
        self.item = item
        self.rendering = rendering
        self.languageKey = languageKey
    }
}

/// What `update` asks the outside world to do; results come back as messages.
public enum Command: Sendable, Equatable {
    /// Render these notifications for this language list (from the store's cache or anew).
    case render(ids: [Int64], languages: [String])
    /// Load the pretty-printed payload of a notification.
    case loadRaw(id: Int64)
    /// Read the requests on record (for the Requests view).
    case loadRequests
    /// Chaos: the rules read again, one added from its text, switched, removed, all cleared.
    case loadChaos
    case addChaosRule(String)
    case setChaosRule(id: Int, active: Bool)
    case removeChaosRule(id: Int)
    case clearChaos
    /// Read the device's Live Activities (for their view).
    case loadActivities
    /// Install or uninstall the device's app.
    case setAppInstalled(Bool)
    /// Bring a deleted notification back.
    case undelete(id: Int64)
    /// Take the device offline, or bring it back (what was kept is delivered from storage).
    case setDeviceOnline(Bool)
    /// Read again where these notifications stand in delivery.
    case refreshDeliveries([Int64])
    /// Make the thumbnail of an image file in this many cells, for this palette.
    case thumbnail(ThumbnailRequest)
    case matrix(id: Int64, languages: [String])
    case replay(id: Int64)
    case delete(id: Int64)
    /// Delete every notification in the store (`X`, confirmed).
    case clearInbox
    case export(id: Int64)
    /// Remember the language list in the config.
    case saveLanguages([String])
    /// The selected push on every device of the fleet (for the fleet view).
    case fleet(id: Int64)
    /// Change an added device of the fleet (nil: bring it back online).
    case changeFleetDevice(name: String, change: DeviceChange?)
    /// Move the device clock forward (delivering what falls due).
    case advanceClock(seconds: Double)
    /// Jump the device clock to the next pending local notification.
    case jumpClock
    /// End the program (the loop stops; nothing else happens).
    case quit
}

extension InboxState {
    /// The Elm-style update: applies one message and returns the commands it causes.
    public mutating func update(_ message: Message) -> [Command] {
        var commands: [Command] = []
        switch message {
        case .resize(let w, let h):
            width = w
            height = h
        case .loaded(let items): list.load(items)
        case .older(let items): list.appendOlder(items)
        case .reloaded(let items): list.reload(items)
        case .arrived(let arrivals):
            let items = arrivals.map(\.item)
            // Rendered for the device's languages before they came: nothing to ask for.
            var made: [Int64: RenderedNotification] = [:]
            for a in arrivals where a.languageKey == device.key { made[a.item.id] = a.rendering }
            if !made.isEmpty { renders.merge(made) { _, new in new } }
            list.insertNew(items)
            commands += refreshStored(after: items)
        case .thumbnailReady(let request, let thumbnail): thumbnails[request] = thumbnail
        case .rawLoaded(let id, let text): list.setRawText(text, id: id)
        case .rendered(let map, let key):
            if key == device.key { renders.merge(map) { _, new in new } }
        case .matrixReady(let results): matrix = results
        case .scheduled(let info): scheduled = info
        case .activities(let info): activities = info
        case .fleetReady(let summary): fleet = summary
        case .requests(let lines): requests = lines
        case .chaos(let panel):
            let (selection, typed) = (chaos.selection, chaos.typed)
            chaos = panel
            chaos.selection = min(selection, max(0, panel.rules.count - 1))
            chaos.typed = typed
        case .registration(let registration):
            self.registration = registration
            // A device removed meanwhile: back to the default one.
            if registration.device(named: shownDevice) == nil { commands += showDevice(FleetDevice.defaultName) }
            list.device = hasFleet ? shownDevice : nil
            list.platforms = registration.platforms
            let member = registration.device(named: shownDevice)
            appInstalled = member?.state.installed ?? registration.installed
            let online = member?.state.online ?? registration.online
            // Back online (here or from `pushbox device online`): what was kept was delivered or discarded.
            if online && !deviceOnline, !list.storedIDs.isEmpty { commands.append(.refreshDeliveries(list.storedIDs)) }
            deviceOnline = online
        case .deliveries(let changed): list.setDeliveries(changed)
        case .status(let text): status = .message(text)
        case .palette(let colours): palette = colours
        case .click(_, let y):
            overlay = nil
            let row = y - 1 + list.top
            if y >= 1, y < height - 1, row < rows.count { list.selected = row }
        case .wheel(let up): move(up ? -3 : 3)
        case .key(let key): commands += handle(key)
        }
        list.refreshRows(renders: renders, rendersVersion: rendersVersion, appName: appName)
        list.clamp(rowCount: rows.count, visible: listHeight)
        commands += missingRenders()
        return commands
    }

    /// A stored arrival may replace one stored before it (one per app for APNs, one per collapse
    /// key for FCM): where the others stand is read again.
    private func refreshStored(after arrived: [InboxItem]) -> [Command] {
        guard arrived.contains(where: { $0.delivery?.state == .stored }) else { return [] }
        let others = list.storedIDs.filter { id in !arrived.contains { $0.id == id } }
        return others.isEmpty ? [] : [.refreshDeliveries(others)]
    }

    /// A key goes to what has the focus: the search box, an open overlay, or the inbox. Every
    /// key reaches the program through a keymap table (`Keymap`), except text typed into search;
    /// a binding that cannot be done now says why in the footer.
    private mutating func handle(_ key: Key) -> [Command] {
        if overlay == .search {
            if !list.editSearch(key) { overlay = nil }
            return []
        }
        if case .languagePicker? = overlay, let typed = typedLanguage { return editTypedLanguage(key, typed) }
        if overlay == .chaos, let typed = chaos.typed { return editTypedChaosRule(key, typed) }
        let binding = Keymap.binding(for: key, in: Keymap.table(for: overlay))
        // Clearing asks once: only a second X confirms it.
        let confirmed = clearAsked && binding?.action == .clearInbox
        clearAsked = false
        guard let binding else { return [] }
        status = nil
        if confirmed { return clearInbox() }
        if let why = binding.unavailable?(self) {
            status = .unavailable(why)
            return []
        }
        if overlay == .scheduled { return performScheduled(binding.action) }
        if overlay == .chaos { return performChaos(binding.action) }
        if overlay == .activities, [.fastForward, .jumpClock].contains(binding.action) { return perform(binding.action) }
        if let overlay { return handleOverlay(binding.action, overlay) }
        return perform(binding.action)
    }

    /// The chaos view's keys: move, switch, add (typed), remove, clear, close.
    private mutating func performChaos(_ action: Action) -> [Command] {
        let selected = chaos.rules.indices.contains(chaos.selection) ? chaos.rules[chaos.selection] : nil
        switch action {
        case .moveDown: chaos.selection = min(chaos.selection + 1, max(0, chaos.rules.count - 1))
        case .moveUp: chaos.selection = max(0, chaos.selection - 1)
        case .toggleChaosRule: return selected.map { [.setChaosRule(id: $0.id, active: !$0.active)] } ?? []
        case .addChaosRule: chaos.typed = ""
        case .removeChaosRule: return selected.map { [.removeChaosRule(id: $0.id)] } ?? []
        case .clearChaos: return [.clearChaos]
        default: overlay = nil
        }
        return []
    }

    /// Typing a chaos rule: Enter adds it (the runtime reads it and says what is wrong), Esc forgets it.
    private mutating func editTypedChaosRule(_ key: Key, _ typed: String) -> [Command] {
        switch key {
        case .enter:
            chaos.typed = nil
            let rule = typed.trimmingCharacters(in: .whitespaces)
            return rule.isEmpty ? [] : [.addChaosRule(rule)]
        case .escape: chaos.typed = nil
        case .backspace: chaos.typed = String(typed.dropLast())
        case .char(let c): chaos.typed = typed + String(c)
        default: break
        }
        return []
    }

    /// The Scheduled view's keys: the device clock, and closing it.
    private mutating func performScheduled(_ action: Action) -> [Command] {
        switch action {
        case .fastForward, .jumpClock: return perform(action)
        default:
            overlay = nil
            return []
        }
    }

    /// Keys in an overlay: close it, or move and choose in the language picker.
    private mutating func handleOverlay(_ action: Action, _ overlay: Overlay) -> [Command] {
        switch (action, overlay) {
        case (.close, _):
            self.overlay = nil
        case (.moveDown, .languagePicker(let s)), (.moveUp, .languagePicker(let s)):
            self.overlay = .languagePicker(selection: device.moved(selection: s, by: action == .moveDown ? 1 : -1))
        case (.open, .languagePicker(let s)):
            self.overlay = nil
            // The language already in use (en-US shown as en) stays as it is: choosing it again
            // must not turn en-US into en, and with it the FCM language topic.
            if s == device.currentChoice { return [] }
            return switchLanguage(to: device.choices[s])
        case (.search, .languagePicker):
            typedLanguage = ""
        case (.open, _):
            self.overlay = nil
        case (.moveDown, _), (.moveUp, _), (.pageDown, _), (.pageUp, _):
            let page = max(1, height - 6)
            let step = action == .moveDown ? 1 : action == .moveUp ? -1 : action == .pageDown ? page : -page
            overlayScroll = max(0, overlayScroll + step)  // the view clamps it to the lines there are
        default:
            break
        }
        return []
    }

    /// An inbox action from the keymap.
    private mutating func perform(_ action: Action) -> [Command] {
        switch action {
        case .moveDown: move(1)
        case .moveUp: move(-1)
        case .pageDown: move(listHeight)
        case .pageUp: move(-listHeight)
        case .top: list.selected = 0
        case .bottom: list.selected = rows.count - 1
        case .open: card.open.toggle()
        case .nextTab: card.stepTab(1)
        case .previousTab: card.stepTab(-1)
        case .toggleThread: list.toggleSelectedThread(renders: renders, rendersVersion: rendersVersion, appName: appName)
        case .pickLanguage:
            typedLanguage = nil
            overlay = .languagePicker(selection: device.currentChoice ?? 0)
        case .nextLanguage, .previousLanguage:
            guard let language = device.stepped(action == .nextLanguage ? 1 : -1) else { return [] }
            return switchLanguage(to: language)
        case .localeMatrix:
            guard let item = selectedItem else { return [] }
            overlay = .matrix
            matrix = []
            return [.matrix(id: item.id, languages: device.choices)]
        case .lockScreenPreview:
            card.stepPreview()
            status = .preview(card.preview)
        case .pressAction: return pressAction()
        case .tap: return tap()
        case .switchPlatform: card.platform = card.platform.next(roomForBoth: InboxView.cardPaneWidth(self) - 2 >= InboxView.sideBySideWidth)
        case .scheduledView: overlay = .scheduled
        case .activitiesView:
            overlay = .activities
            overlayScroll = 0
            return [.loadActivities]
        case .chaosView:
            overlay = .chaos
            return [.loadChaos]
        case .requestsView:
            overlay = .requests
            return [.loadRequests]
        case .toggleInstalled:
            guard shownDevice == FleetDevice.defaultName else {
                return [.changeFleetDevice(name: shownDevice, change: appInstalled ? .uninstall : .install)]
            }
            return [.setAppInstalled(!appInstalled)]
        case .toggleOnline:
            guard shownDevice == FleetDevice.defaultName else {
                return [.changeFleetDevice(name: shownDevice, change: deviceOnline ? .offline : nil)]
            }
            return [.setDeviceOnline(!deviceOnline)]
        case .nextDevice: return stepDevice(1)
        case .previousDevice: return stepDevice(-1)
        case .fleetView:
            guard let item = selectedItem else { return [] }
            overlay = .fleet
            fleet = nil
            return [.fleet(id: item.id)]
        case .deviceView: overlay = .device
        case .clearInbox:
            clearAsked = true
            status = .clearAsked(list.items.count)
        case .undoDelete:
            guard let item = lastDeleted else { return [] }
            lastDeleted = nil
            list.restore(item)
            status = .message("brought back")
            return [.undelete(id: item.id)]
        case .clearSearch:
            list.search = ""
            list.filter = .all
        case .fastForward: return [.advanceClock(seconds: 60)]
        case .jumpClock: return [.jumpClock]
        case .cycleTheme:
            themeIndex = (themeIndex + 1) % max(1, themes.count)
            status = .theme(theme)
        case .search: overlay = .search
        case .cycleFilter:
            list.cycleFilter()
            status = .filter(list.filter)
        case .replay, .delete, .export: return selectedItem.map { itemCommand(action, $0) } ?? []
        case .help: overlay = .help
        case .quit: return [.quit]
        case .close, .toggleChaosRule, .addChaosRule, .removeChaosRule, .clearChaos:
            break
        }
        return []
    }

    /// What `r`, `d` and `e` ask for the selected notification; a deleted one leaves the list at once.
    private mutating func itemCommand(_ action: Action, _ item: InboxItem) -> [Command] {
        switch action {
        case .replay: return [.replay(id: item.id)]
        case .export: return [.export(id: item.id)]
        default:
            list.remove(id: item.id)
            lastDeleted = item
            status = .message("deleted — u brings it back")
            return [.delete(id: item.id)]
        }
    }

    /// A key while a language tag is typed in the picker: Enter takes a valid tag as the device
    /// language exactly as typed (its region kept, so the FCM language topic follows it), Escape
    /// stops typing.
    private mutating func editTypedLanguage(_ key: Key, _ typed: String) -> [Command] {
        switch key {
        case .escape: typedLanguage = nil
        case .backspace: typedLanguage = String(typed.dropLast())
        case .char(let c) where typed.count < 35 && (c.isASCII && (c.isLetter || c.isNumber) || c == "-" || c == "_"):
            typedLanguage = typed + String(c)
        case .enter:
            guard let tag = LanguageTag.typed(typed) else {
                status = .notALanguageTag(typed)
                return []
            }
            typedLanguage = nil
            overlay = nil
            return tag == device.languages.first ? [] : switchLanguage(to: tag)
        default: break
        }
        return []
    }

    /// Empties the inbox (confirmed): the list now, the store on the worker.
    mutating func clearInbox() -> [Command] {
        list.load([])
        lastDeleted = nil
        card = CardModel()
        status = .message("inbox cleared")
        return [.clearInbox]
    }

    /// Switches the device language; every visible notification re-renders from cached tables.
    mutating func switchLanguage(to language: String) -> [Command] {
        device.languages = [language]
        renders = [:]
        status = .language(language)
        // Another device of the fleet shown: its languages change, kept with the inbox.
        if shownDevice != FleetDevice.defaultName { return [.changeFleetDevice(name: shownDevice, change: .language([language]))] }
        return [.saveLanguages(device.languages)]
    }

    /// Moves the selection; a pressed action button belongs to the card it was pressed on.
    mutating func move(_ delta: Int) {
        list.selected += delta
        card.pressedAction = nil
    }

    /// Renderings the visible rows and the selected card still need.
    func missingRenders() -> [Command] {
        let r = rows
        let window = r[min(list.top, r.count)..<min(r.count, list.top + listHeight)]
        var ids: [Int64] = window.compactMap { if case .item(let i) = $0, !list.items[i].isRejected { return list.items[i].id } else { return nil } }
        if let s = selectedItem, !s.isRejected { ids.append(s.id) }
        let missing = Array(Set(ids.filter { renders[$0] == nil })).sorted()
        var out: [Command] = missing.isEmpty ? [] : [.render(ids: missing, languages: device.languages)]
        if let s = selectedItem, list.rawText(of: s).isEmpty { out.append(.loadRaw(id: s.id)) }
        if let s = selectedItem, let request = InboxView.thumbnailRequest(self, s), thumbnails[request] == nil {
            out.append(.thumbnail(request))
        }
        return out
    }
}
