import Foundation
import PushboxCore
import PushboxText
import PushboxLocalization

/// Everything that happens to the UI arrives as a message on one queue.
public enum Message: Sendable {
    case key(Key)
    case resize(width: Int, height: Int)
    case loaded([InboxItem])
    case added(InboxItem)
    /// Several arrivals at once (a burst, coalesced by the runtime), newest last.
    case addedMany([InboxItem])
    /// A thumbnail made for a card.
    case thumbnailReady(key: String, Thumbnail)
    /// The pretty-printed payload of one notification, loaded when first looked at.
    case rawLoaded(id: Int64, text: String)
    /// Older notifications, loaded after the first page.
    case older([InboxItem])
    case rendered([Int64: RenderedNotification], languageKey: String)
    case matrixReady([(language: String, note: RenderedNotification)])
    /// The pending local notifications and the clock changed.
    case scheduled(ScheduledInfo)
    case status(String)
    case click(x: Int, y: Int)
    case wheel(up: Bool)
}

/// What `update` asks the outside world to do; results come back as messages.
public enum Command: Sendable, Equatable {
    /// Render these notifications for this language list (from the store's cache or anew).
    case render(ids: [Int64], languages: [String])
    /// Load the pretty-printed payload of a notification.
    case loadRaw(id: Int64)
    /// Make the thumbnail of an image file in this many cells, for this palette.
    case thumbnail(path: String, columns: Int, rows: Int, palette: Int)
    case matrix(id: Int64, languages: [String])
    case replay(id: Int64)
    case delete(id: Int64)
    case export(id: Int64)
    /// Remember the language list in the config.
    case saveLanguages([String])
    /// Move the device clock forward (delivering what falls due).
    case advanceClock(seconds: Double)
    /// Jump the device clock to the next pending local notification.
    case jumpClock
    case quit
}

extension InboxState {
    /// The Elm-style update: applies one message and returns the commands it causes.
    public mutating func update(_ message: Message) -> [Command] {
        var commands: [Command] = []
        switch message {
        case .loaded, .older, .added, .addedMany:
            rowsCache = nil
        case .rendered where filter == .withWarnings:
            rowsCache = nil
        default:
            break
        }
        switch message {
        case .resize(let w, let h):
            width = w
            height = h
        case .loaded(let list):
            items = list
            selected = 0
            listTop = 0
        case .older(let list):
            items += list
        case .addedMany(let list):
            let wasAtTop = selected == 0
            items.insert(contentsOf: list.reversed(), at: 0)
            if !wasAtTop { selected += list.count }
        case .thumbnailReady(let key, let thumbnail):
            thumbnails[key] = thumbnail
        case .rawLoaded(let id, let text):
            if let i = items.firstIndex(where: { $0.id == id }) { items[i].rawText = text }
        case .added(let item):
            let wasAtTop = selected == 0
            items.insert(item, at: 0)
            if !wasAtTop { selected += 1 }
        case .rendered(let map, let key):
            if key == languageKey { renders.merge(map) { _, new in new } }
        case .matrixReady(let list):
            matrix = list
        case .scheduled(let info):
            scheduled = info
        case .status(let text):
            status = text
        case .click(_, let y):
            overlay = nil
            let row = y - 1 + listTop
            if y >= 1, y < height - 1, row < rows.count { selected = row }
        case .wheel(let up):
            move(up ? -3 : 3)
        case .key(let key):
            commands += handle(key)
        }
        refreshRows()
        clampSelection()
        commands += missingRenders()
        return commands
    }

    /// A key goes to what has the focus: the search box, an open overlay, or the inbox. Every
    /// key reaches the program through a keymap table (`Keymap`), except text typed into search.
    private mutating func handle(_ key: Key) -> [Command] {
        if case .search(let text) = overlay { return handleSearch(key, text: text) }
        if overlay == .scheduled, let clockCommand = clockKey(key) { return clockCommand }
        if let overlay { return handleOverlay(key, overlay) }
        guard let action = Keymap.action(for: key, in: Keymap.inbox) else { return [] }
        status = nil
        return perform(action, key: key)
    }

    /// Typing into the search box: the list filters as it changes.
    private mutating func handleSearch(_ key: Key, text: String) -> [Command] {
        var text = text
        switch key {
        case .escape: overlay = nil; search = ""
        case .enter: overlay = nil
        case .backspace: if !text.isEmpty { text.removeLast() }; overlay = .search(text: text); search = text
        case .char(let c): text.append(c); overlay = .search(text: text); search = text
        default: break
        }
        selected = 0
        listTop = 0
        return []
    }

    /// Keys in an overlay: close it, or move and choose in the language picker.
    private mutating func handleOverlay(_ key: Key, _ overlay: Overlay) -> [Command] {
        let action = Keymap.action(for: key, in: Keymap.overlay)
        switch (action, overlay) {
        case (.close?, _):
            self.overlay = nil
        case (.moveDown?, .languagePicker(let s)), (.moveUp?, .languagePicker(let s)):
            let step = action == .moveDown ? 1 : -1
            self.overlay = .languagePicker(selection: (s + step + languageChoices.count) % max(1, languageChoices.count))
        case (.open?, .languagePicker(let s)):
            self.overlay = nil
            return switchLanguage(to: languageChoices[s])
        case (.open?, _):
            self.overlay = nil
        default:
            break
        }
        return []
    }

