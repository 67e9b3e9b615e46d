import CNcursesw

/// The ncursesw the terminal is read and described with.
public enum NcursesVersion {
    /// `ncurses 6.4.20221231`.
    public static var description: String { String(cString: curses_version()) }
}
