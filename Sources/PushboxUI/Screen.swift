import PushboxLocalization

/// What a cell means; themes map roles to colours and attributes.
public enum Role: String, Sendable, CaseIterable, Codable {
    case normal, muted, header, footer, selected, title, subtitle, body, accent, warning, error, border
    case button, destructiveButton, marker, tabActive, tabInactive, overlay, input, success
}

/// One terminal cell: a grapheme (or empty for the right half of a wide one) and its role.
public struct Cell: Sendable, Equatable {
    /// What the cell shows: one character (or nothing after a wide one).
    public var text: String
    /// What the cell is, for the theme to colour.
    public var role: Role
    /// True for the columns after the first of a grapheme wider than one column.
    public var isContinuation: Bool
    /// Palette colours (foreground, background) that override the role's, for thumbnails.
    public var palette: PaletteColors?

    /// A cell with its grapheme, its role, and whether it is the second column of a wide one.
    public init(text: String, role: Role, isContinuation: Bool, palette: PaletteColors? = nil) {
        self.text = text
        self.role = role
        self.isContinuation = isContinuation
        self.palette = palette
    }

    /// A space in the normal role.
    public static let blank = Cell(text: " ", role: .normal, isContinuation: false)
}

/// Foreground and background as palette indices (0–255).
public struct PaletteColors: Sendable, Hashable {
    /// Palette index of the cell's foreground.
    public var foreground: Int
    /// Palette index of the cell's background.
    public var background: Int
}

/// A thumbnail asked for: an image file in so many cells for a palette of 256, 16 or 8 colours.
/// The card asks for it, the maker makes and caches it, and the state keeps it under it.
public struct ThumbnailRequest: Hashable, Sendable {
    /// The image file.
    public var path: String
    /// Width in cells.
    public var columns: Int
    /// Height in cells.
    public var rows: Int
    /// Colours of the terminal's palette.
    public var palette: Int

    /// The thumbnail of `path` in `columns`×`rows` cells for `palette` colours.
    public init(path: String, columns: Int, rows: Int, palette: Int) {
        self.path = path
        self.columns = columns
        self.rows = rows
        self.palette = palette
    }
}

/// An image drawn in cells: one-column symbols with two palette colours each.
public struct Thumbnail: Sendable, Equatable {
    /// One cell of a thumbnail: a symbol and its two palette colours.
    public struct Cell: Sendable, Equatable {
        /// The symbol.
        public var text: String
        /// Palette index of the symbol.
        public var foreground: Int
        /// Palette index behind it.
        public var background: Int

        /// A thumbnail cell.
        public init(text: String, foreground: Int, background: Int) {
            self.text = text
            self.foreground = foreground
            self.background = background
        }
    }

    /// Width in cells.
    public var columns: Int
    /// Height in cells.
    public var rows: Int
    /// Row by row.
    public var cells: [Cell]

    /// A thumbnail of `columns`×`rows` cells, row by row.
    public init(columns: Int, rows: Int, cells: [Cell]) {
        self.columns = columns
        self.rows = rows
        self.cells = cells
    }
}

/// A grid of cells: the pure view's output and the terminal layer's input.
public struct Screen: Sendable, Equatable {
    /// Columns.
    public let width: Int
    /// Rows.
    public let height: Int
    /// Row by row, `width` per row.
    public private(set) var cells: [Cell]

    /// A blank screen.
    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: .blank, count: self.width * self.height)
    }

    /// The cell at column `x`, row `y`.
    public subscript(x: Int, y: Int) -> Cell {
        cells[y * width + x]
    }

    /// Fills a rectangle with blanks of a role.
    public mutating func fill(x: Int, y: Int, width w: Int, height h: Int, role: Role) {
        for row in max(0, y)..<min(height, y + h) {
            for col in max(0, x)..<min(width, x + w) {
                set(col, row, Cell(text: " ", role: role, isContinuation: false))
            }
        }
    }

    /// Writes text from (x, y) within `maxWidth` columns, grapheme by grapheme; when it does not
    /// all fit, it is cut at a grapheme boundary and ends with "…". Returns the columns used.
    @discardableResult
    public mutating func put(_ text: String, x: Int, y: Int, role: Role, maxWidth: Int? = nil) -> Int {
        guard y >= 0, y < height, x < width else { return 0 }
        let limit = min(maxWidth ?? (width - x), width - x)
        guard limit > 0 else { return 0 }
        let fits = DisplayWidth.of(text) <= limit
        let room = fits ? limit : limit - 1
        var col = 0
        for g in text {
            let w = DisplayWidth.of(g)
            if w == 0 { continue }
            if col + w > room { break }
            set(x + col, y, Cell(text: String(g), role: role, isContinuation: false))
            for extra in 1..<max(1, w) { set(x + col + extra, y, Cell(text: "", role: role, isContinuation: true)) }
            col += w
        }
        if !fits {
            set(x + col, y, Cell(text: "…", role: role, isContinuation: false))
            col += 1
        }
        return col
    }

    /// Draws a thumbnail with its top-left cell at (x, y), clipped to the screen.
    public mutating func put(_ thumbnail: Thumbnail, x: Int, y: Int) {
        for row in 0..<thumbnail.rows {
            for col in 0..<thumbnail.columns {
                let t = thumbnail.cells[row * thumbnail.columns + col]
                set(
                    x + col, y + row,
                    Cell(
                        text: t.text, role: .normal, isContinuation: false,
                        palette: PaletteColors(foreground: t.foreground, background: t.background)))
            }
        }
    }

    /// Sets one cell. Writing over part of a wider cluster blanks the rest of it, so no cluster
    /// is ever left without its columns (a terminal would draw it over its neighbour).
    private mutating func set(_ x: Int, _ y: Int, _ cell: Cell) {
        guard x >= 0, x < width, y >= 0, y < height else { return }
        let row = y * width
        if !cell.isContinuation {
            if cells[row + x].isContinuation {
                var head = x - 1
                while head >= 0 && cells[row + head].isContinuation {
                    cells[row + head] = Cell(text: " ", role: cells[row + head].role, isContinuation: false)
                    head -= 1
                }
                if head >= 0 { cells[row + head] = Cell(text: " ", role: cells[row + head].role, isContinuation: false) }
            }
            var tail = x + 1
            while tail < width && cells[row + tail].isContinuation {
                cells[row + tail] = Cell(text: " ", role: cells[row + tail].role, isContinuation: false)
                tail += 1
            }
        }
        cells[row + x] = cell
    }

    /// The screen as text lines (wide graphemes once, trailing spaces kept): for snapshots.
    public var lines: [String] {
        (0..<height).map { y in
            var line = ""
            for x in 0..<width where !self[x, y].isContinuation { line += self[x, y].text }
            return line
        }
    }
}