    /// An inbox action from the keymap.
    private mutating func perform(_ action: Action, key: Key) -> [Command] {
        switch action {
        case .moveDown: move(1)
        case .moveUp: move(-1)
        case .pageDown: move(listHeight)
        case .pageUp: move(-listHeight)
        case .top: selected = 0
        case .bottom: selected = rows.count - 1
        case .open: cardOpen.toggle()
        case .nextTab: tab = Tab.allCases[(tab.rawValue + 1) % Tab.allCases.count]
        case .previousTab: tab = Tab.allCases[(tab.rawValue + Tab.allCases.count - 1) % Tab.allCases.count]
        case .toggleThread: toggleSelectedThread()
        case .pickLanguage: overlay = .languagePicker(selection: currentChoice ?? 0)
        case .nextLanguage, .previousLanguage: return stepLanguage(action == .nextLanguage ? 1 : -1)
        case .localeMatrix:
            guard let item = selectedItem else { return [] }
            overlay = .matrix
            matrix = []
            return [.matrix(id: item.id, languages: languageChoices)]
        case .lockScreenPreview:
            lockScreen.toggle()
            status = lockScreen ? "lock-screen preview: title 1 line, body 4 lines at 40 columns" : "full card"
        case .pressAction: return pressAction()
        case .tap: return tap()
        case .scheduledView:
            guard scheduled != nil else { status = "this pushbox keeps no local notifications"; return [] }
            overlay = .scheduled
        case .fastForward, .jumpClock:
            if scheduled == nil { status = "this pushbox keeps no local notifications" }
            return clockKey(key) ?? []
        case .cycleTheme:
            themeIndex = (themeIndex + 1) % max(1, themes.count)
            status = "theme: \(theme)"
        case .search: overlay = .search(text: search)
        case .cycleFilter: cycleFilter()
        case .replay: if let item = selectedItem { return [.replay(id: item.id)] }
        case .delete:
            if let item = selectedItem {
                items.removeAll { $0.id == item.id }
                rowsCache = nil
                return [.delete(id: item.id)]
            }
        case .export: if let item = selectedItem { return [.export(id: item.id)] }
        case .help: overlay = .help
        case .quit:
            quit = true
            return [.quit]
        case .close:
            break
        }
        return []
    }

    /// Collapses or expands the selected row's thread, keeping the selection on its header.
    private mutating func toggleSelectedThread() {
        let r = rows
        guard selected < r.count else { return }
        let thread: String?
        switch r[selected] {
        case .thread(let id, _, _): thread = id
        case .item(let i): thread = items[i].threadID
        }
        guard let thread else { return }
        if collapsedThreads.remove(thread) == nil { collapsedThreads.insert(thread) }
        selected = rows.firstIndex { if case .thread(let id, _, _) = $0 { return id == thread } else { return false } } ?? selected
    }

    /// The next or previous device language of the picker's list.
    private mutating func stepLanguage(_ step: Int) -> [Command] {
        guard !languageChoices.isEmpty else { return [] }
        let current = currentChoice ?? -1
        let next = ((current + step) % languageChoices.count + languageChoices.count) % languageChoices.count
        return switchLanguage(to: languageChoices[next])
    }

    /// all → rejected → with warnings → each app, when notifications went to several.
    private mutating func cycleFilter() {
        var apps: [String] = []
        var seen = Set<String>()
        for item in items { if let a = item.app, seen.insert(a).inserted { apps.append(a) } }
        let appFilters = apps.count > 1 ? apps.sorted().map { Filter.app($0) } : []
        let cycle: [Filter] = [.all, .rejected, .withWarnings] + appFilters
        filter = cycle[((cycle.firstIndex(of: filter) ?? 0) + 1) % cycle.count]
        selected = 0
        status = "filter: \(filter.label)"
    }

    /// The choice the device language stands on: itself, or the localization it matches
    /// (`ko-KR` stands on `ko`).
    var currentChoice: Int? {
        guard let first = languages.first else { return nil }
        if let exact = languageChoices.firstIndex(of: first) { return exact }
        let localizations = languageChoices.filter { Pseudolanguage(tag: $0) == nil }
        let match = LanguageMatcher(available: localizations, developmentRegion: localizations.first ?? "en").match([first])
        return match.preferred == nil ? nil : languageChoices.firstIndex(of: match.localization)
    }

    /// Switches the device language; every visible notification re-renders from cached tables.
    mutating func switchLanguage(to language: String) -> [Command] {
        languages = [language]
        renders = [:]
        status = "language: \(LanguageNames.describe(language))"
        return [.saveLanguages(languages)]
    }

    mutating func move(_ delta: Int) {
        selected += delta
        pressedAction = nil
    }

    /// Keeps the selection on a row and the list scrolled to it.
    mutating func clampSelection() {
        let count = rows.count
        selected = max(0, min(selected, count - 1))
        if selected < listTop { listTop = selected }
        if selected >= listTop + listHeight { listTop = selected - listHeight + 1 }
        listTop = max(0, min(listTop, max(0, count - listHeight)))
    }

    /// Renderings the visible rows and the selected card still need.
    func missingRenders() -> [Command] {
        let r = rows
        let window = r[min(listTop, r.count)..<min(r.count, listTop + listHeight)]
        var ids: [Int64] = window.compactMap { if case .item(let i) = $0, !items[i].isRejected { return items[i].id } else { return nil } }
        if let s = selectedItem, !s.isRejected { ids.append(s.id) }
        let missing = Array(Set(ids.filter { renders[$0] == nil })).sorted()
        var out: [Command] = missing.isEmpty ? [] : [.render(ids: missing, languages: languages)]
        if let s = selectedItem, s.rawText.isEmpty { out.append(.loadRaw(id: s.id)) }
        if let s = selectedItem, let spec = InboxView.thumbnailSpec(self, s), thumbnails[spec.key] == nil {
            out.append(.thumbnail(path: spec.path, columns: spec.columns, rows: spec.rows, palette: palette))
        }
        return out
    }
}
